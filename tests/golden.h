// Golden-file assertions for tests: compare produced text with a file under tests/golden/.
//
//   EXPECT_GOLDEN(Render(report), "catalog/missing_field.txt");
//
// The file path is relative to tests/golden/. A mismatch fails the test and prints both texts
// (gtest's diff). To accept new output, rerun the tests with FITRANK_UPDATE_GOLDEN=1: every
// golden file compared is rewritten with the actual text (and the test passes); review the
// change with `git diff tests/golden` before committing.
//
// Header-only; needs FITRANK_SOURCE_DIR (set for every test binary by tests/CMakeLists.txt).
#ifndef FITRANK_TESTS_GOLDEN_H_
#define FITRANK_TESTS_GOLDEN_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace fitrank::testing {

inline std::string GoldenPath(const std::string& relative) {
  return std::string(FITRANK_SOURCE_DIR) + "/tests/golden/" + relative;
}

inline bool UpdatingGoldens() {
  const char* v = std::getenv("FITRANK_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// Reads a file under the source tree; empty if it does not exist.
inline std::string ReadSourceFile(const std::string& path_from_root) {
  std::ifstream in(std::string(FITRANK_SOURCE_DIR) + "/" + path_from_root, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline ::testing::AssertionResult MatchesGolden(const std::string& actual,
                                                const std::string& relative) {
  const std::string path = GoldenPath(relative);
  if (UpdatingGoldens()) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return ::testing::AssertionSuccess() << "updated " << path;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return ::testing::AssertionFailure()
           << "no golden file " << path << "; run with FITRANK_UPDATE_GOLDEN=1 to create it.\n"
           << "actual:\n" << actual;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (ss.str() == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "output differs from " << path
         << " (FITRANK_UPDATE_GOLDEN=1 rewrites it)\n--- expected\n" << ss.str()
         << "--- actual\n" << actual;
}

}  // namespace fitrank::testing

#define EXPECT_GOLDEN(actual, relative) \
  EXPECT_TRUE(::fitrank::testing::MatchesGolden((actual), (relative)))

#endif  // FITRANK_TESTS_GOLDEN_H_
