// The arithmetic from set totals to a score and a grade (engine/grade.h), on hand-made inputs.
#include "engine/scoring/grade.h"

#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

GradeScale Scale() {
  GradeScale s;
  s.grades = {{"A", 80, "", ""}, {"B", 68, "", ""}, {"C", 55, "", ""}, {"D", 42, "", ""}, {"F", 0, "", ""}};
  s.cap_margin = 0.1;
  return s;
}

rules::EvalResult Totals(std::vector<double> totals) {
  rules::EvalResult r;
  r.set_total = std::move(totals);
  return r;
}

TEST(ScoreOf, IsTheWeightedMeanOfClampedSetTotals) {
  SetWeights w({0.5, 0.25, 0.25});
  // The second set's total is clamped to 100, the third's to 0.
  Score s = ScoreOf(Totals({80, 150, -20}), w, Scale());
  EXPECT_DOUBLE_EQ(s.raw, 0.5 * 80 + 0.25 * 100 + 0);
  EXPECT_DOUBLE_EQ(s.score, s.raw);
  EXPECT_EQ(s.grade, 2);  // 65 -> C
  EXPECT_FALSE(s.capped);
}

TEST(ScoreOf, WeightsNeedNotSumToOne) {
  SetWeights w({2, 2});
  Score s = ScoreOf(Totals({90, 70}), w, Scale());
  EXPECT_DOUBLE_EQ(s.raw, 80);
  EXPECT_EQ(s.grade, 0);
}

TEST(ScoreOf, ACapLowersTheScoreJustUnderTheNextBetterGrade) {
  SetWeights w({1});
  rules::EvalResult r = Totals({95});
  r.cap = 2;  // C
  Score s = ScoreOf(r, w, Scale());
  EXPECT_DOUBLE_EQ(s.raw, 95);
  EXPECT_DOUBLE_EQ(s.score, 67.9);
  EXPECT_TRUE(s.capped);
  EXPECT_EQ(s.grade, 2);
  // A cap above the grade the score earns changes nothing.
  r = Totals({50});
  r.cap = 1;
  s = ScoreOf(r, w, Scale());
  EXPECT_DOUBLE_EQ(s.score, 50);
  EXPECT_FALSE(s.capped);
  EXPECT_EQ(s.grade, 3);
}

TEST(ScoreOf, AGateExcludesWithTheWorstGrade) {
  SetWeights w({1});
  rules::EvalResult r = Totals({99});
  r.gated = true;
  Score s = ScoreOf(r, w, Scale());
  EXPECT_TRUE(s.gated);
  EXPECT_DOUBLE_EQ(s.score, 0);
  EXPECT_EQ(s.grade, 4);
  EXPECT_DOUBLE_EQ(s.raw, 99);
}

TEST(WeightsFor, MultipliesWorkloadWeightsByModeMultipliers) {
  const auto& e = testing::Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const rules::CompiledRules& book = e.evaluator->rules();
  const Workload& chat = *e.profiles->FindWorkload("chat").found;
  const Mode& api = *e.profiles->FindMode("light-api").found;
  SetWeights w = WeightsFor(book, chat, api);
  int serving = book.FindSet("serving");
  ASSERT_GE(serving, 0);
  EXPECT_DOUBLE_EQ(w.weight[serving], chat.WeightOf("serving") * api.MultiplierOf("serving"));
  double total = 0;
  for (double x : w.weight) total += x;
  EXPECT_DOUBLE_EQ(w.total, total);
}

TEST(SetWeights, TermsAreTheWeighedSetsInSetOrder) {
  SetWeights w({0.5, 0, -0.25, 0, 1});
  ASSERT_EQ(w.terms.size(), 3u);
  EXPECT_EQ(w.terms[0].set, 0);
  EXPECT_EQ(w.terms[1].set, 2);
  EXPECT_DOUBLE_EQ(w.terms[1].weight, -0.25);
  EXPECT_EQ(w.terms[2].set, 4);
  EXPECT_DOUBLE_EQ(w.total, 1.25);
}

TEST(MostScoreOf, TakesEachSetsBestEndAndSkipsUnweighedSets) {
  // A positive weight takes the most, a negative one the least; the unweighed set's bounds
  // (infinite here) are not read; infinite bounds clamp to the set range.
  SetWeights w({1, 0, -1, 2});
  const double inf = std::numeric_limits<double>::infinity();
  const double least[] = {10, -inf, 30, 40};
  const double most[] = {20, inf, 50, inf};
  EXPECT_DOUBLE_EQ(MostScoreOf(least, most, w, Scale()), (20 - 30 + 2 * 100) / 2.0);
}

TEST(MostScoreOf, NoTotalsWithinTheBoundsScoreAbove) {
  SetWeights w({0.3, 0.1, 0.45, 0, 0.15});
  const double least[] = {12.5, 40, 71.3, 0, -20};
  const double most[] = {64.25, 40, 99.9, 0, 130};
  const double bound = MostScoreOf(least, most, w, Scale());
  for (int i = 0; i <= 16; ++i) {
    std::vector<double> totals;
    for (int s = 0; s < 5; ++s) totals.push_back(least[s] + (most[s] - least[s]) * i / 16);
    EXPECT_LE(ScoreOf(Totals(totals), w, Scale()).raw, bound) << "step " << i;
  }
  // At the upper ends the bound is the score itself.
  EXPECT_DOUBLE_EQ(ScoreOf(Totals({64.25, 40, 99.9, 0, 130}), w, Scale()).raw, bound);
}

}  // namespace
}  // namespace fitrank
