// Prefill (prompt processing) and time to first token.
//
// Compute-bound for long prompts: per prompt token 2 x active parameters (the output head runs
// once, for the last token) plus attention, 4 x (heads x head_dim) x attended tokens per layer
// (causal: half the prompt on average; sliding layers at most their window). The throughput is
// a share of the GPU's dense matrix peak, the right peak for the runtime's GEMMs (GeForce FP16
// with FP32 accumulate runs at half rate), reduced for GEMMs with few rows: rows/(rows + half)
// with rows = the micro-batch, or for MoE experts the tokens each expert receives
// (ubatch x k / E). Short prompts hit the memory floor: the weights are read once per
// micro-batch; that read is added to the math (they overlap little at these sizes). TTFT adds a
// fixed start cost.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {

namespace {

// The FP8/FP4 tensor peak when FP8/FP4 weights run FP8/FP4 GEMMs in this runtime (llama.cpp
// dequantizes MXFP4 to 8 bits for its int8 kernels), else 0.
double LowPrecisionPeakTflops(const Ctx& ctx, const Gpu& g) {
  if (ctx.quant != QuantFamily::kFp8 && ctx.quant != QuantFamily::kFp4) return 0;
  const double low = ctx.quant == QuantFamily::kFp8 ? g.fp8_tflops : g.fp4_tflops;
  return low > 0 && ctx.C(K::kPrefillLowPrecisionMatmul, g) >= 0.5 ? low : 0;
}

// The peak of the 16-bit (or FP32, or dp4a int8) path the runtime's GEMMs take.
double WidePathPeakTflops(const Ctx& ctx, const Gpu& g) {
  double fp16 = g.fp16_tflops;
  if (ctx.C(K::kPrefillFp32Accumulate, g) >= 0.5 && g.fp16_fp32acc_tflops > 0) {
    fp16 = g.fp16_fp32acc_tflops;
  }
  // Without fast FP16 (Pascal consumer cards, FP16 at or below the FP32 rate) llama.cpp's GGUF
  // kernels multiply with int8 dot products (dp4a, 4x the FP32 rate); other runtimes take the
  // FP32 path.
  const bool gguf = ctx.quant == QuantFamily::kGgufK || ctx.quant == QuantFamily::kGgufLegacy ||
                    ctx.quant == QuantFamily::kGgufIq;
  if (gguf && fp16 <= g.fp32_tflops && g.int8_tops > g.fp32_tflops &&
      ctx.C(K::kPrefillDp4a, g) >= 0.5) {
    return g.int8_tops;
  }
  return std::max(fp16, g.fp32_tflops);
}

// MatrixPeakTflops, and in *path_peak the peak of the path's own width (the FP8/FP4 tensor
// peak itself, where the kernels reach only a share of it; else the same figure).
double MatrixPeaks(const Ctx& ctx, const Gpu& g, double* path_peak) {
  // FP8/FP4 GEMMs reach only part of their own peak.
  const double low = LowPrecisionPeakTflops(ctx, g);
  if (low > 0) {
    *path_peak = low;
    return low * ctx.C(K::kPrefillLowPrecisionShare, g);
  }
  *path_peak = WidePathPeakTflops(ctx, g);
  return *path_peak;
}

}  // namespace

double MatrixPeakTflops(const Ctx& ctx, const Gpu& g) {
  double path_peak = 0;
  return MatrixPeaks(ctx, g, &path_peak);
}

