// `fitrank rules diff OLD NEW`: for every GPU (one of it, default host) and each workload and
// mode asked for, the top K picks under two rule trees, and what changed: the top pick, the
// grades, ranks and quantizations of the models in either top K.
#ifndef FITRANK_ENGINE_SCORING_DIFF_H_
#define FITRANK_ENGINE_SCORING_DIFF_H_

#include <functional>
#include <string>
#include <vector>

#include "engine/scoring/evaluate.h"
#include "engine/scoring/sweep.h"

namespace fitrank {

struct DiffPick {
  std::string model_id;
  std::string quant;
  std::string grade;
  double score = 0;
};

struct DiffModelChange {
  std::string model_id;
  int old_rank = 0, new_rank = 0;  // 1-based within the top K; 0: not in it
  std::string old_grade, new_grade;
  std::string old_quant, new_quant;
  double old_score = 0, new_score = 0;
};

struct DiffCell {
  const Gpu* gpu = nullptr;
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
  std::vector<DiffPick> old_top, new_top;
  bool top_changed = false;              // the #1 pick is another model
  std::vector<DiffModelChange> changes;  // models whose rank, grade or quant changed
};

struct RulesDiff {
  int top = 5;
  int cells = 0;               // GPU x workload x mode rankings compared
  int cells_changed = 0;       // with any change in the top K
  int top_pick_changed = 0;
  int grade_changes = 0;       // (model, cell) pairs whose grade changed
  int rank_changes = 0;        // ... whose rank changed (including entering or leaving the top K)
  int quant_changes = 0;
  std::vector<DiffCell> changed;  // only the cells with changes, in plan order
};

// Both evaluators must share one catalog, estimator and profiles. `plan.top` is K (5 if 0).
RulesDiff DiffRules(const Evaluator& old_rules, const Evaluator& new_rules, SweepPlan plan,
                    const std::function<void(int, int)>& progress = {});

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_DIFF_H_
