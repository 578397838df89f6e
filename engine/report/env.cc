#include "engine/report/env.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/quantities.h"

namespace fitrank {

EstimateInput LlmInput(const ReportEnv& env, const Setup& setup, const Model& model,
                       const Quant& quant, const WorkloadShape& shape, const Runtime* runtime) {
  EstimateInput in;
  in.setup = &setup;
  in.model = &model;
  in.quant = &quant;
  in.gguf = env.catalog->GgufSizeOf(model, quant);  // kept per catalog pair: reports repeat them
  in.runtime = runtime;
  // The workload's context, never past what the model supports: a report answers "how does it
  // run for this work", and a model cannot be asked for more context than it has.
  int context = shape.context_tokens;
  if (model.max_context > 0) context = std::min(context, model.max_context);
  in.context = std::max(context, 1);
  in.prompt_tokens = std::max(1, std::min(shape.prompt_tokens, in.context));
  in.gen_tokens = std::max(1, shape.output_tokens);
  in.batch = 1;
  return in;
}

LlmRun RunLlm(const ReportEnv& env, const Setup& setup, const Model& model, const Quant& quant,
              const WorkloadShape& shape, const Runtime* runtime) {
  LlmRun run;
  run.runtime = runtime != nullptr ? runtime
                                   : env.estimator->DefaultRuntime(*env.catalog, setup, &quant);
  run.input = LlmInput(env, setup, model, quant, shape, run.runtime);
  EstimateInput& in = run.input;
  env.estimator->Run(in, &run.estimate);
  // As the ranker does (ChooseKvCache). The runtime's fallback is looked up by name, so only
  // for estimates that could use it.
  const KvCacheType fallback = run.estimate.smaller_kv_could_fit()
                                   ? env.estimator->FallbackKvCache(run.runtime)
                                   : KvCacheType::kF16;
  Estimate smaller;
  auto estimate_at = [&](KvCacheType type) -> const Estimate& {
    EstimateInput x = in;
    x.kv_cache = type;
    env.estimator->Run(x, &smaller);
    return smaller;
  };
  const KvCacheType kv = ChooseKvCache(run.estimate, fallback, estimate_at);
  if (kv != KvCacheType::kF16) {
    in.kv_cache = kv;
    run.estimate = smaller;
  }
  return run;
}

SetupView ViewOf(const ReportEnv& env, const Setup& setup) {
  SetupView v;
  v.label = setup.label;
  v.gpu_count = setup.device_count;
  v.host_ram_gb = setup.host_ram_gb;
  for (const DeviceGroup& g : setup.devices) {
    for (int i = 0; i < g.count; ++i) v.gpu_ids.push_back(g.gpu->id);
    v.memory_gb += g.gpu->memory_gb * g.count;
    v.usable_gb += env.estimator->UsableMemoryGb(*g.gpu) * g.count;
    v.bandwidth_gbps = std::max(v.bandwidth_gbps, g.gpu->bandwidth_gbps);
  }
  return v;
}

std::string UsableMemoryNote(const Estimator& estimator, const ReportPolicy& policy,
                             const Runtime* runtime, const Setup& setup,
                             double estimate_usable_gb) {
  const NoteText* note = policy.NoteFor("fit.usable-share");
  if (runtime == nullptr || note == nullptr) return "";
  double memory_gb = 0, usable_gb = 0;
  for (const DeviceGroup& g : setup.devices) {
    memory_gb += CapacityGb(*g.gpu) * g.count;  // GB of 1e9 bytes, as usable_gb counts
    usable_gb += estimator.UsableMemoryGb(*g.gpu) * g.count;
  }
  if (!(estimate_usable_gb < usable_gb - note->min_gap_gb) || memory_gb <= 0) return "";
  return policy.Note("fit.usable-share",
                     {{"runtime", runtime->name},
                      {"share_pct", 100 * estimate_usable_gb / memory_gb},
                      {"usable", FormatGb(estimate_usable_gb)},
                      {"setup_usable", FormatGb(usable_gb)}});
}

FitView ViewOf(const FitEstimate& fit) {
  FitView v;
  v.kind = fit.kind;
  v.headroom_pct = fit.headroom_pct;
  v.offload_pct = fit.offload_pct;
  v.host_ram_gb = fit.host_ram_gb;
  return v;
}

absl::StatusOr<Setup> SetupOfCount(const ReportEnv& env, const Gpu& gpu, int count,
                                   const Setup* like, bool tensor) {
  SetupOptions options;
  options.interconnects = &env.catalog->interconnects();
  if (like != nullptr && !like->host_defaulted) {
    options.host_ram_gb = like->host_ram_gb;
    options.host_bandwidth_gbps = like->host_bandwidth_gbps;
  }
  if (tensor) options.parallelism = Parallelism::kTensor;
  return BuildSetup(*env.estimator, {{&gpu, count}}, options);
}

SpecsView SpecsOf(const ReportEnv& env, const Gpu& gpu) {
  SpecsView s;
  s.gpu = gpu;
  s.usable_gb = env.estimator->UsableMemoryGb(gpu);
  s.interconnect_name = InterconnectName(*env.catalog, gpu);
  if (const Price* p = env.catalog->PriceFor(gpu.id)) {
    s.street_usd = p->street_usd;
    s.cloud_usd_per_hour = p->cloud_usd_per_hour;
    s.price_as_of = p->as_of;
  }
  return s;
}

double PriceOf(const ReportEnv& env, const Gpu& gpu, std::string* basis) {
  return GpuPriceUsd(*env.catalog, gpu, basis);
}

const Model* FirstKnownModel(const Catalog& catalog, const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    if (const Model* m = catalog.ModelById(id)) return m;
  }
  return nullptr;
}

const DiffusionModel* FirstKnownDiffusion(const Catalog& catalog,
                                          const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    for (const DiffusionModel& d : catalog.diffusion()) {
      if (d.id == id) return &d;
    }
  }
  return nullptr;
}

bool IsAssistantModel(const Model& m) {
  return m.kind != "embedding" && m.kind != "base" && m.kind != "code-completion";
}

std::vector<const Model*> TopModels(const ReportEnv& env, int count) {
  std::vector<const Model*> all;
  for (const Model& m : env.catalog->models()) {
    if (IsAssistantModel(m)) all.push_back(&m);
  }
  std::stable_sort(all.begin(), all.end(), [](const Model* a, const Model* b) {
    if (a->quality.score != b->quality.score) return a->quality.score > b->quality.score;
    return a->id < b->id;
  });
  if (static_cast<int>(all.size()) > count) all.resize(count);
  return all;
}

bool QuantUsable(const ReportEnv& env, const Setup& setup, const Quant& quant) {
  const Runtime* rt = env.estimator->DefaultRuntime(*env.catalog, setup, &quant);
  if (rt == nullptr) return false;
  return (env.estimator->CheckCombination(setup, &quant, rt) & kBlockingProblems) == 0;
}

}  // namespace fitrank
