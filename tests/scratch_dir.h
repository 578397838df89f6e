// A fresh, empty directory for a test: <temp>/fitrank_<name>_<pid>, removed and made anew, and
// removed again when the test process exits. The process id keeps suites that run at once (two
// build trees, two ctest runs on one machine) out of each other's files; within one process a
// name is one directory.
#ifndef FITRANK_TESTS_SCRATCH_DIR_H_
#define FITRANK_TESTS_SCRATCH_DIR_H_

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace fitrank::testing {

namespace scratch_internal {
// The directories made by this process, removed at its exit (errors ignored).
struct Made {
  std::vector<std::filesystem::path> dirs;
  ~Made() {
    for (const std::filesystem::path& d : dirs) {
      std::error_code ignored;
      std::filesystem::permissions(d, std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::add, ignored);
      std::filesystem::remove_all(d, ignored);
    }
  }
};
inline Made& made() {
  static Made m;
  return m;
}
}  // namespace scratch_internal

inline std::string ScratchDir(const std::string& name) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("fitrank_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  scratch_internal::made().dirs.push_back(p);
  return p.string();
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_SCRATCH_DIR_H_
