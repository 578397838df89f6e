// Rule tests as data (engine/rule_tests.h): the shipped ones pass, bad files are diagnosed at
// their line, and a wrong expectation is reported as a failure.
#include "engine/scoring/rule_tests.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using ::testing::HasSubstr;
using testing::Shipped;

TEST(RuleTests, ShippedTestsPassAndExerciseEveryRule) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  EmbeddedSource src;
  std::vector<std::string> files = src.List("rules", ".test.yaml");
  ASSERT_FALSE(files.empty());
  Diagnostics d;
  std::vector<RuleTest> tests;
  for (const std::string& f : files) {
    std::vector<RuleTest> t = ReadRuleTests(*src.Read(f), f, *e.evaluator, &d);
    tests.insert(tests.end(), t.begin(), t.end());
  }
  ASSERT_FALSE(d.HasErrors()) << d.Render();
  RuleTestReport r = RunRuleTests(*e.evaluator, tests);
  for (const RuleTestResult& t : r.results) {
    EXPECT_TRUE(t.passed()) << t.name << ":\n  " << (t.failures.empty() ? "" : t.failures[0]);
  }
  std::string unexercised;
  for (const auto& [id, where] : r.unexercised) unexercised += id + " ";
  EXPECT_TRUE(r.unexercised.empty()) << "rules no shipped test exercises: " << unexercised;
}

TEST(RuleTests, UnknownNamesAreDiagnosedWithDidYouMean) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  Diagnostics d;
  ReadRuleTests(R"(schema: fitrank.rule-tests/v1
tests:
  - name: typos
    gpu: RTX 4090
    model: qwen3-32b
    workload: codng
    expect:
      grade: B..Z
      fires: [fit.offlaod]
      score: lots
)", "t.test.yaml", *e.evaluator, &d);
  std::string out = d.Render();
  EXPECT_THAT(out, HasSubstr("t.test.yaml:6:15: error: unknown workload `codng`"));
  EXPECT_THAT(out, HasSubstr("did you mean `coding`?"));
  EXPECT_THAT(out, HasSubstr("`grade: B..Z` is not a grade"));
  EXPECT_THAT(out, HasSubstr("no rule has the id `fit.offlaod`"));
  EXPECT_THAT(out, HasSubstr("did you mean `fit.offload`?"));
  EXPECT_THAT(out, HasSubstr("`score: lots` is not a range"));
}

// Score bounds are plain decimal and finite (base/numbers.h): `nan`, `inf`, hex and reversed
// ranges were once read by SimpleAtod into bounds that no score (or every score) meets.
TEST(RuleTests, ScoreRangesAreDecimalAndOrdered) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  for (const char* bad : {"nan..70", "..nan", "inf..", "-inf..0", "0x10..70", "40..0x1p3",
                          "70..40", "1e999..", "40 .. 7O", ".."}) {
    Diagnostics d;
    std::vector<RuleTest> tests = ReadRuleTests(absl::StrCat(R"(schema: fitrank.rule-tests/v1
tests:
  - name: bounds
    gpu: RTX 4090
    model: qwen3-32b
    workload: chat
    expect:
      score: ")", bad, "\"\n"), "t.test.yaml", *e.evaluator, &d);
    EXPECT_THAT(d.Render(), HasSubstr(absl::StrCat("t.test.yaml:8:14: error: `score: ", bad,
                                                   "` is not a range like 40..70")))
        << bad;
  }
  Diagnostics d;
  std::vector<RuleTest> tests = ReadRuleTests(R"(schema: fitrank.rule-tests/v1
tests:
  - name: bounds
    gpu: RTX 4090
    model: qwen3-32b
    workload: chat
    expect:
      score: 12.5..1e2
)", "t.test.yaml", *e.evaluator, &d);
  ASSERT_FALSE(d.HasErrors()) << d.Render();
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_TRUE(tests[0].has_score_min && tests[0].has_score_max);
  EXPECT_EQ(tests[0].score_min, 12.5);
  EXPECT_EQ(tests[0].score_max, 100);
}

TEST(RuleTests, AWrongExpectationFailsWithWhatWasFound) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  Diagnostics d;
  std::vector<RuleTest> tests = ReadRuleTests(R"(schema: fitrank.rule-tests/v1
tests:
  - name: a 1B model is not the best chat pick on an H100
    gpu: H100 SXM5
    model: llama-3.2-1b-instruct
    workload: chat
    expect:
      grade: A
      ranks_above: qwen3-32b
      fires: [fit.offload]
  - name: nothing small on top
    gpu: H100 SXM5
    workload: chat
    expect:
      never_recommend: {params_below_b: 1000, top: 1}
)", "t.test.yaml", *e.evaluator, &d);
  ASSERT_FALSE(d.HasErrors()) << d.Render();
  RuleTestReport r = RunRuleTests(*e.evaluator, tests);
  ASSERT_EQ(r.results.size(), 2u);
  EXPECT_EQ(r.failed, 2);
  ASSERT_EQ(r.results[0].failures.size(), 3u);
  EXPECT_THAT(r.results[0].failures[0], HasSubstr("expected grade A, got"));
  EXPECT_THAT(r.results[0].failures[1], HasSubstr("expected `fit.offload` to fire"));
  EXPECT_THAT(r.results[0].failures[2], HasSubstr("to rank above qwen3-32b"));
  EXPECT_THAT(r.results[1].failures[0], HasSubstr("is pick #1, among the top 1"));
}

}  // namespace
}  // namespace fitrank
