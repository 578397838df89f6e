#include "engine/report/scaling.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace fitrank {

namespace {

const Quant* CountQuant(const ReportEnv& env) { return env.policy->count_quant.found; }

// A quant that a tensor-parallel runtime can load on `setup`, closest to 4 bits (the usual
// AWQ/GPTQ serving download), preferring the count quant when it qualifies.
const Quant* TensorParallelQuant(const ReportEnv& env, const Setup& setup) {
  const Quant* best = nullptr;
  double best_d = 1e9;
  for (const Quant& q : env.catalog->quants()) {
    if (q.variable_bpw) continue;
    const Runtime* rt = env.estimator->DefaultRuntime(*env.catalog, setup, &q);
    if (rt == nullptr || (env.estimator->CheckCombination(setup, &q, rt) & kBlockingProblems)) {
      continue;
    }
    bool tp = std::find(rt->parallelism.begin(), rt->parallelism.end(), "tensor") !=
              rt->parallelism.end();
    if (!tp) continue;
    double d = std::fabs(q.bits - 4) + (&q == CountQuant(env) ? -0.5 : 0);
    if (d < best_d) {
      best_d = d;
      best = &q;
    }
  }
  return best;
}

}  // namespace

int CountNativeModels(const ReportEnv& env, const Setup& setup, const Mode& mode,
                      int* total) {
  const Quant* q = CountQuant(env);
  WorkloadShape shape = ShapeFor(*env.policy->count_workload, mode);
  int n = 0, all = 0;
  for (const Model& m : env.catalog->models()) {
    if (!IsAssistantModel(m)) continue;
    ++all;
    if (q == nullptr) continue;
    LlmRun run = RunLlm(env, setup, m, *q, shape);
    if (run.estimate.runs_natively()) {
      ++n;
    }
  }
  if (total != nullptr) *total = all;
  return n;
}

bool BestScaleOut(const ReportEnv& env, const Gpu& gpu, int count, const Setup& base,
                  const Model& model, const Mode& mode, ScaleOutRun* out) {
  WorkloadShape shape = ShapeFor(*env.policy->count_workload, mode);
  bool found = false;
  auto consider = [&](const Setup& s, const Quant* q, const char* parallel) {
    if (q == nullptr) return;
    LlmRun run = RunLlm(env, s, model, *q, shape);
    const Estimate& e = run.estimate;
    if (!e.runs_natively() || e.decode_tok_s <= 0) return;
    if (found && e.decode_tok_s <= out->decode_tok_s) return;
    found = true;
    out->gpus = count;
    out->via = s.link_name;
    out->parallel = std::string(ParallelismName(e.parallelism));
    out->quant = q->id;
    out->decode_tok_s = e.decode_tok_s;
  };
  absl::StatusOr<Setup> layer = SetupOfCount(env, gpu, count, &base, false);
  if (layer.ok()) consider(*layer, CountQuant(env), "layer");
  if (count > 1) {
    absl::StatusOr<Setup> tensor = SetupOfCount(env, gpu, count, &base, true);
    if (tensor.ok()) consider(*tensor, TensorParallelQuant(env, *tensor), "tensor");
  }
  return found;
}

