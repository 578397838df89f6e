// Several GPUs. Layer split is handled where the bytes are summed (decode.cc, prefill.cc): a
// token passes the GPUs in turn, so each GPU's share of the time adds up, plus a fixed cost per
// boundary. Tensor parallelism splits every layer N ways; the price is two all-reduces of the
// activations per layer (llama.cpp -sm row: one exchange per weight matrix, through the main
// GPU), latency-bound at batch 1 over PCIe, bandwidth-bound at long prompts.
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {

bool TensorParallelDivides(const Model& m, int degree) {
  if (degree <= 1) return true;
  const int heads = m.attention_heads;
  const int kv = m.kv_heads > 0 ? m.kv_heads : heads;
  if (heads <= 0 || heads % degree != 0) return false;
  // Fewer KV heads than GPUs is fine when they replicate evenly (vLLM does).
  return kv % degree == 0 || degree % kv == 0;
}

double AllReduceSteps(int n) {
  // Recursive halving/doubling: 2 x ceil(log2 N) latency-bound steps.
  return n > 1 ? 2.0 * std::ceil(std::log2(double(n))) : 0;
}

double AllReduceLayerMs(const Ctx& ctx, double tokens, bool trace) {
  const Setup& s = *ctx.setup;
  const int n = s.device_count;
  if (n <= 1) return 0;
  // Each GPU sends and receives 2 (N-1)/N of the message.
  const double steps = ctx.C(K::kTpGatherToMain) >= 0.5 ? 2.0 * (n - 1) : ctx.allreduce_steps;
  const double latency_us = s.link_latency_us > 0 ? s.link_latency_us : ctx.C(K::kTpLinkLatencyUs);
  const double msg_bytes = tokens * ctx.m.hidden * 2.0;  // fp16 activations
  const double transfer_ms =
      SafeDiv(2.0 * (n - 1) / n * msg_bytes, s.link_bandwidth_gbps * 1e9) * 1e3;
  const double ms = (steps * latency_us + ctx.C(K::kTpAllreduceOverheadUs)) / 1e3 + transfer_ms;
  if (trace && ctx.t != nullptr) {
    ctx.t->Formula("all_reduce_ms", "steps (2 ceil(log2 N); 2 (N-1) when the main GPU gathers) x link latency + runtime overhead + 2(N-1)/N x tokens x hidden x 2 B / link bw",
                   absl::StrFormat("N=%d over %s: %.0f steps x %.1f us + %.3f ms transfer = %.3f ms",
                                   n, s.link_name, steps, latency_us, transfer_ms, ms));
  }
  return ms;
}

}  // namespace fitrank::internal
