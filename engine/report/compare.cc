#include "engine/report/builders.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/report/scaling.h"
#include "engine/report/grader.h"
#include "engine/report/traits.h"
#include "engine/report/upgrade_planner.h"

namespace fitrank {

namespace {


}  // namespace

absl::StatusOr<CompareReport> BuildCompareReport(const ReportEnv& env, const Setup* host_like,
                                                 const CompareQuery& q) {
  if (q.gpus.size() < 2) return absl::InvalidArgumentError("compare needs at least two GPUs");
  const Mode& mode = *q.mode;
  WorkloadShape shape = ShapeFor(*q.workload, mode);
  const ReportPolicy& pol = *env.policy;
  CompareReport r;
  r.workload = q.workload;
  r.mode = &mode;
  r.grades = &env.profiles->grades();

  std::vector<Setup> setups;
  for (const Gpu* g : q.gpus) {
    absl::StatusOr<Setup> s = SetupOfCount(env, *g, 1, host_like, false);
    if (!s.ok()) return s.status();
    setups.push_back(*s);
  }
  std::vector<std::vector<ModelState>> states;
  for (size_t i = 0; i < q.gpus.size(); ++i) {
    const Gpu& g = *q.gpus[i];
    CompareGpu c;
    c.specs = SpecsOf(env, g);
    c.models_fit = CountNativeModels(env, setups[i], mode, &c.models_total);
    c.price_usd = PriceOf(env, g, &c.price_basis);
    std::vector<Pick> top = env.grader->Rank(setups[i], *q.workload, mode, 1);
    if (!top.empty()) {
      c.best_model = top[0].model;
      c.best_grade_index = top[0].grade_index;
    }
    r.gpus.push_back(c);
    states.push_back(Survey(env, setups[i], ShapeFor(*pol.count_workload, mode)));
  }

  const Quant* count_quant = pol.count_quant.found;
  for (const ReferenceModelSpec& spec : pol.reference_models) {
    const Model* m = FirstKnownModel(*env.catalog, spec.models);
    if (m == nullptr || count_quant == nullptr) continue;
    RefModelRow row;
    row.label = spec.label;
    row.model = m;
    row.params_b = m->params_b;
    for (size_t i = 0; i < q.gpus.size(); ++i) {
      LlmRun run = RunLlm(env, setups[i], *m, *count_quant, shape);
      RefModelCell cell;
      cell.quant = count_quant->id;
      cell.memory_gb = run.estimate.memory.total_gb;
      if (run.runnable()) {
        cell.fit = ViewOf(run.estimate.fit);
        cell.decode_tok_s = run.estimate.decode_tok_s;
        cell.ttft_ms = run.estimate.ttft_ms;
      }
      if (run.estimate.runs_natively()) {
        cell.gpus_needed = 1;
      } else {
        for (int n : pol.scale_out_counts) {
          ScaleOutRun so;
          if (n > 1 && BestScaleOut(env, *q.gpus[i], n, setups[i], *m, mode, &so)) {
            cell.gpus_needed = n;
            break;
          }
        }
      }
      row.cells.push_back(cell);
    }
    r.reference_models.push_back(row);
  }

  // Cost per million tokens: the reference model of `cost.model_row`, served at the policy's
  // concurrency on the smallest count of the GPU that runs it natively.
  const ReferenceModelSpec* cost_spec =
      pol.cost_model_row < static_cast<int>(pol.reference_models.size())
          ? &pol.reference_models[pol.cost_model_row]
          : nullptr;
  const Model* cost_model = cost_spec ? FirstKnownModel(*env.catalog, cost_spec->models) : nullptr;
  const double hours = pol.cost_lifetime_years * 365.25 * 24 * pol.cost_utilization;
  for (size_t i = 0; i < q.gpus.size(); ++i) {
    const Gpu& g = *q.gpus[i];
    CostRow c;
    c.gpu_id = g.id;
    c.lifetime_years = pol.cost_lifetime_years;
    c.utilization = pol.cost_utilization;
    c.usd_per_kwh = pol.cost_usd_per_kwh;
    c.cloud_usd_per_hour = r.gpus[i].specs.cloud_usd_per_hour;
    if (cost_model != nullptr && count_quant != nullptr) {
      c.throughput_model = cost_model;
      for (int n : pol.scale_out_counts) {
        absl::StatusOr<Setup> s = SetupOfCount(env, g, n, host_like, false);
        if (!s.ok()) break;
        LlmRun run = RunLlm(env, *s, *cost_model, *count_quant, shape);
        if (!run.estimate.runs_natively()) continue;
        EstimateInput in = run.input;
        in.batch = pol.cost_concurrency;
        Estimate e;
        env.estimator->Run(in, &e);
        double tok_s = e.serving.aggregate_tok_s > 0 ? e.serving.aggregate_tok_s : e.decode_tok_s;
        c.throughput_tok_s = tok_s;
        c.price_usd = r.gpus[i].price_usd * n;
        c.power_w = g.tdp_w * n;
        double tokens_m = tok_s * hours * 3600 / 1e6;
        if (tokens_m > 0 && c.price_usd > 0) {
          double energy = c.power_w / 1000 * hours * pol.cost_usd_per_kwh;
          c.usd_per_mtok_owned = (c.price_usd + energy) / tokens_m;
        }
        if (tok_s > 0 && c.cloud_usd_per_hour > 0) {
          c.usd_per_mtok_cloud = c.cloud_usd_per_hour * n / (tok_s * 3600 / 1e6);
        }
        break;
      }
    }
    r.cost.push_back(c);
  }
  r.cost_basis = pol.Note(
      "compare.cost-basis",
      {{"model", cost_model != nullptr ? cost_model->name
                                       : pol.Note("compare.cost-basis.any-model", {})},
       {"quant", pol.count_quant->id},
       {"concurrency", pol.cost_concurrency},
       {"lifetime_years", pol.cost_lifetime_years},
       {"utilization_pct", pol.cost_utilization * 100},
       {"usd_per_kwh", pol.cost_usd_per_kwh},
       {"source", pol.cost_source}});

  // Decisions: the rules of engine/report/traits/compare, once per GPU.
  const auto& models = env.catalog->models();
  for (size_t i = 0; i < q.gpus.size(); ++i) {
    Decision d;
    d.gpu_id = q.gpus[i]->id;
    d.gpu = q.gpus[i]->name;
    if (env.traits != nullptr) {
      std::vector<std::string> only;
      for (size_t m = 0; m < models.size(); ++m) {
        if (!states[i][m].native) continue;
        bool others = false;
        for (size_t j = 0; j < q.gpus.size(); ++j) others |= j != i && states[j][m].native;
        if (!others) only.push_back(models[m].name);
      }
      for (RuleSentence& s : env.traits->Decisions(env, r, q.gpus, i, setups[i], only)) {
        d.reasons.push_back(std::move(s.text));
        d.rules.push_back(std::move(s.rule_id));
      }
    }
    r.decisions.push_back(d);
  }
  return r;
}

}  // namespace fitrank
