// Internal: the estimator's working state that depends only on what Estimator::Size reads
// (setup, model, quantization, runtime, backend, context, batch, KV cache type), kept in a
// Sizing so that Estimator::Finish can compute the speeds for any prompt and generation length
// without redoing it. Plain data: no pointers, copyable.
#ifndef FITRANK_ENGINE_ESTIMATOR_INTERNAL_SIZING_STATE_H_
#define FITRANK_ENGINE_ESTIMATOR_INTERNAL_SIZING_STATE_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/estimator/constants.h"
#include "engine/estimator/setup.h"

namespace fitrank::internal {

// The model's shapes as the estimator uses them, all in parameters (not billions) or bytes.
struct ModelShape {
  double params = 0;          // total
  double active = 0;          // per token
  double embed = 0;           // input embedding table (vocab x hidden); 0 if vocab unknown
  double head = 0;            // output matrix (vocab x hidden), tied or not
  bool tied = false;
  bool vocab_known = false;
  double body = 0;            // params - embed - (untied head)
  double active_body = 0;     // active - embed - (untied head)
  double routed_active = 0;   // MoE: routed expert params per token
  double expert_total = 0;    // MoE: all routed expert params
  bool moe = false;
  int experts = 0, experts_per_token = 0;
  int layers = 0, kv_layers = 0;
  int hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, vocab = 0;
  // bits
  double bpw = 0, embed_bpw = 0, head_bpw = 0, dense_bpw = 0;
  double dense_active = 0;    // MoE: non-expert params read per token (attention, shared, router)
  // bytes
  double weights_bytes = 0;   // resident
  double read_bytes = 0;      // read per decoded token at batch 1 (active body + head)
  double dense_read_bytes = 0;   // of read_bytes: not routed experts
  double expert_read_bytes = 0;  // of read_bytes: routed experts (at batch 1)
  double expert_bytes_all = 0;   // MoE: every routed expert's bytes (what a large batch touches)
  bool gguf_recipe = false;      // weights sized tensor by tensor (catalog/gguf_recipe.h)
};

// KV cache bytes of one sequence as a function of its tokens (kv_cache.cc), the model's
// attention layout and element size folded in once, so the fit search evaluates it cheaply.
struct KvShape {
  bool none = true;                  // nothing is cached
  bool mla = false;                  // MLA: one latent per layer and token
  double mla_bytes_per_token = 0;    // layers x (kv_lora_rank + rope dims) x element bytes
  double per_layer_token = 0;        // 2 x kv_heads x head_dim x element bytes
  int global = 0, sliding = 0;       // full-attention and sliding-window layers
  int window = 0;                    // sliding window, tokens
  // Bytes for `tokens` tokens; 0 if tokens is not positive.
  double Bytes(double tokens) const {
    if (!(tokens > 0) || none) return 0;
    if (mla) return mla_bytes_per_token * tokens;
    const double sliding_tokens = std::min(tokens, double(window));
    return per_layer_token * (global * tokens + sliding * sliding_tokens);
  }
};

// What the setup's devices keep for a sizing whatever its lengths, batch and KV cache type:
// worked out by the first fit of a sizing made from scratch or for another GPU count (fit.cc),
// kept by the sizings made from it on the same setup (Estimator::SizeLike).
struct DeviceMemory {
  bool known = false;
  // Per device group: usable GB of its first card, and of each further one (UsableGb).
  std::array<double, kMaxDeviceGroups> usable_first_gb{}, usable_rest_gb{};
  // The runtime overhead summed over the devices at contexts 0 and 1 (DeviceOverheadGb is
  // linear in the context: the safe-context search's line).
  double overhead0_gb = 0, overhead1_gb = 0;
};

// Distinct (memory kind, segment) constant sets an estimate resolves; device groups beyond
// them read their constants by table lookup instead.
inline constexpr int kMaxResolvedSets = 4;

struct SizingState {
  ConstantKey key;            // backend, runtime, quant, moe, size; memory/segment of GPU 0
  QuantFamily quant = QuantFamily::kOther;
  Backend backend = Backend::kAuto;
  Parallelism par = Parallelism::kLayer;
  int runtime = -1;
  ModelShape m;
  int context = 0, prompt = 0, gen = 0, batch = 1;
  int offered = 1;            // sequences offered (EstimateInput::batch); batch = those running
  double ubatch = 512;        // micro-batch tokens (input or runtime constant)
  bool flash_attn = true;     // attention scores not materialised
  double kv_elem = 2;
  KvShape kv;                 // the model's KV cache at kv_elem bytes per element
  int device_count = 1;       // the setup's GPU count (what SetDeviceCount worked out for)
  double allreduce_steps = 0; // AllReduceSteps(device_count)
  // Memory for weights and KV cache over all devices, after reserves and runtime overhead
  // (fit.cc); serving fills what the weights leave of it with sequences.
  double device_cap_gb = 0;
  DeviceMemory devices;
  // The estimate's Problem bits that do not depend on the lengths or the batch (names,
  // tensor-parallel layout): what Estimator::SizeLike starts from.
  uint32_t shape_problems = 0;
  // The constants for `key` (resolved[0], group 0) and for each further device group of the
  // setup (its GPU's memory kind and segment): group i reads resolved[group_constants[i]], or
  // looks its constants up when that is -1 (more than kMaxResolvedSets distinct sets).
  // Filled by Ctx::ResolveConstants; unused while a Tracer is attached (Explain records which
  // case each constant came from). Only the first resolved_sets entries are filled.
  int groups_resolved = 0;
  int resolved_sets = 0;
  std::array<int8_t, kMaxDeviceGroups> group_constants{};
  // SustainedMatrixTflops of the setup's first GPU, worked out once per sizing made from
  // scratch (it depends on the GPU, the quantization family and the resolved constants alone,
  // which sizings made from it keep) when `sustained0_known`; never while tracing.
  bool sustained0_known = false;
  double sustained0_tflops = 0;
  // Last: CopyStateFrom copies every field above as one block.
  std::array<ResolvedConstants, kMaxResolvedSets> resolved;

  // Copies `o` (only its filled constant sets, and those only if `with_constants`: a working
  // state may read them where they are, internal::Ctx::constants). The fields before
  // `resolved` go as one block (plain data: asserted below), a third of the cost of copying
  // them one by one, on the ranker's path (each sizing and each finish copies a state).
  void CopyStateFrom(const SizingState& o, bool with_constants = true) {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&o),
                offsetof(SizingState, resolved));
    if (with_constants) CopyConstantsFrom(o);
  }
  void CopyConstantsFrom(const SizingState& o) {
    for (int i = 0; i < o.resolved_sets; ++i) resolved[i] = o.resolved[i];
  }
};
static_assert(std::is_trivially_copyable_v<SizingState> && std::is_standard_layout_v<SizingState>,
              "SizingState::CopyStateFrom copies its fields as bytes");

}  // namespace fitrank::internal

#endif  // FITRANK_ENGINE_ESTIMATOR_INTERNAL_SIZING_STATE_H_
