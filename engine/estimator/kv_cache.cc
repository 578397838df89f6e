// KV cache size from the model's real attention layout.
//
// Per layer and token, full attention caches K and V: 2 x kv_heads x head_dim elements.
// Sliding-window layers keep only the last `sliding_window` tokens. MLA (DeepSeek V2/V3, Kimi
// K2) caches one compressed latent of kv_lora_rank + qk_rope_head_dim elements per layer (no
// separate V). Hybrid models cache only in their attention layers (kv_layers < layers); their
// linear-attention state is fixed-size and small, and is left out.
#include <algorithm>

#include "engine/estimator/estimator.h"
#include "engine/estimator/internal/context.h"

namespace fitrank {

double KvBytesPerElement(KvCacheType t) {
  switch (t) {
    case KvCacheType::kF16: return 2.0;
    case KvCacheType::kQ8_0: return 34.0 / 32.0;  // 32 int8 + one f16 scale per block
    case KvCacheType::kQ4_0: return 18.0 / 32.0;  // 32 nibbles + one f16 scale per block
    case KvCacheType::kFp8: return 1.0;  // serving engines: one FP8 byte, per-tensor scales
  }
  return 2.0;
}

bool ParseKvCacheType(absl::string_view text, KvCacheType* out) {
  if (text == "f16" || text == "fp16" || text == "F16") *out = KvCacheType::kF16;
  else if (text == "q8_0" || text == "Q8_0" || text == "q8") *out = KvCacheType::kQ8_0;
  else if (text == "q4_0" || text == "Q4_0" || text == "q4") *out = KvCacheType::kQ4_0;
  else if (text == "fp8" || text == "FP8" || text == "fp8_e4m3" || text == "fp8_e5m2") *out = KvCacheType::kFp8;
  else return false;
  return true;
}

namespace internal {

KvShape KvShapeOf(const Model& m, double elem) {
  KvShape k;
  const Attention& a = m.attention;
  const int layers = a.kv_layers > 0 ? a.kv_layers : m.layers;
  if (layers <= 0 || a.kind == AttentionKind::kNone) return k;
  k.none = false;
  if (a.kind == AttentionKind::kMla && a.kv_lora_rank > 0) {
    k.mla = true;
    k.mla_bytes_per_token = layers * double(a.kv_lora_rank + a.qk_rope_head_dim) * elem;
    return k;
  }
  const int heads = m.attention_heads > 0 ? m.attention_heads : 1;
  const int kv_heads = m.kv_heads > 0 ? m.kv_heads : heads;
  const int head_dim = m.head_dim > 0 ? m.head_dim : (m.hidden_size > 0 ? m.hidden_size / heads : 0);
  k.per_layer_token = 2.0 * kv_heads * head_dim * elem;
  int sliding = 0;
  if (a.sliding_window > 0 && a.sliding_window_layers > 0) {
    sliding = std::min(a.sliding_window_layers, layers);
  }
  k.global = layers - sliding;
  k.sliding = sliding;
  k.window = a.sliding_window;
  return k;
}

double KvBytes(const Model& m, double tokens, double elem) {
  return KvShapeOf(m, elem).Bytes(tokens);
}

}  // namespace internal

double Estimator::KvBytesPerToken(const Model& model, int context, KvCacheType type) const {
  if (context <= 0) return 0;
  return internal::KvBytes(model, context, KvBytesPerElement(type)) / context;
}

}  // namespace fitrank
