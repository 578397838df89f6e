// Serving at concurrency: how many sequences of `context` tokens fit their KV cache beside the
// weights, and the decode speed at that concurrency. Each step reads the weights once for the
// whole batch (MoE: the experts the batch touches) and each sequence's KV; aggregate tokens/s
// grows with the batch until the matrix units bind (decode.cc's floors); per-user speed falls.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {

int MaxConcurrency(const Ctx& ctx, const Estimate& e, double* cap_gb, double* kv_seq_gb,
                   double* max_seqs) {
  // The same device capacity the fit used (reserves: display card first, driver reserve on the
  // others; runtime overhead per device).
  double cap = ctx.device_cap_gb;
  if (e.fit.kind == FitKind::kOffload) cap += HostAvailableGb(ctx);
  const double free_gb = cap - e.memory.weights_gb;
  const double kv_seq = ctx.kv.Bytes(ctx.context) / 1e9;
  const double max_n = ctx.in != nullptr && ctx.in->max_num_seqs > 0
                           ? double(ctx.in->max_num_seqs)
                           : ctx.C(K::kServingMaxSequences);
  double n = kv_seq > 0 ? std::floor(SafeDiv(free_gb, kv_seq)) : max_n;
  n = std::clamp(n, 0.0, max_n);
  if (cap_gb != nullptr) *cap_gb = cap;
  if (kv_seq_gb != nullptr) *kv_seq_gb = kv_seq;
  if (max_seqs != nullptr) *max_seqs = max_n;
  return static_cast<int>(n);
}

void ComputeServing(Ctx* ctx, Estimate* e) {
  ServingEstimate& sv = e->serving;
  const int sized = sv.max_concurrency;  // SizeFit's, > 0 when it worked the value out
  sv = ServingEstimate{};
  if (e->fit.kind == FitKind::kNoFit) return;
  double cap = 0, kv_seq_gb = 0, max_seqs = 0;
  sv.max_concurrency = ctx->t == nullptr && sized > 0
                           ? sized
                           : MaxConcurrency(*ctx, *e, &cap, &kv_seq_gb, &max_seqs);
  if (sv.max_concurrency < 1) return;
  // The sequences that run: those offered, else the users the speeds are for, at most what
  // fits; with neither, as many as fit.
  const int users = ctx->offered > 1                                      ? ctx->offered
                    : ctx->in != nullptr && ctx->in->serving_users > 0 ? ctx->in->serving_users
                                                                        : 0;
  sv.concurrency = users > 0 ? std::min(users, sv.max_concurrency) : sv.max_concurrency;
  sv.queued = users > 0 ? users - sv.concurrency : 0;
  if (ctx->offered > 1 || ctx->in == nullptr || ctx->in->serving_speeds_at_capacity) {
    const double avg_ctx = std::min<double>(ctx->prompt + ctx->gen / 2.0, ctx->context);
    const double step_ms = DecodeStepMs(*ctx, *e, sv.concurrency, avg_ctx, true);
    sv.per_user_tok_s = Finite(SafeDiv(1000.0, step_ms));
    sv.aggregate_tok_s = sv.per_user_tok_s * sv.concurrency;
  }
  if (ctx->t != nullptr) {
    ctx->t->Formula("serving.max_concurrency",
                    "floor((usable - overhead - weights) / KV per sequence at context), capped by the runtime",
                    absl::StrFormat("(%.2f - %.2f) GB / %.3f GB = %d (cap %.0f)", cap,
                                    e->memory.weights_gb, kv_seq_gb, sv.max_concurrency, max_seqs));
  }
}

}  // namespace fitrank::internal
