// fitrank rules explain: every rule evaluated for one candidate, fired or not, what it added,
// the set totals, weights, caps, final score and grade.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/cmd_rules.h"
#include "cli/render_json.h"
#include "cli/report_context.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "cli/render_text.h"
#include "engine/scoring/evaluate.h"

namespace fitrank::cli {
namespace {

std::string Signed(double v) { return absl::StrFormat("%+.1f", v); }

std::string ContextText(int tokens) { return FormatContext(tokens); }

Json ExplainJson(const Evaluator& eval, const Query& q, const CandidateEval& c,
                 const CandidateExplanation& ex, const CandidateDetail& d) {
  const rules::CompiledRules& book = eval.rules();
  const GradeScale& scale = eval.profiles().grades();
  Json j;
  j["setup"] = c.setup->label;
  j["gpus"] = c.gpus();
  j["model"] = c.model->name;
  j["model_id"] = c.model->id;
  j["quant"] = c.quant->id;
  j["workload"] = q.workload->id;
  j["mode"] = q.mode->id;
  j["runtime"] = c.runtime != nullptr ? c.runtime->id : "";
  const Estimate& e = c.estimate;
  j["estimate"] = {{"memory_gb", JNum(e.memory.total_gb)},
                   {"usable_gb", JNum(e.memory.usable_gb)},
                   {"fit", {{"kind", std::string(FitKindName(e.fit.kind))},
                            {"headroom_pct", JNum(e.fit.headroom_pct, 1)},
                            {"offload_pct", JNum(e.fit.offload_pct, 1)},
                            {"host_ram_gb", JNum(e.fit.host_ram_gb)}}},
                   {"decode_tok_s", JNum(e.decode_tok_s, 1)},
                   {"user_tok_s", JNum(c.user_tok_s, 1)},
                   {"ttft_ms", JNum(e.ttft_ms, 0)},
                   {"context", c.context}};
  Json sets = Json::array();
  for (int s = 0; s < book.set_count(); ++s) {
    Json set;
    set["set"] = book.sets()[s];
    set["workload_weight"] = JNum(ex.workload_weight[s], 3);
    set["multiplier"] = JNum(ex.multiplier[s], 3);
    set["weight"] = JNum(ex.weight[s], 3);
    set["total"] = JNum(ex.trace.set_total[s], 2);
    set["score"] = JNum(ex.set_score[s], 2);
    Json rules = Json::array();
    for (const rules::RuleTrace& t : ex.trace.rules) {
      const rules::RuleInfo& info = book.rules()[t.rule];
      if (info.set_index != s) continue;
      Json r;
      r["id"] = info.id;
      r["applicable"] = t.applicable;
      r["fired"] = t.fired;
      r["contribution"] = JNum(t.contribution, 3);
      if (info.cap >= 0) r["cap"] = scale.grades[info.cap].letter;
      if (info.gate) r["gate"] = true;
      if (!t.sentence.empty()) r["sentence"] = t.sentence;
      if (!t.fault.empty()) r["fault"] = t.fault;
      if (info.local) r["local"] = true;
      if (info.overridden) r["overridden"] = true;
      rules.push_back(std::move(r));
    }
    set["rules"] = std::move(rules);
    sets.push_back(std::move(set));
  }
  j["sets"] = std::move(sets);
  j["raw_score"] = JNum(c.score.raw, 2);
  j["score"] = JNum(c.score.score, 2);
  j["grade"] = d.grade;
  if (c.score.capped) {
    j["cap"] = {{"grade", scale.grades[c.score.cap].letter}, {"rule", book.rules()[c.cap_rule].id}};
  }
  if (c.score.gated) {
    j["excluded"] = {{"rule", book.rules()[c.gate_rule].id}, {"reason", d.excluded_reason}};
  }
  j["reasons"] = d.reasons;
  j["tags"] = d.tags;
  j["advice"] = d.advice;
  j["problems"] = d.problems;
  return j;
}

void ExplainText(const Evaluator& eval, const Query& q, const CandidateEval& c,
                 const CandidateExplanation& ex, const CandidateDetail& d, std::ostream& out) {
  const rules::CompiledRules& book = eval.rules();
  const GradeScale& scale = eval.profiles().grades();
  const Estimate& e = c.estimate;
  out << c.model->name << " at " << c.quant->id << " on " << c.setup->label << " · "
      << q.workload->id << " · " << q.mode->id << "\n";
  out << absl::StrFormat("  memory %.1f / %.1f GB usable · %s", e.memory.total_gb,
                         e.memory.usable_gb, FitKindName(e.fit.kind));
  if (e.fit.kind == FitKind::kOffload) {
    out << absl::StrFormat(" %.0f%% (%.1f GB host RAM)", e.fit.offload_pct, e.fit.host_ram_gb);
  } else if (e.fit.kind != FitKind::kNoFit) {
    out << absl::StrFormat(" (%.0f%% headroom)", e.fit.headroom_pct);
  }
  out << absl::StrFormat(" · decode %.1f tok/s · TTFT %.0f ms · context %s · %s\n",
                         c.user_tok_s, e.ttft_ms, ContextText(c.context),
                         c.runtime != nullptr ? c.runtime->id : "no runtime");
  for (const std::string& p : d.problems) out << "  problem: " << p << "\n";
  out << "\n";
  double weighted_sum = 0;
  for (int s = 0; s < book.set_count(); ++s) {
    weighted_sum += ex.weight[s] * ex.set_score[s];
    out << absl::StrFormat("%-15s weight %.3f x %.2f = %.3f   total %6.1f   score %5.1f\n",
                           book.sets()[s], ex.workload_weight[s], ex.multiplier[s],
                           ex.weight[s], ex.trace.set_total[s], ex.set_score[s]);
    for (const rules::RuleTrace& t : ex.trace.rules) {
      const rules::RuleInfo& info = book.rules()[t.rule];
      if (info.set_index != s) continue;
      std::string mark = !t.applicable ? "  n/a " : t.fired ? "  +   " : "  -   ";
      std::string effect;
      if (t.fired) {
        if (t.contribution != 0) effect = Signed(t.contribution);
        if (info.cap >= 0) absl::StrAppend(&effect, effect.empty() ? "" : " ", "cap ", scale.grades[info.cap].letter);
        if (info.gate) absl::StrAppend(&effect, effect.empty() ? "" : " ", "EXCLUDES");
      } else {
        effect = t.applicable ? "not fired" : "not for this workload/mode";
      }
      out << absl::StrFormat("%s%-36s %-14s", mark, info.id, effect);
      if (t.fired && !t.sentence.empty()) out << " " << t.sentence;
      if (!t.fault.empty()) out << " [" << t.fault << "]";
      if (info.local) out << " (local)";
      if (info.overridden) out << " (overridden)";
      out << "\n";
    }
  }
  double total = 0;
  for (double w : ex.weight) total += w;
  out << absl::StrFormat("\nscore: weighted mean %.1f / %.3f = %.1f", weighted_sum, total, c.score.raw);
  if (c.score.capped) {
    out << absl::StrFormat(" -> %s -> %.1f", d.cap_reason, c.score.score);
  }
  if (c.score.gated) {
    out << " -> excluded by " << book.rules()[c.gate_rule].id << " (" << d.excluded_reason << ")";
  }
  out << " -> grade " << d.grade << "\n";
}

}  // namespace

int RunRulesExplain(Context& ctx, const ReportEnv& env) {
  if (ctx.args.positional().size() > 1) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[1], "`"),
                     "name the model with --model NAME (quoted when it has spaces)");
  }
  std::optional<std::string> model_name = ctx.args.Get("model");
  if (!model_name) throw UsageError("explain needs --model NAME");
  Setup setup = ParseSetup(ctx, env);
  const Model& model = ResolveModel(*env.catalog, *model_name);
  const Workload& workload = *ResolveWorkloadFlag(ctx, env, "chat", false)[0];
  const Mode& mode = ResolveModeFlag(ctx, env);
  std::shared_ptr<const FileSource> local = LocalRulesSource(ctx);
  const Evaluator* eval = &LoadEvaluator(env);
  absl::StatusOr<std::unique_ptr<Query>> q = eval->Prepare(setup, workload, mode);
  if (!q.ok()) throw UsageError(std::string(q.status().message()));
  Evaluator::Scratch scratch(*eval);
  CandidateEval c;
  if (std::optional<std::string> quant_name = ctx.args.Get("quant")) {
    const Quant& quant = ResolveQuant(*env.catalog, *quant_name);
    c = eval->Evaluate(**q, model, static_cast<int>(&quant - env.catalog->quants().data()), &scratch);
  } else {
    ModelEval me = eval->EvaluateModel(**q, model, &scratch);
    c = me.quants[me.best >= 0 ? me.best : me.closest];
  }
  CandidateExplanation ex = eval->Explain(**q, c);
  CandidateDetail d = eval->Describe(**q, c);
  if (ctx.format == OutputFormat::kJson) {
    PrintJson(*ctx.out, ExplainJson(*eval, **q, c, ex, d));
  } else {
    ExplainText(*eval, **q, c, ex, d, *ctx.out);
  }
  return 0;
}

}  // namespace fitrank::cli
