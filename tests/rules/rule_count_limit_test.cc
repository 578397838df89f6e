// The rule-count limit (rules/rule_file.h kMaxRules, SECURITY.md): a file's `rules` or
// `overrides` beyond it, or a merged book beyond it, is a located `too-many-rules` error.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/rule_book.h"
#include "rules/rule_file.h"

namespace fitrank::rules {
namespace {

// A rule file of set `set` with `n` rules `<set>.r<i>` from `first`, each scoring 1.
std::string RulesFile(const std::string& set, int first, int n) {
  std::string y = absl::StrCat("schema: fitrank.rules/v1\nset: ", set, "\nrules:\n");
  for (int i = first; i < first + n; ++i) {
    absl::StrAppend(&y, "  - id: ", set, ".r", i, "\n    score: 1\n    say: one\n");
  }
  return y;
}

int CountCode(const Diagnostics& d, const std::string& code) {
  int n = 0;
  for (const Diagnostic& x : d.all()) n += x.code == code;
  return n;
}

TEST(RuleCountLimit, AFileAtTheLimitIsRead) {
  Diagnostics d;
  RuleFile f = ReadRuleFile(RulesFile("fit", 0, kMaxRules), "f.yaml", true, &d);
  EXPECT_FALSE(d.HasErrors()) << d.Render();
  EXPECT_EQ(f.rules.size(), static_cast<size_t>(kMaxRules));
}

TEST(RuleCountLimit, OneRuleMoreIsALocatedErrorAndNothingIsRead) {
  Diagnostics d;
  RuleFile f = ReadRuleFile(RulesFile("fit", 0, kMaxRules + 1), "f.yaml", true, &d);
  EXPECT_TRUE(f.rules.empty());
  ASSERT_EQ(CountCode(d, "too-many-rules"), 1) << d.Render();
  EXPECT_NE(d.Render().find(absl::StrCat("f.yaml:4:3: error: `rules` has ", kMaxRules + 1,
                                         " entries; a rule file holds at most ", kMaxRules,
                                         " [too-many-rules]")),
            std::string::npos)
      << d.Render().substr(0, 400);
}

TEST(RuleCountLimit, OverridesHaveTheSameLimit) {
  std::string y = "schema: fitrank.rules/v1\noverrides:\n";
  for (int i = 0; i <= kMaxRules; ++i) absl::StrAppend(&y, "  - {id: fit.r", i, ", disable: true}\n");
  Diagnostics d;
  RuleFile f = ReadRuleFile(y, "o.yaml", true, &d);
  EXPECT_TRUE(f.overrides.empty());
  EXPECT_NE(d.Render().find(absl::StrCat("o.yaml:3:3: error: `overrides` has ", kMaxRules + 1,
                                         " entries")),
            std::string::npos)
      << d.Render().substr(0, 400);
}

// Files under the limit each, over it together: one error at the first rule past it.
TEST(RuleCountLimit, TheMergedBookHasTheLimitToo) {
  Diagnostics d;
  const int half = kMaxRules / 2 + 1;
  std::vector<RuleFile> files = {ReadRuleFile(RulesFile("fit", 0, half), "a.yaml", true, &d),
                                 ReadRuleFile(RulesFile("fit", half, half), "b.yaml", true, &d)};
  ASSERT_FALSE(d.HasErrors()) << d.Render();
  RuleBook book = MergeRuleFiles(files, &d);
  EXPECT_EQ(book.rules.size(), static_cast<size_t>(kMaxRules));
  ASSERT_EQ(CountCode(d, "too-many-rules"), 1) << d.Render();
  // Rule number kMaxRules + 1 is rule `kMaxRules - half` of b.yaml (3 lines a rule, from line 4).
  const int index_in_b = kMaxRules - half;
  EXPECT_NE(d.Render().find(absl::StrCat("b.yaml:", 4 + 3 * index_in_b, ":9: error: rule `fit.r",
                                         kMaxRules, "` is one more than the ", kMaxRules,
                                         " rules a rule book holds")),
            std::string::npos)
      << d.Render();
}

}  // namespace
}  // namespace fitrank::rules
