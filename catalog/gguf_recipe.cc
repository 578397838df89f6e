// llama-quantize's per-tensor type choice (llama.cpp src/llama-quant.cpp, llama_tensor_get_type
// and llama_model_quantize_impl's default types), applied to the tensors a catalog model's
// architecture implies. See gguf_recipe.h for what is modelled and what is assumed.
#include "catalog/gguf_recipe.h"

#include <algorithm>
#include <cstdint>

#include "catalog/ggml_types.h"

namespace fitrank {
namespace {

// ggml type ids (ggml.h enum ggml_type; catalog/ggml_types.h has their block layouts).
enum T : uint32_t {
  kF32 = 0, kF16 = 1, kQ4_0 = 2, kQ4_1 = 3, kQ5_0 = 6, kQ5_1 = 7, kQ8_0 = 8, kQ2_K = 10,
  kQ3_K = 11, kQ4_K = 12, kQ5_K = 13, kQ6_K = 14, kIQ2_XXS = 16, kIQ2_XS = 17, kIQ3_XXS = 18,
  kIQ1_S = 19, kIQ4_NL = 20, kIQ3_S = 21, kIQ2_S = 22, kIQ4_XS = 23, kIQ1_M = 29, kBF16 = 30,
  kTQ1_0 = 34, kTQ2_0 = 35, kMXFP4 = 39,
};

// llama_ftype values this recipe knows (names as llama-quantize takes them).
enum class Ft {
  kQ4_0, kQ4_1, kQ5_0, kQ5_1, kQ8_0, kQ2_K, kQ2_K_S, kQ3_K_S, kQ3_K_M, kQ3_K_L, kQ4_K_S,
  kQ4_K_M, kQ5_K_S, kQ5_K_M, kQ6_K, kIQ2_XXS, kIQ2_XS, kIQ2_S, kIQ2_M, kIQ3_XXS, kIQ3_XS,
  kIQ3_S, kIQ3_M, kIQ1_S, kIQ1_M, kIQ4_NL, kIQ4_XS, kTQ1_0, kTQ2_0, kMXFP4_MOE, kF16, kBF16,
  kF32,
};

struct FtInfo {
  std::string_view name;
  Ft ft;
  uint32_t default_type;  // llama_model_quantize_impl: the type of tensors no rule touches
};

constexpr FtInfo kFileTypes[] = {
    {"Q4_0", Ft::kQ4_0, kQ4_0},          {"Q4_1", Ft::kQ4_1, kQ4_1},
    {"Q5_0", Ft::kQ5_0, kQ5_0},          {"Q5_1", Ft::kQ5_1, kQ5_1},
    {"Q8_0", Ft::kQ8_0, kQ8_0},          {"Q2_K", Ft::kQ2_K, kQ2_K},
    {"Q2_K_S", Ft::kQ2_K_S, kQ2_K},      {"Q3_K_S", Ft::kQ3_K_S, kQ3_K},
    {"Q3_K_M", Ft::kQ3_K_M, kQ3_K},      {"Q3_K_L", Ft::kQ3_K_L, kQ3_K},
    {"Q4_K_S", Ft::kQ4_K_S, kQ4_K},      {"Q4_K_M", Ft::kQ4_K_M, kQ4_K},
    {"Q5_K_S", Ft::kQ5_K_S, kQ5_K},      {"Q5_K_M", Ft::kQ5_K_M, kQ5_K},
    {"Q6_K", Ft::kQ6_K, kQ6_K},          {"IQ2_XXS", Ft::kIQ2_XXS, kIQ2_XXS},
    {"IQ2_XS", Ft::kIQ2_XS, kIQ2_XS},    {"IQ2_S", Ft::kIQ2_S, kIQ2_XS},
    {"IQ2_M", Ft::kIQ2_M, kIQ2_S},       {"IQ3_XXS", Ft::kIQ3_XXS, kIQ3_XXS},
    {"IQ3_XS", Ft::kIQ3_XS, kIQ3_S},     {"IQ3_S", Ft::kIQ3_S, kIQ3_S},
    {"IQ3_M", Ft::kIQ3_M, kIQ3_S},       {"IQ1_S", Ft::kIQ1_S, kIQ1_S},
    {"IQ1_M", Ft::kIQ1_M, kIQ1_M},       {"IQ4_NL", Ft::kIQ4_NL, kIQ4_NL},
    {"IQ4_XS", Ft::kIQ4_XS, kIQ4_XS},    {"TQ1_0", Ft::kTQ1_0, kTQ1_0},
    {"TQ2_0", Ft::kTQ2_0, kTQ2_0},       {"MXFP4_MOE", Ft::kMXFP4_MOE, kMXFP4},
    {"MXFP4", Ft::kMXFP4_MOE, kMXFP4},   {"F16", Ft::kF16, kF16},
    {"BF16", Ft::kBF16, kBF16},          {"F32", Ft::kF32, kF32},
};

const FtInfo* FindFileType(std::string_view name) {
  for (const FtInfo& f : kFileTypes) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

double BytesOf(uint32_t type, double elements) {
  const GgmlType* t = GgmlTypeById(type);
  return t == nullptr ? elements * 2 : elements / t->block_weights * t->block_bytes;
}

uint32_t BlockOf(uint32_t type) {
  const GgmlType* t = GgmlTypeById(type);
  return t == nullptr ? 1 : t->block_weights;
}

// A type whose block does not divide the row length (ne[0]) is replaced as llama-quantize does
// ("convert_incompatible_tensor"), and by F16 if that does not divide it either.
uint32_t Fit(uint32_t type, int64_t row) {
  if (row <= 0 || row % BlockOf(type) == 0) return type;
  uint32_t t = kF16;
  switch (type) {
    case kTQ1_0: case kTQ2_0: t = kQ4_0; break;
    case kIQ2_XXS: case kIQ2_XS: case kIQ2_S: case kIQ3_XXS: case kIQ3_S: case kIQ1_S:
    case kIQ1_M: case kQ2_K: case kQ3_K: case kIQ4_XS: t = kIQ4_NL; break;
    case kQ4_K: t = kQ5_0; break;
    case kQ5_K: t = kQ5_1; break;
    case kQ6_K: t = kQ8_0; break;
    default: t = kF16; break;
  }
  return row % BlockOf(t) == 0 ? t : kF16;
}

bool IsFloat(Ft f) { return f == Ft::kF16 || f == Ft::kBF16 || f == Ft::kF32; }

bool LowBitMix(Ft f) {  // the IQ1/IQ2 branch of llama_tensor_get_type
  return f == Ft::kIQ2_XXS || f == Ft::kIQ2_XS || f == Ft::kIQ1_S || f == Ft::kIQ2_S ||
         f == Ft::kIQ2_M || f == Ft::kIQ1_M;
}

// use_more_bits(i, n): the first and last eighth of the layers and every third in between.
bool MoreBits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

enum class Role { kQ, kK, kV, kO, kGate, kUp, kDown };

struct Arch {
  int n_layer = 0;
  int gqa = 1;       // heads / kv heads
  int n_expert = 0;  // hparams.n_expert
};

// The type of one tensor of `role` in layer `i` (llama_tensor_get_type, the branches that apply
// to transformer tensors; an imatrix is assumed for i-quants and none for K/legacy quants).
uint32_t LayerType(Ft f, uint32_t def, Role role, int i, const Arch& a) {
  const int n = a.n_layer;
  const bool iq2ms = f == Ft::kIQ2_S || f == Ft::kIQ2_M;
  if (LowBitMix(f)) {
    switch (role) {
      case Role::kV:
        if (a.gqa >= 4 || a.n_expert >= 4) return kQ4_K;
        return iq2ms ? kIQ3_S : kQ2_K;
      case Role::kK: return a.n_expert == 8 ? kQ4_K : def;
      case Role::kDown:
        if (i < n / 8) return iq2ms ? kIQ3_S : kQ2_K;
        return def;
      case Role::kO:
        if (a.n_expert == 8) return kQ5_K;
        if (f == Ft::kIQ1_S || f == Ft::kIQ1_M) return kIQ2_XXS;
        return iq2ms ? kIQ3_S : def;
      default: return def;
    }
  }
  uint32_t t = def;
  switch (role) {
    case Role::kV:
      if (f == Ft::kQ2_K) t = a.gqa >= 4 ? kQ4_K : kQ3_K;
      else if (f == Ft::kQ2_K_S && a.gqa >= 4) t = kQ4_K;
      else if (f == Ft::kIQ3_XXS) t = a.gqa >= 4 ? kQ4_K : kIQ3_XXS;  // with an imatrix
      else if ((f == Ft::kIQ3_XS || f == Ft::kIQ3_S) && a.gqa >= 4) t = kQ4_K;
      else if (f == Ft::kIQ3_M) t = kQ4_K;
      else if (f == Ft::kQ3_K_M) t = i < 2 ? kQ5_K : kQ4_K;
      else if (f == Ft::kQ3_K_L) t = kQ5_K;
      else if ((f == Ft::kIQ4_NL || f == Ft::kIQ4_XS) && a.gqa >= 4) t = kQ5_K;
      else if ((f == Ft::kQ4_K_M || f == Ft::kQ5_K_M) && MoreBits(i, n)) t = kQ6_K;
      else if (f == Ft::kQ4_K_S && i < 4) t = kQ5_K;
      if (a.n_expert == 8) t = kQ8_0;
      return t;
    case Role::kK:
      if (a.n_expert == 8) return kQ8_0;
      return f == Ft::kIQ3_XS ? kIQ3_XXS : def;
    case Role::kQ:
      return f == Ft::kIQ3_XS ? kIQ3_XXS : def;
    case Role::kDown:
      if (f == Ft::kQ2_K) return kQ3_K;
      if (f == Ft::kQ2_K_S) return i < n / 8 ? kQ4_K : def;
      if (f == Ft::kQ3_K_M) return i < n / 16 ? kQ5_K : kQ4_K;
      if (f == Ft::kIQ3_M) {
        return (i < n / 8 || (a.n_expert == 8 && MoreBits(i, n))) ? kQ4_K : def;
      }
      if (f == Ft::kQ3_K_L) return kQ5_K;
      if (f == Ft::kQ4_K_M || f == Ft::kQ5_K_M) return MoreBits(i, n) ? kQ6_K : def;
      if (f == Ft::kQ4_K_S) return i < n / 8 ? kQ5_K : def;
      return def;
    case Role::kO:
      if (a.n_expert == 8) {
        const bool bump = f == Ft::kQ2_K || f == Ft::kIQ3_XS || f == Ft::kIQ3_XXS ||
                          f == Ft::kQ3_K_S || f == Ft::kQ3_K_M || f == Ft::kIQ4_NL ||
                          f == Ft::kQ4_K_S || f == Ft::kQ4_K_M || f == Ft::kIQ3_S ||
                          f == Ft::kIQ3_M || f == Ft::kIQ4_XS;
        return bump ? kQ5_K : def;
      }
      if (f == Ft::kQ2_K) return kQ3_K;
      if (f == Ft::kIQ3_XXS) return kIQ3_S;
      if (f == Ft::kQ3_K_M) return kQ4_K;
      if (f == Ft::kQ3_K_L) return kQ5_K;
      if (f == Ft::kIQ3_M) return kQ4_K;
      return def;
    case Role::kGate:
    case Role::kUp:
      if (f == Ft::kIQ3_XS && i >= n / 8 && i < 7 * n / 8) return kIQ3_XXS;
      return def;
  }
  return def;
}

// The layers grouped by every position test the rules make (i < 2, i < 4, i < n/16, i < n/8,
// i >= 7n/8, use_more_bits): layers of one group get the same types, so each rule is evaluated
// once per group (a handful) instead of once per layer.
struct LayerGroups {
  int count[64] = {};
  int first[64] = {};
  int used[64] = {};
  int n_used = 0;
};

LayerGroups GroupLayers(int n) {
  LayerGroups g;
  for (int i = 0; i < n; ++i) {
    const int sig = (i < 2) | (i < 4) << 1 | (i < n / 16) << 2 | (i < n / 8) << 3 |
                    (i >= 7 * n / 8) << 4 | MoreBits(i, n) << 5;
    if (g.count[sig]++ == 0) {
      g.first[sig] = i;
      g.used[g.n_used++] = sig;
    }
  }
  return g;
}

// Bytes of one tensor role (`elements` per layer, rows of `row` weights) over all layers.
double RoleBytes(Ft f, uint32_t def, Role role, const Arch& a, const LayerGroups& g,
                 double elements, int64_t row, bool expert_mxfp4) {
  if (elements <= 0) return 0;
  if (expert_mxfp4) return BytesOf(Fit(kMXFP4, row), elements) * a.n_layer;
  if (f == Ft::kMXFP4_MOE) return BytesOf(Fit(kQ8_0, row), elements) * a.n_layer;
  if (IsFloat(f)) return BytesOf(def, elements) * a.n_layer;
  double bytes = 0;
  for (int j = 0; j < g.n_used; ++j) {
    const int sig = g.used[j];
    const uint32_t t = LayerType(f, def, role, g.first[sig], a);
    bytes += BytesOf(Fit(t, row), elements) * g.count[sig];
  }
  return bytes;
}

}  // namespace

bool IsGgufFileType(std::string_view ftype) { return FindFileType(ftype) != nullptr; }

GgufSize EstimateGgufSize(const Model& m, std::string_view ftype) {
  GgufSize out;
  const FtInfo* info = FindFileType(ftype);
  const int n = m.layers;
  const int64_t h = m.hidden_size;
  if (info == nullptr || n <= 0 || h <= 0 || m.attention_heads <= 0 || m.vocab_size <= 0 ||
      !(m.params_b > 0)) {
    return out;
  }
  const Ft f = info->ft;
  const uint32_t def = info->default_type;
  const int heads = m.attention_heads;
  const int kv_heads = m.kv_heads > 0 ? m.kv_heads : heads;
  const int64_t head_dim = m.head_dim > 0 ? m.head_dim : h / heads;
  const int64_t q_out = heads * head_dim, kv_out = kv_heads * head_dim;
  const double params = m.params_b * 1e9;
  const double active = m.active_params_b > 0 ? std::min(m.active_params_b * 1e9, params) : params;
  const double embed = double(m.vocab_size) * h;
  const double head = m.tied_embeddings ? 0 : embed;

  // Attention projections per layer. MLA (kv_lora_rank) has no attn_v tensor of that name: its
  // compressed K/V projections take the file's type like attn_k.
  const bool mla = m.attention.kv_lora_rank > 0;
  const double e_q = double(h) * q_out;
  const double e_k = double(h) * kv_out * (mla ? 2 : 1);
  const double e_v = mla ? 0 : double(h) * kv_out;
  const double e_o = double(q_out) * h;
  const double attn = n * (e_q + e_k + e_v + e_o);
  const double norms = double(n) * 2 * h + h;  // attn_norm, ffn_norm per layer; output_norm

  Arch a;
  a.n_layer = n;
  a.gqa = std::max(1, heads / std::max(1, kv_heads));
  a.n_expert = m.experts > 1 ? m.experts : 0;
  const bool moe = m.experts > 1 && m.experts_per_token > 0 && active < params * 0.95;
  double routers = 0, experts = 0;
  const double rest = params - embed - head - attn - norms;
  if (moe) {
    const double e = m.experts, k = m.experts_per_token;
    routers = double(n) * h * e;
    // The catalog's rounded parameter counts can make the experts a hair more than what the
    // rest leaves: then there is no dense FFN (Qwen3 MoE has none), not a negative one.
    experts = std::min((params - active) * e / (e - k), rest - routers);
  }
  const double dense_ffn = rest - routers - experts;
  if (!(rest > 0.1 * params) || dense_ffn < 0 || experts < 0) return out;  // shapes disagree

  // Feed-forward rows: gate/up read `h`; down reads the FFN width, taken as a multiple of 256
  // (every catalog architecture's is), so only attention and embeddings can fall back.
  const double ffn_layer = dense_ffn / n / 3;  // each of gate, up, down per layer
  const double exp_layer = experts / n / 3;    // each of gate_exps, up_exps, down_exps
  const int64_t down_row = 256;
  const LayerGroups g = GroupLayers(n);
  double dense = 0, expert = 0;
  dense += RoleBytes(f, def, Role::kQ, a, g, e_q, h, false);
  dense += RoleBytes(f, def, Role::kK, a, g, e_k, h, false);
  dense += RoleBytes(f, def, Role::kV, a, g, e_v, h, false);
  dense += RoleBytes(f, def, Role::kO, a, g, e_o, q_out, false);
  dense += RoleBytes(f, def, Role::kGate, a, g, ffn_layer, h, false);
  dense += RoleBytes(f, def, Role::kUp, a, g, ffn_layer, h, false);
  dense += RoleBytes(f, def, Role::kDown, a, g, ffn_layer, down_row, false);
  const bool mxfp4 = f == Ft::kMXFP4_MOE;
  expert += RoleBytes(f, def, Role::kGate, a, g, exp_layer, h, mxfp4);
  expert += RoleBytes(f, def, Role::kUp, a, g, exp_layer, h, mxfp4);
  expert += RoleBytes(f, def, Role::kDown, a, g, exp_layer, down_row, mxfp4);
  dense += (norms + routers) * 4;  // F32

  // Output head (and a tied embedding, stored once at the output's type).
  uint32_t out_t = def;
  if (!IsFloat(f)) {
    if (f == Ft::kMXFP4_MOE || h % BlockOf(def) != 0) {
      out_t = kQ8_0;
    } else if (LowBitMix(f) || f == Ft::kIQ3_XXS) {
      out_t = kQ5_K;
    } else if (def != kQ8_0) {
      out_t = kQ6_K;
    }
  }
  out_t = Fit(out_t, h);
  uint32_t emb_t = out_t;
  if (!m.tied_embeddings) {
    emb_t = def;
    if (f == Ft::kMXFP4_MOE) emb_t = kQ8_0;
    else if (f == Ft::kIQ2_XXS || f == Ft::kIQ2_XS || f == Ft::kIQ1_S || f == Ft::kIQ1_M) emb_t = kQ2_K;
    else if (f == Ft::kIQ2_S || f == Ft::kIQ2_M || f == Ft::kIQ3_XXS) emb_t = kIQ3_S;
    else if (f == Ft::kTQ1_0 || f == Ft::kTQ2_0) emb_t = kQ4_K;
    emb_t = Fit(emb_t, h);
    out.output_bytes = BytesOf(out_t, embed);
  }
  out.token_embd_bytes = BytesOf(emb_t, embed);
  out.token_embd_type = emb_t;
  out.output_type = out_t;
  out.dense_bytes = dense;
  out.expert_bytes = expert;
  out.total_bytes = out.token_embd_bytes + out.output_bytes + dense + expert;
  out.ok = out.total_bytes > 0;
  return out;
}

}  // namespace fitrank
