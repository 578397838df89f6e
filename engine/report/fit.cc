// BuildFitReport: one model on one setup, every quantization, every workload.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/quantities.h"
#include "engine/report/advisor.h"
#include "engine/estimator/basis.h"
#include "engine/report/builders.h"
#include "engine/report/grader.h"
#include "engine/report/run_command.h"

namespace fitrank {

namespace {

// Without the scoring engine: the highest-quality quant that fits comfortably, else tightly,
// else the one that offloads least.
const Quant* FallbackBestQuant(const std::vector<QuantRow>& rows) {
  const QuantRow* best = nullptr;
  auto better = [](const QuantRow& a, const QuantRow& b) {
    if (a.fit.kind != b.fit.kind) return a.fit.kind < b.fit.kind;  // FitKind is best first
    if (a.fit.kind == FitKind::kOffload && a.fit.offload_pct != b.fit.offload_pct) {
      return a.fit.offload_pct < b.fit.offload_pct;
    }
    if (a.quality_retention != b.quality_retention) return a.quality_retention > b.quality_retention;
    return a.memory_gb < b.memory_gb;
  };
  for (const QuantRow& r : rows) {
    if (!r.supported || !Runs(r.fit)) continue;
    if (best == nullptr || better(r, *best)) best = &r;
  }
  return best ? best->quant : nullptr;
}

// How the model fits, as the one-sentence answer says it (reports.yaml fit.verdict.*).
std::string FitPhrase(const ReportPolicy& pol, const Estimate& e) {
  switch (e.fit.kind) {
    case FitKind::kNativeComfortable:
      return pol.Note("fit.verdict.native-comfortable", {{"headroom_pct", e.fit.headroom_pct}});
    case FitKind::kNativeTight:
      return pol.Note("fit.verdict.native-tight", {{"headroom_pct", e.fit.headroom_pct}});
    case FitKind::kOffload:
      return pol.Note("fit.verdict.offload", {{"offload_pct", e.fit.offload_pct},
                                              {"host_ram", FormatGb(e.fit.host_ram_gb)}});
    case FitKind::kNoFit:
      break;
  }
  return pol.Note("fit.verdict.no-fit", {});
}

// The grade of `quant` in `g`, found as Grader::Grade finds it in the catalog (null: not
// graded, which Grade answers with an empty grade).
const Graded* GradeAt(const Catalog& catalog, const GradedModel& g, const Quant& quant) {
  const int index = catalog.QuantIndex(quant);
  if (index < 0 || index >= static_cast<int>(g.quants.size())) return nullptr;
  return &g.quants[index];
}

}  // namespace

absl::StatusOr<FitReport> BuildFitReport(const ReportEnv& env, const Setup& setup,
                                         const FitQuery& q) {
  const Model& model = *q.model;
  const Mode& mode = *q.mode;
  WorkloadShape shape = ShapeFor(*q.workload, mode);
  FitReport r;
  r.setup = ViewOf(env, setup);
  r.model = &model;
  r.workload = q.workload;
  r.mode = &mode;
  r.grades = &env.profiles->grades();

  // Every quantization, at the workload's shape.
  for (const Quant& quant : env.catalog->quants()) {
    if (quant.variable_bpw) continue;
    QuantRow row;
    row.quant = &quant;
    row.bits = quant.bits;
    row.bpw = quant.bpw;  // replaced by the estimate's below (it knows the model's layout)
    row.quality_retention = QualityRetention(model, quant);
    row.quality_label = env.policy->QualityLabelFor(row.quality_retention);
    LlmRun run = RunLlm(env, setup, model, quant, shape);
    row.memory_gb = run.estimate.memory.total_gb;
    if (run.estimate.bpw > 0) row.bpw = run.estimate.bpw;
    if (run.runtime == nullptr || !run.runnable()) {
      row.supported = false;
      std::vector<std::string> why = DescribeProblems(run.estimate.problems, run.input);
      const ReportPolicy& pol = *env.policy;
      row.note = run.runtime == nullptr ? pol.Note("fit.quant-no-runtime", {})
                 : why.empty()          ? pol.Note("fit.quant-cannot-run", {})
                                        : why.front();
      if (!quant.requires_precision.empty() &&
          (run.estimate.problems & kProblemPrecisionUnsupported)) {
        row.note = pol.Note("fit.quant-needs-precision", {{"precision", quant.requires_precision}});
      }
    } else {
      row.fit = ViewOf(run.estimate.fit);
      row.decode_tok_s = run.estimate.decode_tok_s;
    }
    r.quants.push_back(row);
  }
  std::stable_sort(r.quants.begin(), r.quants.end(), [](const QuantRow& a, const QuantRow& b) {
    return a.bpw < b.bpw;
  });

  // The rules' grades of the model at every quantization: for the query's workload (its
  // rows, and its best quant with sentences for the headline) and, without --quant, for every
  // other workload (each one's best quant for the workload table). One evaluation of the model
  // per workload; those of one context size each quantization once.
  std::vector<const Workload*> graded_for = {q.workload};
  if (q.quant == nullptr) {
    for (const Workload& w : env.profiles->workloads()) {
      if (w.id != q.workload->id) graded_for.push_back(&w);
    }
  }
  const std::vector<GradedModel> graded_each = env.grader->GradeModelEach(
      setup, model, graded_for, mode,
      {q.quant == nullptr ? Grader::Detail::kSentences : Grader::Detail::kScore});
  const GradedModel& asked = graded_each[0];

  // The headline quant: --quant, else the rules' best, else the estimator fallback.
  const Quant* quant = q.quant;
  Graded graded;
  if (quant == nullptr) {
    quant = asked.best;
    graded = asked.best_graded;
  }
  if (quant == nullptr) quant = FallbackBestQuant(r.quants);
  if (quant == nullptr) {
    // Nothing runs at all: still report against the catalog's most common download.
    quant = env.policy->count_quant.found;
    if (quant == nullptr) return absl::NotFoundError("the catalog has no quantizations");
  }
  r.quant = quant;
  for (QuantRow& row : r.quants) row.best = row.quant == quant && row.supported;

  LlmRun run = RunLlm(env, setup, model, *quant, shape);
  Estimate e;
  Basis basis;
  env.estimator->Explain(run.input, &e, &basis);
  r.runtime = run.runtime;
  r.memory.weights_gb = e.memory.weights_gb;
  r.memory.kv_gb = e.memory.kv_gb;
  r.memory.overhead_gb = e.memory.overhead_gb;
  r.memory.total_gb = e.memory.total_gb;
  r.memory.usable_gb = e.memory.usable_gb;
  // The same setup shows the same usable memory on every page; a runtime that claims less (vLLM,
  // SGLang) says so.
  r.memory.usable_note = UsableMemoryNote(*env.estimator, *env.policy, run.runtime, setup,
                                          e.memory.usable_gb);
  r.memory.over_gb = std::max(0.0, e.memory.total_gb - e.memory.usable_gb);
  r.memory.free_gb = std::max(0.0, e.memory.usable_gb - e.memory.total_gb);
  r.fit = ViewOf(e.fit);
  r.decode_tok_s = e.decode_tok_s;
  r.decode_low_tok_s = e.range.decode_low;
  r.decode_high_tok_s = e.range.decode_high;
  r.prefill_tok_s = e.prefill_tok_s;
  r.ttft_ms = e.ttft_ms;
  r.safe_context = e.safe_context;
  r.kv_cache = e.kv_cache;
  r.basis = basis.Lines();

  // Grades: the headline, each workload, each quant.
  if (q.quant != nullptr || graded.grade_index < 0) {
    graded = env.grader->Grade(setup, model, *quant, *q.workload, mode);
  }
  r.grade_index = graded.grade_index;
  r.score = graded.score;
  // An excluded (gated) candidate shows the scale's last grade in the tables.
  const int last_grade = static_cast<int>(env.profiles->grades().grades.size()) - 1;
  r.reasons = graded.reasons;
  for (QuantRow& row : r.quants) {
    if (!row.supported) continue;
    const Graded* g = GradeAt(*env.catalog, asked, *row.quant);
    if (g == nullptr) {
      row.grade_index = -1;
      row.score = 0;
      continue;
    }
    row.grade_index = g->excluded ? last_grade : g->grade_index;
    row.score = g->score;
  }
  // Each workload at its own best quantization (the headline's when --quant was given, or
  // when no quant runs for that workload): a quant that fits chat may not fit coding's context.
  for (const Workload& w : env.profiles->workloads()) {
    WorkloadShape ws = ShapeFor(w, mode);
    const GradedModel* each = nullptr;  // the model graded for `w` above (without --quant)
    for (size_t i = 0; i < graded_for.size() && each == nullptr; ++i) {
      if (graded_for[i]->id == w.id) each = &graded_each[i];
    }
    int grade_index = -1;
    double score = 0;
    bool excluded = false;
    const Quant* wq = q.quant == nullptr && each != nullptr ? each->best : nullptr;
    if (wq != nullptr) {
      grade_index = each->best_graded.grade_index;
      score = each->best_graded.score;
      excluded = each->best_graded.excluded;
    } else {
      wq = quant;
      Graded at_quant;  // Grade's answer at the headline quant
      if (each != nullptr) {
        if (const Graded* g = GradeAt(*env.catalog, *each, *wq)) at_quant = *g;
      } else {
        at_quant = env.grader->Grade(setup, model, *wq, w, mode, Grader::Detail::kScore);
      }
      grade_index = at_quant.grade_index;
      score = at_quant.score;
      excluded = at_quant.excluded;
    }
    LlmRun wr = RunLlm(env, setup, model, *wq, ws);
    FitWorkloadRow row;
    row.workload = &w;
    row.quant = wq->id;
    row.fit = ViewOf(wr.estimate.fit);
    row.decode_tok_s = wr.estimate.decode_tok_s;
    row.ttft_ms = wr.estimate.ttft_ms;
    row.context = std::min(wr.input.context, wr.estimate.safe_context);
    row.grade_index = excluded ? last_grade : grade_index;
    row.score = score;
    r.workloads.push_back(row);
  }

  r.advice = FitAdvice(env, setup, model, *quant, e, shape, r.quants);
  MergeRuleAdvice(env, graded.advice, &r.advice);

  // Run commands: each runtime that can run the model here, at the headline quant if it loads
  // it, else at the best quant it loads that runs natively; a runtime that can only serve
  // another quant of this model (Ollama's library tag) is estimated at that quant.
  const int command_context = std::min(shape.context_tokens, std::max(1, e.safe_context));
  for (const Runtime& rt : env.catalog->runtimes()) {
    const Quant* use = nullptr;
    LlmRun used;
    auto try_quant = [&](const Quant& cand) {
      if (env.estimator->CheckCombination(setup, &cand, &rt) & kBlockingProblems) return false;
      LlmRun cr = RunLlm(env, setup, model, cand, shape, &rt);
      if (!cr.runnable() || !Runs(ViewOf(cr.estimate.fit))) return false;
      use = &cand;
      used = cr;
      return true;
    };
    const Quant* served = ServedQuant(*env.catalog, rt, model, *quant);
    if (served != quant) {
      if (served != nullptr) try_quant(*served);
    } else if (!try_quant(*quant)) {
      const Quant* best = nullptr;
      for (const Quant& cand : env.catalog->quants()) {
        if (cand.variable_bpw) continue;
        if (ServedQuant(*env.catalog, rt, model, cand) != &cand) continue;
        if (env.estimator->CheckCombination(setup, &cand, &rt) & kBlockingProblems) continue;
        LlmRun cr = RunLlm(env, setup, model, cand, shape, &rt);
        if (!cr.estimate.runs_natively()) continue;
        if (best == nullptr || cand.quality_retention > best->quality_retention) best = &cand;
      }
      if (best != nullptr) try_quant(*best);
    }
    if (use == nullptr) continue;
    RunPlan plan = PlanRun(*env.catalog, rt, model, *use, setup, used.estimate,
                           std::min(command_context, used.input.context));
    if (plan.command.empty()) continue;
    RunCommand c;
    c.runtime = &rt;
    c.command = plan.command;
    c.steps = plan.steps;
    c.quant = plan.quant;
    c.gpus = plan.gpus;
    c.note = env.policy->Note("fit.run-note",
                              {{"quant", plan.quant->id},
                               {"fit", FitKindName(used.estimate.fit.kind)},
                               {"decode_tok_s", used.estimate.decode_tok_s}});
    r.run_commands.push_back(c);
  }

  // The one-sentence answer.
  const ReportPolicy& pol = *env.policy;
  r.summary = pol.Note(
      "fit.summary",
      {{"model", model.name},
       {"needs", FormatGb(e.memory.total_gb)},
       {"quant", quant->id},
       {"workload", shape.workload->name},
       {"context", run.input.context},
       {"setup", setup.label},
       {"usable", FormatGb(e.memory.usable_gb)},
       {"verdict", FitPhrase(pol, e)},
       {"speed", e.decode_tok_s > 0
                     ? pol.Note("fit.summary.speed", {{"decode_tok_s", e.decode_tok_s}})
                     : std::string()},
       {"grade", r.grade_index >= 0
                     ? pol.Note("fit.summary.grade",
                                {{"grade", env.profiles->grades().grades[r.grade_index].letter},
                                 {"workload", shape.workload->name}})
                     : std::string()}});
  return r;
}

}  // namespace fitrank
