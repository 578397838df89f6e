// Grades, best quantizations and ranked picks for the reports, from the rule engine
// (engine/scoring/evaluate.h): exactly what `fitrank rules explain` and `fitrank sweep` see for
// the same setup, workload and mode.
//
// Thread safety: all methods are const and may be called from any number of threads; prepared
// queries are cached per (setup, workload, mode) under a mutex, because the reports of one
// page ask the same question many times.
#ifndef FITRANK_ENGINE_REPORT_GRADER_H_
#define FITRANK_ENGINE_REPORT_GRADER_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/types.h"
#include "engine/estimator/setup.h"
#include "engine/report/report.h"
#include "engine/scoring/evaluate.h"
#include "profiles/profiles.h"

namespace fitrank {

struct ReportPolicy;  // engine/report/policy.h

struct Graded {
  std::string grade;                  // "A".."F"; "" when not graded
  int grade_index = -1;               // into the profiles' grade scale, best first; -1 not graded
  double score = 0;                   // 0-100
  bool excluded = false;              // a gate excluded the candidate
  std::vector<std::string> reasons;   // sentences of the rules that fired
  std::vector<std::string> tags;
  std::vector<std::string> advice;    // advice ids of the rules that fired
};

class Grader {
 public:
  // `evaluator` must outlive the Grader.
  // `policy` writes the grade-cap note (reports.yaml `grade.capped`); both must outlive it.
  Grader(const Evaluator& evaluator, const ReportPolicy& policy)
      : eval_(&evaluator), policy_(&policy) {}

  // Grades `model` at `quant` on `setup` for a workload and mode. Empty (grade "") if the
  // candidate cannot be evaluated (a quant the catalog does not list, a setup Prepare refuses).
  Graded Grade(const Setup& setup, const Model& model, const Quant& quant,
               const Workload& workload, const Mode& mode) const;
  // The model's best quantization on the setup by the same rules (nullptr if none runs),
  // with its grade in `graded` (optional).
  const Quant* BestQuant(const Setup& setup, const Model& model, const Workload& workload,
                         const Mode& mode, Graded* graded) const;
  // The top `k` picks for the workload and mode, ranked; each pick filled completely, its run
  // command for the setup the candidate was estimated on (scale-out: its GPU count).
  // Excluded (gated) candidates are never returned.
  std::vector<Pick> Rank(const Setup& setup, const Workload& workload, const Mode& mode,
                         int k) const;

  const Evaluator& evaluator() const { return *eval_; }

 private:
  const Query* QueryFor(const Setup& setup, const Workload& workload, const Mode& mode) const;
  Graded GradedOf(const Query& q, const CandidateEval& c) const;

  const Evaluator* eval_;
  const ReportPolicy* policy_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::unique_ptr<Query>> queries_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_GRADER_H_
