// BuildRecommendReport and the picks shared with the GPU page.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/report/builders.h"
#include "engine/report/picks.h"
#include "engine/report/scoring.h"

namespace fitrank {

namespace {

bool HasCapability(const Model& m, const std::string& cap) {
  return std::find(m.capabilities.begin(), m.capabilities.end(), cap) != m.capabilities.end();
}

// Without the scoring engine: per model the best-quality quant that fits natively, ranked by
// model quality among those at the workload's minimum speed. No grades.
std::vector<Pick> FallbackPicks(const ReportEnv& env, const Setup& setup,
                                const WorkloadShape& shape) {
  std::vector<Pick> picks;
  for (const Model& m : env.catalog->models()) {
    if (!IsAssistantModel(m)) continue;
    const Quant* best = nullptr;
    LlmRun best_run;
    for (const Quant& q : env.catalog->quants()) {
      if (q.variable_bpw) continue;
      LlmRun run = RunLlm(env, setup, m, q, shape);
      const Estimate& e = run.estimate;
      if (!run.runnable() || e.fit.kind != FitKind::kNativeComfortable) continue;
      if (e.decode_tok_s < shape.decode_min_tok_s) continue;
      if (best == nullptr || q.quality_retention > best->quality_retention) {
        best = &q;
        best_run = run;
      }
    }
    if (best == nullptr) continue;
    Pick p;
    p.model = m.name;
    p.model_id = m.id;
    p.params_b = m.params_b;
    p.active_params_b = m.active_params_b;
    p.quant = best->id;
    p.quality = m.quality.score * best->quality_retention;
    p.score = p.quality;
    const Estimate& e = best_run.estimate;
    p.decode_tok_s = e.decode_tok_s;
    p.decode_low_tok_s = e.range.decode_low;
    p.decode_high_tok_s = e.range.decode_high;
    p.ttft_ms = e.ttft_ms;
    p.context = std::min(best_run.input.context, e.safe_context);
    p.fit = ViewOf(e.fit);
    p.runtime = best_run.runtime ? best_run.runtime->id : "";
    p.reasons.push_back("Ranked by model quality only: the scoring rules are not loaded.");
    picks.push_back(p);
  }
  std::stable_sort(picks.begin(), picks.end(),
                   [](const Pick& a, const Pick& b) { return a.score > b.score; });
  return picks;
}

}  // namespace

std::vector<Pick> RankedPicks(const ReportEnv& env, const Setup& setup,
                              const std::string& workload, const std::string& mode, int k,
                              const std::string& min_grade, const std::string& capability,
                              int* excluded) {
  WorkloadShape shape = ShapeOf(env, workload, mode);
  // Ask the ranker for more than k when filters will drop some.
  int ask = (min_grade.empty() && capability.empty()) ? k : 10000;
  std::vector<Pick> all = env.scorer != nullptr ? env.scorer->Rank(setup, workload, mode, ask)
                                                : FallbackPicks(env, setup, shape);
  std::vector<Pick> out;
  int dropped = 0;
  for (Pick& p : all) {
    const Model* m = env.catalog->ModelById(p.model_id);
    if (!min_grade.empty() && !ReportPolicy::GradeAtLeast(p.grade, min_grade)) {
      ++dropped;
      continue;
    }
    if (!capability.empty() && (m == nullptr || !HasCapability(*m, capability))) {
      ++dropped;
      continue;
    }
    if (static_cast<int>(out.size()) >= k) continue;
    p.workload = workload;
    p.rank = static_cast<int>(out.size()) + 1;
    if (p.run_command.empty() && m != nullptr) {
      const Quant* q = env.catalog->QuantById(p.quant);
      const Runtime* rt = env.catalog->RuntimeById(p.runtime);
      if (q != nullptr && rt != nullptr) {
        p.run_command = RunCommandFor(*rt, *m, *q, setup, p.context, p.kv_cache);
      }
    }
    out.push_back(std::move(p));
  }
  if (excluded != nullptr) *excluded += dropped;
  return out;
}

absl::StatusOr<RecommendReport> BuildRecommendReport(const ReportEnv& env, const Setup& setup,
                                                     const RecommendQuery& q) {
  RecommendReport r;
  r.setup = ViewOf(env, setup);
  r.mode = q.mode.empty() ? env.profiles->default_mode().id : q.mode;
  for (const Model& m : env.catalog->models()) r.candidates += IsAssistantModel(m);
  for (const std::string& w : q.workloads) {
    const Workload* wl = env.profiles->FindWorkload(w).found;
    if (wl == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown workload `", w, "`"));
    WorkloadPicks wp;
    wp.workload = wl->id;
    wp.label = wl->name;
    wp.picks = RankedPicks(env, setup, wl->id, r.mode, q.top_k, q.min_grade, q.capability,
                           &r.excluded);
    if (wp.picks.empty()) {
      r.notes.push_back(absl::StrCat(
          "No model qualifies for ", wl->name, " on ", setup.label,
          !q.min_grade.empty() ? absl::StrCat(" at grade ", q.min_grade, " or better") : "",
          !q.capability.empty() ? absl::StrCat(" with capability `", q.capability, "`") : "",
          ". Try `fitrank upgrade` to see what more memory unlocks."));
    }
    r.workloads.push_back(std::move(wp));
  }
  if (env.scorer == nullptr) {
    r.notes.push_back("Grades are unavailable: the scoring rules did not load.");
  }
  return r;
}

}  // namespace fitrank
