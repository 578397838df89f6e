// GpuTraits and BuildBuyingAdvice (declared in engine/advisor.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/advisor.h"
#include "engine/report_scoring.h"

namespace fitrank {

namespace {

// Share of catalog GPUs (excluding CPUs) with a value below `v`, 0-1.
template <class F>
double Percentile(const Catalog& c, F value, double v) {
  int below = 0, all = 0;
  for (const Gpu& g : c.gpus()) {
    if (g.segment == Segment::kCpu) continue;
    ++all;
    below += value(g) < v;
  }
  return all ? static_cast<double>(below) / all : 0;
}

bool Has(const std::vector<std::string>& v, absl::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

void GpuTraits(const ReportEnv& env, const GpuReport& r, std::vector<std::string>* strengths,
               std::vector<std::string>* considerations) {
  const Gpu& g = r.specs.gpu;
  const Catalog& c = *env.catalog;
  double mem_pct = Percentile(c, [](const Gpu& x) { return x.memory_gb; }, g.memory_gb);
  double bw_pct = Percentile(c, [](const Gpu& x) { return x.bandwidth_gbps; }, g.bandwidth_gbps);
  int fit = r.multi_gpu.rows.empty() ? 0 : r.multi_gpu.rows[0].models_fit;
  int total = r.multi_gpu.rows.empty() ? 0 : r.multi_gpu.rows[0].models_total;
  if (mem_pct >= 0.75) {
    strengths->push_back(absl::StrFormat(
        "%.0f GB of %s: more memory than %.0f%% of the GPUs in the catalog; %d of %d catalog "
        "models fit natively at %s.",
        g.memory_gb, g.memory_type, mem_pct * 100, fit, total, env.policy->count_quant));
  } else if (mem_pct < 0.35) {
    considerations->push_back(absl::StrFormat(
        "%.0f GB of memory is less than most GPUs in the catalog have: %d of %d catalog models "
        "fit natively at %s.",
        g.memory_gb, fit, total, env.policy->count_quant));
  }
  if (bw_pct >= 0.75) {
    strengths->push_back(absl::StrFormat(
        "%.0f GB/s of memory bandwidth (top %.0f%% of the catalog): decode speed is bandwidth, "
        "so models that fit run fast.",
        g.bandwidth_gbps, (1 - bw_pct) * 100 + 0.5));
  } else if (bw_pct < 0.35) {
    considerations->push_back(absl::StrFormat(
        "%.0f GB/s of memory bandwidth is low: larger models that fit will decode slowly.",
        g.bandwidth_gbps));
  }
  if (g.unified_memory) {
    strengths->push_back(absl::StrFormat(
        "Unified memory: the GPU can use about %.0f GB of the machine's %.0f GB, far more than "
        "consumer graphics cards offer.",
        r.specs.usable_gb, g.memory_gb));
  }
  if (g.fp4_tflops > 0) {
    strengths->push_back("FP4 in hardware: NVFP4/MXFP4 checkpoints run natively at a quarter of "
                         "the 16-bit memory.");
  } else if (g.fp8_tflops > 0) {
    strengths->push_back("FP8 in hardware: FP8 checkpoints (vLLM, SGLang, TensorRT-LLM) run "
                         "natively at half the 16-bit memory.");
  }
  if (Has(g.platforms, "CUDA")) {
    strengths->push_back("CUDA: every local runtime (llama.cpp, Ollama, vLLM, SGLang, "
                         "TensorRT-LLM, ExLlamaV2) supports it first.");
  } else if (Has(g.platforms, "ROCm")) {
    considerations->push_back("ROCm instead of CUDA: llama.cpp, Ollama and vLLM work; "
                              "CUDA-only tools (TensorRT-LLM, ExLlamaV2) do not.");
  } else if (Has(g.platforms, "Metal")) {
    considerations->push_back("Metal/MLX only: llama.cpp, Ollama, LM Studio and MLX work; "
                              "vLLM-style serving and CUDA tools do not.");
  } else {
    considerations->push_back(absl::StrCat(
        "No CUDA, ROCm or Metal (", absl::StrJoin(g.platforms, ", "),
        "): only Vulkan/SYCL builds of llama.cpp-style runtimes, usually slower."));
  }
  if (r.multi_gpu.rows.size() > 1) {
    const ScalingRow& last = r.multi_gpu.rows.back();
    if (g.interconnect_gbps >= 300) {
      strengths->push_back(absl::StrFormat(
          "Scales out over %s: %dx gives %.0f GB and runs %d of %d models.",
          r.multi_gpu.interconnect, last.gpu_count, last.memory_gb, last.models_fit,
          last.models_total));
    } else {
      considerations->push_back(absl::StrFormat(
          "Multi-GPU goes over %s only: memory adds up (%dx = %.0f GB) but tensor-parallel "
          "speed-up is limited.",
          r.multi_gpu.interconnect.empty() ? "PCIe" : r.multi_gpu.interconnect, last.gpu_count,
          last.memory_gb));
    }
  }
  if (g.form_factor == "sxm5" || g.form_factor == "sxm4" || g.form_factor == "sxm6" ||
      g.form_factor == "oam" || g.form_factor == "sxm2") {
    considerations->push_back(absl::StrCat(
        "Form factor ", g.form_factor, ": needs an HGX/OAM server board, not a workstation."));
  }
  double price = PriceOf(env, g);
  if (price > 0 && r.specs.usable_gb > 0) {
    double per_gb = price / r.specs.usable_gb;
    (per_gb <= 60 ? strengths : considerations)
        ->push_back(absl::StrFormat("$%.0f per usable GB of model memory ($%.0f).", per_gb, price));
  }
  if (r.diffusion.total > 0) {
    (r.diffusion.native * 2 >= r.diffusion.total ? strengths : considerations)
        ->push_back(absl::StrFormat("Image and video: %d of %d diffusion models run natively.",
                                    r.diffusion.native, r.diffusion.total));
  }
}

BuyingAdvice BuildBuyingAdvice(const ReportEnv& env, const Setup& setup, const GpuReport& r,
                               const UpgradeReport& upgrade) {
  const ReportPolicy& pol = *env.policy;
  BuyingAdvice b;
  std::vector<const Model*> top = TopModels(env, pol.top_models_count);
  b.top_n = static_cast<int>(top.size());
  WorkloadShape shape = ShapeOf(env, pol.top_models_workload, r.mode.id);
  int native = 0, slow = 0;
  for (const Model* m : top) {
    bool well = false;
    if (env.scorer != nullptr) {
      Graded g;
      const Quant* q = env.scorer->BestQuant(setup, *m, shape.workload->id, r.mode.id, &g);
      well = q != nullptr && !g.excluded && ReportPolicy::GradeAtLeast(g.grade, pol.top_models_min_grade);
    }
    const Quant* cq = env.catalog->QuantById(pol.count_quant);
    if (cq != nullptr) {
      LlmRun run = RunLlm(env, setup, *m, *cq, shape);
      bool nat = run.runnable() && (run.estimate.fit.kind == FitKind::kNativeComfortable ||
                                    run.estimate.fit.kind == FitKind::kNativeTight);
      native += nat;
      slow += nat && run.estimate.decode_tok_s < shape.decode_target_tok_s;
      if (env.scorer == nullptr) well = nat && run.estimate.decode_tok_s >= shape.decode_target_tok_s;
    }
    b.runs_well += well;
  }
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
