// The Scorer of the reports backed by the rule engine (engine/evaluate.h): grades, best
// quantizations and rankings exactly as `fitrank rules explain` and `fitrank sweep` see them.
#ifndef FITRANK_ENGINE_REPORT_SCORING_RULES_H_
#define FITRANK_ENGINE_REPORT_SCORING_RULES_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/scoring/evaluate.h"
#include "engine/report/scoring.h"

namespace fitrank {

class RulesScorer : public Scorer {
 public:
  explicit RulesScorer(std::unique_ptr<Evaluator> evaluator) : eval_(std::move(evaluator)) {}

  Graded Grade(const Setup& setup, const Model& model, const Quant& quant,
               const std::string& workload, const std::string& mode) const override;
  const Quant* BestQuant(const Setup& setup, const Model& model, const std::string& workload,
                         const std::string& mode, Graded* graded) const override;
  std::vector<Pick> Rank(const Setup& setup, const std::string& workload,
                         const std::string& mode, int k) const override;

  const Evaluator& evaluator() const { return *eval_; }

 private:
  // Prepared queries, cached by (setup, workload, mode): reports ask the same one many times.
  const Query* QueryFor(const Setup& setup, const std::string& workload,
                        const std::string& mode) const;
  Graded GradedOf(const Query& q, const CandidateEval& c) const;

  std::unique_ptr<Evaluator> eval_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::unique_ptr<Query>> queries_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_SCORING_RULES_H_
