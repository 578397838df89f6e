#include "engine/scoring/diff.h"

#include <map>

namespace fitrank {
namespace {

// Runs `plan` and stores each cell's top picks in `cells` (appended on the first run, paired
// by position on the second).
void TopLists(const Evaluator& eval, const SweepPlan& plan, bool first,
              std::vector<DiffCell>* cells, const std::function<void(int, int)>& progress) {
  const GradeScale& scale = eval.profiles().grades();
  size_t i = 0;
  RunSweep(eval, plan, [&](const SweepCell& cell) {
    std::vector<DiffPick> top;
    for (const CandidateEval& c : cell.ranking.ranked) {
      top.push_back({c.model->id, c.quant->id, scale.grades[c.score.grade].letter, c.score.score});
    }
    if (first) {
      DiffCell c;
      c.gpu = cell.gpu;
      c.workload = cell.workload;
      c.mode = cell.mode;
      c.old_top = std::move(top);
      cells->push_back(std::move(c));
    } else if (i < cells->size()) {
      (*cells)[i].new_top = std::move(top);
    }
    ++i;
  }, progress);
}

}  // namespace

RulesDiff DiffRules(const Evaluator& old_rules, const Evaluator& new_rules, SweepPlan plan,
                    const std::function<void(int, int)>& progress) {
  if (plan.top <= 0) plan.top = 5;
  RulesDiff d;
  d.top = plan.top;
  std::vector<DiffCell> cells;
  TopLists(old_rules, plan, true, &cells, [&](int done, int total) {
    if (progress) progress(done, 2 * total);
  });
  TopLists(new_rules, plan, false, &cells, [&](int done, int total) {
    if (progress) progress(total + done, 2 * total);
  });
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