double SustainedMatrixTflops(const Ctx& ctx, const Gpu& g) {
  if (ctx.sustained0_known && &g == ctx.gpu0) return ctx.sustained0_tflops;
  double path_peak = 0;
  const double peak = MatrixPeaks(ctx, g, &path_peak);
  // A board sustains at most tflops_per_watt x TDP of dense 16-bit math (GEMMs are power-bound
  // on low-power boards and on datasheets whose peak outruns the power budget); the two limits
  // combine harmonically, as two resistances in series. A narrower path costs proportionally
  // less energy per operation, so its power limit scales with its own peak (the FP8/FP4
  // tensor peak, not the share of it the kernels reach, a separate limit) over the 16-bit one.
  const double fp16 = std::max(g.fp16_tflops, g.fp32_tflops);
  const double per_watt = ctx.C(K::kPrefillTflopsPerWatt, g);
  double sustained = peak;
  if (g.tdp_w > 0 && per_watt > 0 && fp16 > 0) {
    const double power_tflops = per_watt * g.tdp_w * std::max(path_peak / fp16, 1.0);
    sustained = SafeDiv(1.0, 1.0 / std::max(peak, 1e-9) + 1.0 / power_tflops);
  }
  return sustained * ctx.C(K::kPrefillEfficiency, g);
}

double GemmFactor(const Ctx& ctx, double rows) {
  const double half = ctx.C(K::kGemmHalfTokens);
  return SafeDiv(rows, rows + half);
}

namespace {

// Milliseconds per prompt token if one GPU `g` ran the whole model, micro-batch `ub`.
double TokenMsOn(const Ctx& ctx, const Gpu& g, double ub, double attn_flops, bool trace) {
  const ModelShape& m = ctx.m;
  const double peak = SustainedMatrixTflops(ctx, g) * 1e12 * ctx.C(K::kPrefillQuantEfficiency, g);
  const double dense_flops = 2.0 * std::max(m.active_body - m.routed_active, 0.0);
  const double expert_flops = 2.0 * m.routed_active;
  double expert_rows = ub;
  double touched = 1;
  if (m.moe) {
    expert_rows = ub * m.experts_per_token / double(m.experts);
    touched = 1.0 - std::pow(std::max(1.0 - double(m.experts_per_token) / m.experts, 0.0), ub);
  }
  const double compute_ms =
      (SafeDiv(dense_flops + attn_flops, peak * GemmFactor(ctx, ub)) +
       SafeDiv(expert_flops, peak * GemmFactor(ctx, std::max(expert_rows, 1.0)))) * 1e3;
  // Memory floor: every weight the micro-batch touches is read once per micro-batch.
  const double ub_bytes = m.dense_read_bytes + m.expert_bytes_all * (m.moe ? touched : 0);
  const double floor_ms =
      SafeDiv(ub_bytes, g.bandwidth_gbps * 1e9 * ctx.C(K::kDecodeBwEfficiency, g) * ub) * 1e3;
  // Per-layer fixed cost, once per micro-batch.
  const double fp32 = g.fp32_tflops > 0 ? g.fp32_tflops : g.fp16_tflops;
  const double layer_ms = m.layers *
                          (ctx.C(K::kDecodeLayerUs, g) +
                           SafeDiv(ctx.C(K::kDecodeLayerWorkUsTflops, g), fp32)) / 1e3 / ub;
  // The weight reads of a micro-batch overlap its math: the slower of the two binds.
  const double ms = std::max(compute_ms, floor_ms) + layer_ms;
  if (trace && ctx.t != nullptr) {
    ctx.t->Formula("prefill per token on " + g.name,
                   "max(FLOPs / (sustained x quant eff x rows/(rows+half)), weights per ubatch / bw / ubatch) + layer costs / ubatch; sustained = eff / (1/peak + 1/(tflops_per_watt x TDP))",
                   absl::StrFormat("%.2f GFLOP/token (attention %.3f) at %.0f TFLOPS peak, %.0f sustained, ubatch %.0f "
                                   "(expert rows %.1f): compute %.4f ms, floor %.4f ms, layers %.4f ms",
                                   (dense_flops + expert_flops + attn_flops) / 1e9, attn_flops / 1e9,
                                   MatrixPeakTflops(ctx, g), SustainedMatrixTflops(ctx, g), ub,
                                   expert_rows, compute_ms, floor_ms,
                                   layer_ms));
  }
  return ms;
}

}  // namespace

