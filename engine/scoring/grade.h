// From rule-set totals to a score and a letter grade.
//
//   set score   = set total clamped to GradeScale's set range (0..100 shipped)
//   weight      = workload weight of the set x the mode's multiplier (profiles/*.yaml)
//   raw score   = sum(weight x set score) / sum(weight)          -- a weighted mean, 0..100
//   cap         = the worst `cap:` among fired rules: the score is lowered to just under the
//                 next better grade (GradeScale::CeilingFor), so rank and grade agree
//   grade       = the grade whose range holds the final score
//   gate        = a fired `gate: true` rule excludes the candidate (grade: the last, F)
//
// Everything here is allocation-free per candidate; SetWeights is built once per query.
#ifndef FITRANK_ENGINE_SCORING_GRADE_H_
#define FITRANK_ENGINE_SCORING_GRADE_H_

#include <cstdint>
#include <vector>

#include "profiles/profiles.h"
#include "rules/compiled_rules.h"

namespace fitrank {

// Effective weight of every rule set of a compiled book, for one workload and mode, indexed
// like CompiledRules::sets(). Sets the profile does not weigh are 0.
struct SetWeights {
  SetWeights() = default;
  explicit SetWeights(std::vector<double> weights);  // total and terms worked out from them

  // The weight of a set that has one, in set order: what ScoreOf and MostScoreOf add up (a
  // query weighs about two thirds of the sets).
  struct Term {
    int32_t set = 0;
    double weight = 0;
  };

  std::vector<double> weight;
  double total = 0;  // sum of weights in set order (> 0 for any valid profile)
  std::vector<Term> terms;
};
SetWeights WeightsFor(const rules::CompiledRules& rules, const Workload& workload,
                      const Mode& mode);

struct Score {
  double raw = 0;      // weighted mean of the clamped set scores
  double score = 0;    // after the cap (== raw when no cap lowered it); 0 when gated
  int grade = 0;       // index into GradeScale::grades (0 = best)
  int cap = -1;        // the cap that fired (grade index), -1 none
  bool capped = false; // the cap lowered the grade
  bool gated = false;  // excluded by a gate rule
};

// The set score of `total` (clamped to the scale's set range).
double SetScore(const GradeScale& scale, double total);

// The largest raw score (Score::raw, hence Score::score) of any evaluation whose set totals
// lie within [set_least[i], set_most[i]] (CompiledRules::Bound); infinite bounds are clamped
// to the set range like totals. Computed like ScoreOf, so that floating point cannot make a
// score exceed its bound.
double MostScoreOf(const double* set_least, const double* set_most, const SetWeights& weights,
                   const GradeScale& scale);

// Scores one evaluation. Rule caps are indexes into the rules' Vocabulary::grades, which the
// engine builds from `scale` (same letters, same order).
Score ScoreOf(const rules::EvalResult& result, const SetWeights& weights,
              const GradeScale& scale);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_GRADE_H_
