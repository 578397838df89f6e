#include "engine/scoring/grade.h"

#include <algorithm>

namespace fitrank {

SetWeights WeightsFor(const rules::CompiledRules& rules, const Workload& workload,
                      const Mode& mode) {
  SetWeights w;
  w.weight.resize(rules.set_count());
  for (int s = 0; s < rules.set_count(); ++s) {
    const std::string& set = rules.sets()[s];
    w.weight[s] = workload.WeightOf(set) * mode.MultiplierOf(set);
    w.total += w.weight[s];
  }
  return w;
}

double SetScore(const GradeScale& scale, double total) {
  return std::clamp(total, scale.set_score_min, scale.set_score_max);
}

double MostScoreOf(const double* set_least, const double* set_most, const SetWeights& weights,
                   const GradeScale& scale) {
  double sum = 0;
  for (size_t i = 0; i < weights.weight.size(); ++i) {
    const double w = weights.weight[i];
    if (w != 0) sum += w * SetScore(scale, w > 0 ? set_most[i] : set_least[i]);
  }
  return weights.total > 0 ? sum / weights.total : 0;
}

Score ScoreOf(const rules::EvalResult& result, const SetWeights& weights,
              const GradeScale& scale) {
  Score s;
  double sum = 0;
  const size_t sets = std::min(weights.weight.size(), result.set_total.size());
  for (size_t i = 0; i < sets; ++i) {
    if (weights.weight[i] != 0) sum += weights.weight[i] * SetScore(scale, result.set_total[i]);
  }
  s.raw = weights.total > 0 ? sum / weights.total : 0;
  s.score = s.raw;
  s.cap = result.cap;
  if (result.cap >= 0 && result.cap < static_cast<int>(scale.grades.size())) {
    double ceiling = scale.CeilingFor(result.cap);
    if (s.score > ceiling) {
      s.score = ceiling;
      s.capped = true;
    }
  }
  s.gated = result.gated;
  if (s.gated) {
    s.score = 0;
    s.grade = static_cast<int>(scale.grades.size()) - 1;
    return s;
  }
  s.grade = scale.IndexFor(s.score);
  return s;
}

}  // namespace fitrank