void ComputePrefill(Ctx* ctx, Estimate* e) {
  const Setup& s = *ctx->setup;
  const ModelShape& m = ctx->m;
  const Model& md = *ctx->model;
  const double prompt = std::max(ctx->prompt, 1);
  const double ub = std::min(prompt, std::max(1.0, ctx->ubatch));
  // Attention FLOPs per prompt token: 4 x q_dim x attended, attended = prompt/2 (causal).
  const double q_dim = double(m.heads) * m.head_dim;
  const double half = prompt / 2;
  int sliding = 0;
  if (md.attention.sliding_window > 0) sliding = std::min(md.attention.sliding_window_layers, m.layers);
  const double attended = (m.layers - sliding) * half +
                          sliding * std::min(half, double(md.attention.sliding_window));
  const double attn_flops = 4.0 * q_dim * attended;

  const bool tensor = ctx->par == Parallelism::kTensor && s.device_count > 1;
  const double need = e->memory.weights_gb + e->memory.kv_gb;
  double token_ms = 0;
  if (tensor) {
    token_ms = TokenMsOn(*ctx, *s.devices[0].gpu, ub, attn_flops, true) / s.device_count +
               ctx->C(K::kTpSyncsPerLayer) * m.layers * SafeDiv(AllReduceLayerMs(*ctx, ub, false), ub);
  } else {
    for (size_t i = 0; i < s.devices.size(); ++i) {
      const double share = SafeDiv(e->placement.group_weights_gb[i], need);
      token_ms += s.devices[i].count * share * TokenMsOn(*ctx, *s.devices[i].gpu, ub, attn_flops, i == 0);
    }
    const double host_share = SafeDiv(e->placement.host_weights_gb, need);
    if (host_share > 0) {
      const Gpu& g0 = *s.devices[0].gpu;
      if (s.unified) {
        // The CPU computes its layers.
        token_ms += SafeDiv(host_share * 2 * m.active, s.host_tflops * 1e12) * 1e3;
      } else {
        // llama.cpp runs offloaded layers' big batches on the GPU, streaming their weights
        // over PCIe once per micro-batch.
        const double pcie = g0.pcie_gbps > 0 ? g0.pcie_gbps : 16;
        token_ms += host_share * TokenMsOn(*ctx, g0, ub, attn_flops, false) +
                    SafeDiv(host_share * m.weights_bytes, pcie * 1e9 * ub) * 1e3;
      }
    }
    token_ms += (s.device_count - 1) * ctx->C(K::kLayerSplitBoundaryUs) / 1e3 / ub;
  }
  // Without flash attention the f32 scores of every full-attention layer go through memory:
  // heads x attended x 4 B per prompt token per layer, several passes (tensor parallel: heads
  // split N ways).
  if (!ctx->flash_attn) {
    const Gpu& g0 = *s.devices[0].gpu;
    const double score_bytes = double(m.heads) * attended * 4 * ctx->C(K::kScorePasses) /
                               (tensor ? s.device_count : 1);
    const double score_ms =
        SafeDiv(score_bytes, g0.bandwidth_gbps * 1e9 * ctx->C(K::kDecodeBwEfficiency, g0)) * 1e3;
    token_ms += score_ms;
    if (ctx->t != nullptr) {
      ctx->t->Formula("attention scores (flash attention off)",
                      "heads x attended tokens x 4 B x passes / (bw x eff), per prompt token",
                      absl::StrFormat("%.1f MB per token: %.4f ms", score_bytes / 1e6, score_ms));
    }
  }
  const double prefill_ms = token_ms * prompt;
  const double start_ms = ctx->C(K::kPrefillStartMs);
  e->prefill_tok_s = Finite(SafeDiv(1000.0, token_ms));
  e->ttft_ms = e->prefill_tok_s > 0 ? Finite(prefill_ms + start_ms) : 0;
  if (ctx->t != nullptr) {
    ctx->t->Formula("ttft_ms", "prompt x ms per prompt token + start cost",
                    absl::StrFormat("%.0f x %.4f ms + %.1f ms = %.1f ms", prompt, token_ms,
                                    start_ms, e->ttft_ms));
  }
}

}  // namespace fitrank::internal
