// fitrank rules diff OLD_DIR NEW_DIR: which top picks, grades and ranks change across the
// catalog between two rule trees.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/cmd_rules.h"
#include "cli/render_json.h"
#include "cli/report_context.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "engine/scoring/diff.h"

namespace fitrank::cli {

int RunRulesDiff(Context& ctx, const ReportEnv& env) {
  const std::vector<std::string>& pos = ctx.args.positional();
  if (pos.size() != 3) {
    throw UsageError("diff needs two rule trees: fitrank rules diff OLD_DIR NEW_DIR",
                     "each a directory of rule *.yaml files (or a checkout with rules/ inside)");
  }
  std::unique_ptr<Evaluator> old_eval = LoadEvaluatorFromTree(ctx, env, pos[1]);
  std::unique_ptr<Evaluator> new_eval = LoadEvaluatorFromTree(ctx, env, pos[2]);
  SweepPlan plan;
  for (const std::string& g : ctx.args.GetAll("gpu")) plan.gpus.push_back(&ResolveGpu(*env.catalog, g));
  if (ctx.args.Has("workload")) {
    plan.workloads = ResolveWorkloadFlag(ctx, env, "chat", true);
  }
  plan.modes.push_back(&ResolveModeFlag(ctx, env));
  plan.top = ctx.args.GetInt("top", 1, 100, "picks").value_or(5);
  RulesDiff d = DiffRules(*old_eval, *new_eval, plan, [&](int done, int total) {
    if (ctx.tty) *ctx.err << "\rdiff: " << done << "/" << total << " rankings of GPUs" << std::flush;
  });
  if (ctx.tty) *ctx.err << "\r" << std::string(40, ' ') << "\r";
  if (ctx.format == OutputFormat::kJson) {
    Json j;
    j["old"] = pos[1];
    j["new"] = pos[2];
    j["top"] = d.top;
    j["summary"] = {{"rankings", d.cells},
                    {"rankings_changed", d.cells_changed},
                    {"top_pick_changed", d.top_pick_changed},
                    {"grade_changes", d.grade_changes},
                    {"rank_changes", d.rank_changes},
                    {"quant_changes", d.quant_changes}};
    Json changed = Json::array();
    for (const DiffCell& c : d.changed) {
      Json cell;
      cell["gpu_id"] = c.gpu->id;
      cell["gpu"] = c.gpu->name;
      cell["workload"] = c.workload->id;
      cell["mode"] = c.mode->id;
      cell["top_pick_changed"] = c.top_changed;
      auto list = [](const std::vector<DiffPick>& picks) {
        Json a = Json::array();
        for (const DiffPick& p : picks) {
          a.push_back({{"model_id", p.model_id}, {"quant", p.quant}, {"grade", p.grade},
                       {"score", JNum(p.score, 2)}});
        }
        return a;
      };
      cell["old_top"] = list(c.old_top);
      cell["new_top"] = list(c.new_top);
      Json changes = Json::array();
      for (const DiffModelChange& m : c.changes) {
        changes.push_back({{"model_id", m.model_id},
                           {"old_rank", m.old_rank}, {"new_rank", m.new_rank},
                           {"old_grade", m.old_grade}, {"new_grade", m.new_grade},
                           {"old_quant", m.old_quant}, {"new_quant", m.new_quant},
                           {"old_score", JNum(m.old_score, 2)}, {"new_score", JNum(m.new_score, 2)}});
      }
      cell["changes"] = std::move(changes);
      changed.push_back(std::move(cell));
    }
    j["changed"] = std::move(changed);
    PrintJson(*ctx.out, j);
    return 0;
  }
  std::ostream& out = *ctx.out;
  out << absl::StrFormat(
      "%d of %d rankings (GPU x workload x mode, top %d) change: %d top picks, %d grades, %d "
      "ranks, %d quantizations.\n",
      d.cells_changed, d.cells, d.top, d.top_pick_changed, d.grade_changes, d.rank_changes,
      d.quant_changes);
  for (const DiffCell& c : d.changed) {
    out << "\n" << c.gpu->name << " · " << c.workload->id << " · " << c.mode->id;
    if (c.top_changed) {
      out << "  top pick: " << (c.old_top.empty() ? "-" : c.old_top[0].model_id) << " -> "
          << (c.new_top.empty() ? "-" : c.new_top[0].model_id);
    }
    out << "\n";
    for (const DiffModelChange& m : c.changes) {
      auto rank = [](int r) { return r > 0 ? absl::StrCat("#", r) : std::string("out"); };
      out << absl::StrFormat("  %-44s %4s -> %-4s", m.model_id, rank(m.old_rank), rank(m.new_rank));
      if (!m.old_grade.empty() && !m.new_grade.empty()) {
        out << absl::StrFormat("  %s %.1f -> %s %.1f", m.old_grade, m.old_score, m.new_grade, m.new_score);
      }
      if (!m.old_quant.empty() && !m.new_quant.empty() && m.old_quant != m.new_quant) {
        out << "  " << m.old_quant << " -> " << m.new_quant;
      }
      out << "\n";
    }
  }
  return 0;
}

}  // namespace fitrank::cli
