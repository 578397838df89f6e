// BuildBuyingAdvice (declared in engine/report/advisor.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/report/advisor.h"
#include "engine/report/grader.h"

namespace fitrank {

namespace {

bool Has(const std::vector<std::string>& v, absl::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

BuyingAdvice BuildBuyingAdvice(const ReportEnv& env, const Setup& setup, const Mode& mode,
                               const GpuReport& r,
                               const UpgradeReport& upgrade) {
  const ReportPolicy& pol = *env.policy;
  BuyingAdvice b;
  std::vector<const Model*> top = TopModels(env, pol.top_models_count);
  b.top_n = static_cast<int>(top.size());
  const Workload& workload = PolicyWorkload(env, pol.top_models_workload);
  WorkloadShape shape = ShapeFor(workload, mode);
  int native = 0, slow = 0;
  for (const Model* m : top) {
    Graded g;
    const Quant* q = env.grader->BestQuant(setup, *m, workload, mode, &g);
    const bool well =
        q != nullptr && !g.excluded && ReportPolicy::GradeAtLeast(g.grade, pol.top_models_min_grade);
    const Quant* cq = env.catalog->QuantById(pol.count_quant);
    if (cq != nullptr) {
      LlmRun run = RunLlm(env, setup, *m, *cq, shape);
      bool nat = run.estimate.runs_natively();
      native += nat;
      slow += nat && run.estimate.decode_tok_s < shape.decode_target_tok_s;
    }
    b.runs_well += well;
  }
  b.top_native = native;
  const VerdictLevel& v = pol.VerdictFor(b.runs_well, b.top_n);
  b.verdict_id = v.id;
  b.verdict = v.text;
  b.summary = absl::StrFormat(
      "Runs %d of the top %d models well (grade %s or better for %s at their best quantization).",
      b.runs_well, b.top_n, pol.top_models_min_grade, shape.workload->name);

  // What limits first: memory if most top models do not fit; else bandwidth if many that fit
  // are below the speed target; else software; else nothing in particular.
  const Gpu& g = r.specs.gpu;
  bool good_platform = Has(g.platforms, "CUDA") || Has(g.platforms, "ROCm") || Has(g.platforms, "Metal");
  if (b.top_n > 0 && native * 2 < b.top_n) {
    b.limiter_id = "memory";
    b.limiter = absl::StrFormat(
        "memory: only %d of the top %d models fit natively in %.1f GB usable.", native, b.top_n,
        r.setup.usable_gb);
  } else if (native > 0 && slow * 3 > native) {
    b.limiter_id = "bandwidth";
    b.limiter = absl::StrFormat(
        "bandwidth: %d of the %d top models that fit decode below %.0f tok/s at %.0f GB/s.", slow,
        native, shape.decode_target_tok_s, g.bandwidth_gbps);
  } else if (!good_platform) {
    b.limiter_id = "ecosystem";
    b.limiter = "software: without CUDA, ROCm or Metal, runtimes and kernels lag behind.";
  } else {
    b.limiter_id = "none";
    b.limiter = "nothing in particular: memory, bandwidth and software are balanced for the top models.";
  }
  if (r.specs.usable_gb < 8) {
    b.red_flags.push_back(absl::StrFormat(
        "Only %.1f GB usable: most current models need offload or aggressive quantization.",
        r.specs.usable_gb));
  }
  if (!good_platform) b.red_flags.push_back("No CUDA, ROCm or Metal support.");
  if (g.fp32_tflops > 0 && g.fp16_tflops > 0 && g.fp16_tflops < g.fp32_tflops / 4) {
    b.red_flags.push_back(
        "Weak FP16 throughput: prompt processing and dequantization run on the FP32 path.");
  }
  if (g.launch_year > 0 && g.launch_year <= 2017) {
    b.red_flags.push_back(absl::StrFormat(
        "Launched in %d: driver and runtime support for this generation is ending.", g.launch_year));
  }
  if (PriceOf(env, g) == 0) b.red_flags.push_back("No known price: cannot judge value.");
  for (const ItineraryStep& st : upgrade.itinerary) {
    b.itinerary.push_back(absl::StrFormat("%s ($%.0f): %s", st.option.action, st.option.price_usd,
                                          st.why));
  }
  return b;
}

}  // namespace fitrank
