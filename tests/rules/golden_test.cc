// Lint diagnostics as golden files: tests/golden/rules/<case>.yaml is linted as a local rule
// file on top of tests/golden/rules/_shipped.yaml; the rendered diagnostics must equal
// <case>.txt. To accept new output after a deliberate change:
//   FITRANK_UPDATE_GOLDEN=1 build/tests/rules_tests --gtest_filter='Golden*'
// and review the diff.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file_source.h"
#include "gtest/gtest.h"
#include "rules/lint.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

namespace fs = std::filesystem;

fs::path GoldenDir() { return fs::path(FITRANK_SOURCE_DIR) / "tests" / "golden" / "rules"; }

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string LintCase(const std::string& name, const std::string& content) {
  testing::TestFacts t;
  MemorySource shipped;
  shipped.Set("rules/shipped.yaml", ReadFile(GoldenDir() / "_shipped.yaml"));
  RuleSources base;
  base.shipped = &shipped;
  Diagnostics d;
  absl::Status s = LintRuleFiles(&base, {{name, content, true}}, t.schema,
                                 testing::TestVocabulary(), &d);
  EXPECT_TRUE(s.ok()) << s;
  return absl::StrCat(d.Render(), d.error_count(), d.error_count() == 1 ? " error, " : " errors, ",
                      d.warning_count(), d.warning_count() == 1 ? " warning\n" : " warnings\n");
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, LintOutputMatches) {
  const std::string name = GetParam();
  const std::string yaml = ReadFile(GoldenDir() / (name + ".yaml"));
  const std::string got = LintCase(name + ".yaml", yaml);
  const fs::path expected_path = GoldenDir() / (name + ".txt");
  if (std::getenv("FITRANK_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(expected_path, std::ios::binary) << got;
    GTEST_SKIP() << "updated " << expected_path;
  }
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing";
  EXPECT_EQ(got, ReadFile(expected_path));
}

std::vector<std::string> Cases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(GoldenDir())) {
    std::string file = e.path().filename().string();
    if (e.path().extension() == ".yaml" && file[0] != '_') out.push_back(e.path().stem().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Rules, Golden, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(GoldenShipped, BaseIsClean) {
  EXPECT_EQ(LintCase("empty.yaml", "schema: fitrank.rules/v1\n"), "0 errors, 0 warnings\n");
}

}  // namespace
}  // namespace fitrank::rules
