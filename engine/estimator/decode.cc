// Decode: time per generated token.
//
// Memory-bound at small batch: every step reads the active weights once (MoE: the routed
// experts the batch touches plus the dense parts) and each sequence's KV cache up to its
// current length. Time = bytes / (bandwidth x efficiency) summed over where the bytes live
// (each GPU's share, host RAM for offloaded layers), plus fixed costs: per layer (kernel
// launches and synchronisation on the host side, plus a GPU-side latency that shrinks with the
// GPU's speed), per token (sampling, scheduling), per layer-split boundary. Two floors keep
// weak GPUs honest: dequantisation math over the vector units (Pascal, old iGPUs) and, at
// larger batch, the matrix throughput.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {
namespace {

struct DeviceTime {
  double stream_ms = 0;    // bytes over achieved bandwidth (or the compute floor)
  double overhead_ms = 0;  // per-layer fixed costs for this device's layers
};

// One GPU holding `share` of the model, for a step reading `bytes` and touching `params`
// weights, computing `flops`.
DeviceTime OnDevice(const Ctx& ctx, const Gpu& g, double share, double bytes, double params,
                    double flops, int batch) {
  DeviceTime d;
  const double eff = ctx.C(K::kDecodeBwEfficiency, g);
  const double mem_ms = SafeDiv(share * bytes, g.bandwidth_gbps * 1e9 * eff) * 1e3;
  const double fp32 = g.fp32_tflops > 0 ? g.fp32_tflops : g.fp16_tflops;
  const double dequant_ms =
      SafeDiv(share * params * ctx.C(K::kDequantOpsPerWeight, g),
              fp32 * 1e12 * ctx.C(K::kDecodeVectorEfficiency, g)) * 1e3;
  double gemm_ms = 0;
  if (batch > 1) {
    gemm_ms = SafeDiv(share * flops, SustainedMatrixTflops(ctx, g) * 1e12 * GemmFactor(ctx, batch)) *
              1e3;
  }
  d.stream_ms = std::max({mem_ms, dequant_ms, gemm_ms});
  const double layer_us = ctx.C(K::kDecodeLayerUs, g) +
                          SafeDiv(ctx.C(K::kDecodeLayerWorkUsTflops, g), fp32);
  d.overhead_ms = share * ctx.m.layers * layer_us / 1e3;
  return d;
}

}  // namespace

double DecodeStepMs(const Ctx& ctx, const Estimate& e, int batch, double avg_ctx, bool trace) {
  const Setup& s = *ctx.setup;
  const ModelShape& m = ctx.m;
  const int groups = static_cast<int>(s.devices.size());
  const bool tensor = ctx.par == Parallelism::kTensor && s.device_count > 1;
  const double b = std::max(batch, 1);

  // Bytes and work of one step.
  double expert_bytes = m.expert_read_bytes;
  if (m.moe && b > 1) {
    const double p_miss = 1.0 - double(m.experts_per_token) / m.experts;
    const double touched = 1.0 - std::pow(std::max(p_miss, 0.0), b);
    expert_bytes = m.expert_bytes_all * touched;
  }
  const double weight_bytes = m.dense_read_bytes + expert_bytes;
  const double kv_bytes = b * ctx.kv.Bytes(avg_ctx);
  const double bytes = weight_bytes + kv_bytes;
  const double params = SafeDiv(weight_bytes * 8, m.bpw);
  const double flops = 2.0 * m.active * b;

  const double need = e.memory.weights_gb + e.memory.kv_gb;
  const double host_share = SafeDiv(e.placement.host_weights_gb, need);
  double total_ms = 0, stream_ms = 0, overhead_ms = 0, comm_ms = 0, host_ms = 0;
  if (tensor) {
    const Gpu& g = *s.devices[0].gpu;
    DeviceTime d = OnDevice(ctx, g, 1.0 / s.device_count, bytes, params, flops, batch);
    stream_ms = d.stream_ms;
    overhead_ms = d.overhead_ms * s.device_count;  // every GPU runs every layer
    comm_ms = ctx.C(K::kTpSyncsPerLayer) * m.layers * AllReduceLayerMs(ctx, b, trace);
  } else {
    for (int i = 0; i < groups; ++i) {
      const Gpu& g = *s.devices[i].gpu;
      const double share = SafeDiv(e.placement.group_weights_gb[i], need);
      DeviceTime d = OnDevice(ctx, g, share, bytes, params, flops, batch);
      stream_ms += s.devices[i].count * d.stream_ms;
      overhead_ms += s.devices[i].count * d.overhead_ms;
    }
    int boundaries = s.device_count - 1 + (host_share > 0 ? 1 : 0);
    comm_ms = boundaries * ctx.C(K::kLayerSplitBoundaryUs) / 1e3;
    if (host_share > 0) {
      host_ms = SafeDiv(host_share * bytes,
                        s.host_bandwidth_gbps * 1e9 * ctx.C(K::kHostBwEfficiency)) * 1e3;
    }
  }
  const double token_ms = ctx.C(K::kDecodeTokenMs);
  total_ms = stream_ms + overhead_ms + comm_ms + host_ms + token_ms;
  if (trace && ctx.t != nullptr) {
    ctx.t->Formula(
        batch > 1 ? "serving step_ms" : "decode_tok_s",
        tensor ? "1000 / (bytes/N / (bw x eff) + layers x layer_cost + syncs_per_layer x layers x exchange + token_ms)"
               : "1000 / (sum over GPUs: share x bytes / (bw x eff) + share x layers x layer_cost"
                 " + host share x bytes / host bw + boundaries + token_ms)",
        absl::StrFormat("bytes/step %.3f GB (weights %.3f + KV %.3f at %.0f tokens x %d): "
                        "stream %.2f ms + layers %.2f ms + links %.2f ms + host %.2f ms + "
                        "token %.2f ms = %.2f ms",
                        bytes / 1e9, weight_bytes / 1e9, kv_bytes / 1e9, avg_ctx, int(b), stream_ms,
                        overhead_ms, comm_ms, host_ms, token_ms, total_ms));
  }
  return total_ms;
}

namespace {
double AverageContext(const Ctx& ctx) {
  return std::min<double>(ctx.prompt + ctx.gen / 2.0, ctx.context);
}
}  // namespace

double DecodeTokS(const Ctx& ctx, const Estimate& e) {
  return Finite(SafeDiv(1000.0, DecodeStepMs(ctx, e, 1, AverageContext(ctx), true)));
}

void ComputeDecode(Ctx* ctx, Estimate* e) {
  const double avg_ctx = AverageContext(*ctx);
  e->decode_bytes_per_token_gb =
      (ctx->m.read_bytes + ctx->kv.Bytes(avg_ctx)) / 1e9;
  e->decode_tok_s = DecodeTokS(*ctx, *e);
}

}  // namespace fitrank::internal
