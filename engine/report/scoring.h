// The reports' view of the scoring engine (rules x profiles): a grade with its reasons for one
// candidate, the best quantization of a model, and ranked picks. Reports talk to this
// interface only, so they build (without grades) before scoring is wired in, and tests can
// supply a fake.
#ifndef FITRANK_ENGINE_REPORT_SCORING_H_
#define FITRANK_ENGINE_REPORT_SCORING_H_

#include <string>
#include <vector>

#include "catalog/types.h"
#include "engine/report/report.h"
#include "engine/estimator/setup.h"

namespace fitrank {

struct Graded {
  std::string grade;                  // "A".."F"; "" when not graded
  double score = 0;                   // 0-100
  bool excluded = false;              // a gate excluded the candidate
  std::vector<std::string> reasons;   // sentences of the rules that fired
  std::vector<std::string> tags;
  std::vector<std::string> advice;    // advice ids of the rules that fired
};

class Scorer {
 public:
  virtual ~Scorer() = default;
  // Grades `model` at `quant` on `setup` for a workload and mode (ids already validated).
  virtual Graded Grade(const Setup& setup, const Model& model, const Quant& quant,
                       const std::string& workload, const std::string& mode) const = 0;
  // The model's best quantization on the setup by the same rules (nullptr if none runs),
  // with its grade.
  virtual const Quant* BestQuant(const Setup& setup, const Model& model,
                                 const std::string& workload, const std::string& mode,
                                 Graded* graded) const = 0;
  // The top `k` picks for the workload and mode, ranked; each pick filled completely except
  // `run_command`. Excluded (gated) candidates are never returned.
  virtual std::vector<Pick> Rank(const Setup& setup, const std::string& workload,
                                 const std::string& mode, int k) const = 0;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_SCORING_H_
