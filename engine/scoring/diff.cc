#include "engine/scoring/diff.h"

#include <map>

namespace fitrank {
namespace {

DiffPick PickOf(const CandidateEval& c, const GradeScale& scale) {
  return {c.model->id, c.quant->id, scale.grades[c.score.grade].letter, c.score.score};
}

}  // namespace

RulesDiff DiffRules(const Evaluator& old_rules, const Evaluator& new_rules, SweepPlan plan,
                    const std::function<void(int, int)>& progress) {
  if (plan.top <= 0) plan.top = 5;
  RulesDiff d;
  d.top = plan.top;
  std::vector<DiffCell> cells;
  // One sweep under both rule trees: the estimates do not depend on the rules, so each
  // candidate is estimated once and scored twice.
  const GradeScale& scale = old_rules.profiles().grades();
  RunSweeps({&old_rules, &new_rules}, plan, [&](int e, const SweepCell& cell) {
    if (e == 0) {
      DiffCell c;
      c.gpu = cell.gpu;
      c.workload = cell.workload;
      c.mode = cell.mode;
      cells.push_back(std::move(c));
    }
    std::vector<DiffPick>& top = e == 0 ? cells.back().old_top : cells.back().new_top;
    for (const CandidateEval& c : cell.ranking.ranked) top.push_back(PickOf(c, scale));
  }, progress);
  for (DiffCell& c : cells) {
    ++d.cells;
    std::map<std::string, DiffModelChange> by_model;
    for (size_t r = 0; r < c.old_top.size(); ++r) {
      DiffModelChange& m = by_model[c.old_top[r].model_id];
      m.model_id = c.old_top[r].model_id;
      m.old_rank = static_cast<int>(r) + 1;
      m.old_grade = c.old_top[r].grade;
      m.old_quant = c.old_top[r].quant;
      m.old_score = c.old_top[r].score;
    }
    for (size_t r = 0; r < c.new_top.size(); ++r) {
      DiffModelChange& m = by_model[c.new_top[r].model_id];
      m.model_id = c.new_top[r].model_id;
      m.new_rank = static_cast<int>(r) + 1;
      m.new_grade = c.new_top[r].grade;
      m.new_quant = c.new_top[r].quant;
      m.new_score = c.new_top[r].score;
    }
    for (auto& [id, m] : by_model) {
      bool grade = !m.old_grade.empty() && !m.new_grade.empty() && m.old_grade != m.new_grade;
      bool quant = !m.old_quant.empty() && !m.new_quant.empty() && m.old_quant != m.new_quant;
      bool rank = m.old_rank != m.new_rank;
      d.grade_changes += grade;
      d.quant_changes += quant;
      d.rank_changes += rank;
      if (grade || quant || rank) c.changes.push_back(m);
    }
    std::sort(c.changes.begin(), c.changes.end(), [](const auto& a, const auto& b) {
      int ra = a.new_rank ? a.new_rank : 1000 + a.old_rank, rb = b.new_rank ? b.new_rank : 1000 + b.old_rank;
      return ra < rb;
    });
    std::string old_first = c.old_top.empty() ? "" : c.old_top[0].model_id;
    std::string new_first = c.new_top.empty() ? "" : c.new_top[0].model_id;
    c.top_changed = old_first != new_first;
    d.top_pick_changed += c.top_changed;
    if (!c.changes.empty() || c.top_changed) {
      ++d.cells_changed;
      d.changed.push_back(std::move(c));
    }
  }
  return d;
}

}  // namespace fitrank
