#include "engine/scoring/grade.h"

#include <algorithm>
#include <utility>

namespace fitrank {

SetWeights::SetWeights(std::vector<double> weights) : weight(std::move(weights)) {
  for (size_t s = 0; s < weight.size(); ++s) {
    total += weight[s];
    if (weight[s] != 0) terms.push_back({static_cast<int32_t>(s), weight[s]});
  }
}

SetWeights WeightsFor(const rules::CompiledRules& rules, const Workload& workload,
                      const Mode& mode) {
  std::vector<double> weight(rules.set_count());
  for (int s = 0; s < rules.set_count(); ++s) {
    const std::string& set = rules.sets()[s];
    weight[s] = workload.WeightOf(set) * mode.MultiplierOf(set);
  }
  return SetWeights(std::move(weight));
}

double SetScore(const GradeScale& scale, double total) {
  return std::clamp(total, scale.set_score_min, scale.set_score_max);
}

double MostScoreOf(const double* set_least, const double* set_most, const SetWeights& weights,
                   const GradeScale& scale) {
  double sum = 0;
  for (const SetWeights::Term& t : weights.terms) {
    sum += t.weight * SetScore(scale, t.weight > 0 ? set_most[t.set] : set_least[t.set]);
  }
  return weights.total > 0 ? sum / weights.total : 0;
}

Score ScoreOf(const rules::EvalResult& result, const SetWeights& weights,
              const GradeScale& scale) {
  Score s;
  double sum = 0;
  const int32_t sets = static_cast<int32_t>(result.set_total.size());
  for (const SetWeights::Term& t : weights.terms) {
    if (t.set >= sets) break;  // terms are in set order
    sum += t.weight * SetScore(scale, result.set_total[t.set]);
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