MultiGpuView BuildScaling(const ReportEnv& env, const Gpu& gpu, const Setup& base,
                          const Mode& mode) {
  MultiGpuView v;
  double speed_1x = 0;
  const Model* ref = nullptr;
  // The speed-up reference: the largest capability-matrix LLM that runs natively on one GPU
  // (a model too small for the GPU shows the per-layer costs, not the bandwidth).
  for (const CapabilitySpec& spec : env.policy->capability_rows) {
    if (spec.kind != "llm") continue;
    const Model* m = FirstKnownModel(*env.catalog, spec.models);
    if (m == nullptr) continue;
    ScaleOutRun r;
    if (BestScaleOut(env, gpu, 1, base, *m, mode, &r) &&
        (ref == nullptr || m->params_b > ref->params_b)) {
      ref = m;
      speed_1x = r.decode_tok_s;
    }
  }
  for (int n : env.policy->scale_out_counts) {
    absl::StatusOr<Setup> s = SetupOfCount(env, gpu, n, &base, false);
    if (!s.ok()) continue;  // e.g. unified-memory machines do not combine
    ScalingRow row;
    row.gpu_count = n;
    row.memory_gb = ViewOf(env, *s).usable_gb;
    row.models_fit = CountNativeModels(env, *s, mode, &row.models_total);
    row.bandwidth_gbps = gpu.bandwidth_gbps * n;
    if (ref != nullptr && speed_1x > 0) {
      ScaleOutRun r;
      if (BestScaleOut(env, gpu, n, base, *ref, mode, &r)) {
        row.decode_speedup = r.decode_tok_s / speed_1x;
        // What the GPUs together deliver to batch-1 decode: the speed-up in bandwidth terms.
        row.bandwidth_gbps = gpu.bandwidth_gbps * row.decode_speedup;
      }
    }
    if (n > 1) v.interconnect = s->link_name;
    v.max_gpus = std::max(v.max_gpus, n);
    v.rows.push_back(row);
  }
  if (v.interconnect.empty()) {
    absl::StatusOr<Setup> two = SetupOfCount(env, gpu, 2, &base, true);
    if (two.ok()) v.interconnect = two->link_name;
  }
  if (absl::StatusOr<Setup> two = SetupOfCount(env, gpu, 2, &base, true); two.ok()) {
    v.interconnect_gbps = two->link_bandwidth_gbps;
  }
  for (const ScalingRow& r : v.rows) {
    if (r.gpu_count > 1 && r.decode_speedup > 0) {
      // Average efficiency per GPU at the largest count measured.
      v.scaling_efficiency = r.decode_speedup / r.gpu_count;
    }
  }
  const ReportPolicy& pol = *env.policy;
  v.basis = pol.Note("gpu.scaling-basis",
                     {{"quant", pol.count_quant->id},
                      {"workload", pol.count_workload->id},
                      {"model", ref != nullptr ? ref->name
                                               : pol.Note("gpu.scaling-basis.any-model", {})}});
  if (v.rows.size() <= 1) v.basis += pol.Note("gpu.scaling-basis.single", {});
  return v;
}

std::vector<OutOfReach> BuildOutOfReach(const ReportEnv& env, const Setup& setup,
                                        const Mode& mode) {
  std::vector<OutOfReach> out;
  const Quant* q = CountQuant(env);
  if (q == nullptr || env.policy->out_of_reach_count <= 0) return out;
  WorkloadShape shape = ShapeFor(*env.policy->count_workload, mode);
  const double z = env.profiles->grades().quality_ranking_z;
  // "Strong" = better than the best model that already runs natively here: anything weaker
  // is not worth buying memory for.
  double best_native_quality = 0;
  std::vector<std::pair<const Model*, Estimate>> missing;
  for (const Model& m : env.catalog->models()) {
    if (!IsAssistantModel(m)) continue;
    LlmRun run = RunLlm(env, setup, m, *q, shape);
    bool native = run.estimate.runs_natively();
    if (native) {
      best_native_quality = std::max(best_native_quality, EffectiveQuality(QualityFor(m, shape.workload->id), 1.0, z));
    } else if (run.runnable()) {
      missing.push_back({&m, run.estimate});
    }
  }
  // Strong models only, the closest to reach first ("a bit more memory"), then by quality.
  missing.erase(std::remove_if(missing.begin(), missing.end(),
                               [&](const auto& x) {
                                 return EffectiveQuality(QualityFor(*x.first, shape.workload->id),
                                                         1.0, z) <= best_native_quality;
                               }),
                missing.end());
  std::stable_sort(missing.begin(), missing.end(), [&](const auto& a, const auto& b) {
    double ma = a.second.memory.total_gb, mb = b.second.memory.total_gb;
    if (ma != mb) return ma < mb;
    const double qa = QualityFor(*a.first, shape.workload->id).score;
    const double qb = QualityFor(*b.first, shape.workload->id).score;
    if (qa != qb) return qa > qb;
    return a.first->id < b.first->id;
  });
  const Gpu& gpu = *setup.devices.front().gpu;
  bool single_kind = setup.devices.size() == 1;
  for (const auto& [m, e] : missing) {
    if (static_cast<int>(out.size()) >= env.policy->out_of_reach_count) break;
    OutOfReach o;
    o.model = m->name;
    o.model_id = m->id;
    o.params_b = m->params_b;
    o.active_params_b = m->active_params_b;
    o.quality = QualityFor(*m, shape.workload->id).score;
    o.quant = q->id;
    o.needs_gb = e.memory.total_gb;
    o.missing_gb = std::max(0.0, e.memory.total_gb - e.memory.usable_gb);
    if (single_kind) {
      for (int n : env.policy->scale_out_counts) {
        if (n <= setup.device_count) continue;
        ScaleOutRun r;
        if (BestScaleOut(env, gpu, n, setup, *m, mode, &r)) {
          o.scale_out_gpus = r.gpus;
          o.scale_out_via = r.via;
          o.scale_out_parallel = r.parallel;
          o.scale_out_decode_tok_s = r.decode_tok_s;
          break;
        }
      }
    }
    out.push_back(o);
  }
  return out;
}

}  // namespace fitrank
