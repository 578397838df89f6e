#include "catalog/hf_config.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace fitrank {
namespace {

using nlohmann::json;

// Integer field, or nullopt if absent/null/not a number.
std::optional<long long> Int(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (it->is_number_integer() || it->is_number_unsigned()) return it->get<long long>();
  if (it->is_number_float()) return static_cast<long long>(std::llround(it->get<double>()));
  return std::nullopt;
}

long long IntOr(const json& j, const char* key, long long def) {
  auto v = Int(j, key);
  return v ? *v : def;
}

std::string Stem(absl::string_view path) {
  std::string s(path);
  size_t slash = s.find_last_of('/');
  if (slash != std::string::npos) s = s.substr(slash + 1);
  size_t dot = s.rfind('.');
  if (dot != std::string::npos && dot > 0) s = s.substr(0, dot);
  return s;
}

}  // namespace

absl::StatusOr<Model> ModelFromHfConfig(absl::string_view json_text,
                                        absl::string_view display_name) {
  json root;
  try {
    root = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": not valid JSON: ", e.what()));
  }
  if (!root.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(display_name, ": expected a JSON object"));
  }
  // Multimodal configs keep the language model under text_config.
  const json* cfg = &root;
  if (!root.contains("num_hidden_layers") && root.contains("text_config") &&
      root["text_config"].is_object()) {
    cfg = &root["text_config"];
  }
  const json& c = *cfg;
  auto need = [&](const char* key) -> absl::StatusOr<long long> {
    auto v = Int(c, key);
    if (!v) return absl::InvalidArgumentError(absl::StrCat(display_name, ": missing field `", key, "`"));
    if (*v <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(display_name, ": field `", key, "` must be positive (got ", *v, ")"));
    }
    return *v;
  };
  absl::StatusOr<long long> layers = need("num_hidden_layers");
  if (!layers.ok()) return layers.status();
  absl::StatusOr<long long> hidden = need("hidden_size");
  if (!hidden.ok()) return hidden.status();
  absl::StatusOr<long long> heads = need("num_attention_heads");
  if (!heads.ok()) return heads.status();
  absl::StatusOr<long long> vocab = need("vocab_size");
  if (!vocab.ok()) return vocab.status();

  const long long L = *layers, H = *hidden, nh = *heads, V = *vocab;
  const long long kvh = IntOr(c, "num_key_value_heads", nh);
  const long long hd = IntOr(c, "head_dim", H / nh);
  long long experts = IntOr(c, "num_experts", 0);
  if (experts == 0) experts = IntOr(c, "num_local_experts", 0);
  if (experts == 0) experts = IntOr(c, "n_routed_experts", 0);
  const long long k = IntOr(c, "num_experts_per_tok", experts > 0 ? 1 : 0);
  const long long moe_i = IntOr(c, "moe_intermediate_size", 0);
  auto inter_opt = Int(c, "intermediate_size");
  if (!inter_opt && !(experts > 0 && moe_i > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": missing field `intermediate_size`"));
  }
  const long long I = inter_opt ? *inter_opt : moe_i;
  const bool tied = c.value("tie_word_embeddings", root.value("tie_word_embeddings", false));

  // Attention layout.
  const long long kv_lora = IntOr(c, "kv_lora_rank", 0);
  const long long rope = IntOr(c, "qk_rope_head_dim", 0);
  long long sliding = 0, kv_layers = L;
  const long long window = IntOr(c, "sliding_window", 0);
  bool use_sliding = window > 0;
  if (c.contains("use_sliding_window") && c["use_sliding_window"].is_boolean()) {
    use_sliding = use_sliding && c["use_sliding_window"].get<bool>();
  }
  if (c.contains("layer_types") && c["layer_types"].is_array()) {
    long long full = 0, slid = 0;
    for (const json& t : c["layer_types"]) {
      if (!t.is_string()) continue;
      const std::string s = t.get<std::string>();
      if (s == "full_attention" || s == "attention" || s == "global_attention") ++full;
      else if (absl::StrContains(s, "sliding")) ++slid;
    }
    kv_layers = full + slid;
    sliding = use_sliding ? slid : 0;
    if (!use_sliding) kv_layers = full + slid;
  } else if (use_sliding) {
    const long long pattern = IntOr(c, "sliding_window_pattern", 0);
    sliding = pattern > 1 ? L - L / pattern : L;
  }

  // Parameters.
  double attn;
  if (kv_lora > 0) {
    const double nope = IntOr(c, "qk_nope_head_dim", 128), vhd = IntOr(c, "v_head_dim", 128);
    const double q_lora = IntOr(c, "q_lora_rank", 0);
    const double qk = nope + rope;
    const double q = q_lora > 0 ? H * q_lora + q_lora * nh * qk : double(H) * nh * qk;
    attn = q + double(H) * (kv_lora + rope) + kv_lora * nh * (nope + vhd) + nh * vhd * H;
  } else {
    attn = double(H) * nh * hd * 2 + double(H) * kvh * hd * 2;
  }
  const double dense_mlp = 3.0 * H * I;
  double total_layers = 0, active_layers = 0;
  if (experts > 0) {
    const long long first_dense = IntOr(c, "first_k_dense_replace", 0);
    const double ei = moe_i > 0 ? moe_i : I;
    double shared = 0;
    if (auto n = Int(c, "n_shared_experts"); n && *n > 0) shared = *n * 3.0 * H * ei;
    if (auto si = Int(c, "shared_expert_intermediate_size"); si && *si > 0) shared = 3.0 * H * *si;
    const double router = double(H) * experts;
    const long long moe_layers = std::max<long long>(L - first_dense, 0);
    total_layers = L * attn + first_dense * dense_mlp +
                   moe_layers * (experts * 3.0 * H * ei + shared + router);
    active_layers = L * attn + first_dense * dense_mlp + moe_layers * (k * 3.0 * H * ei + shared + router);
  } else {
    total_layers = L * (attn + dense_mlp);
    active_layers = total_layers;
  }
  const double embed = double(V) * H;
  const double head = tied ? 0 : embed;

  Model m;
  std::string name;
  if (root.contains("_name_or_path") && root["_name_or_path"].is_string()) {
    name = root["_name_or_path"].get<std::string>();
  }
  if (name.empty()) name = Stem(display_name);
  m.id = absl::StrCat("hf:", name);
  m.name = name;
  m.family = root.value("model_type", std::string("hf"));
  m.params_b = (total_layers + embed + head) / 1e9;
  m.active_params_b = (active_layers + embed + head) / 1e9;
  m.experts = static_cast<int>(experts);
  m.experts_per_token = static_cast<int>(k);
  m.layers = static_cast<int>(L);
  m.hidden_size = static_cast<int>(H);
  m.attention_heads = static_cast<int>(nh);
  m.kv_heads = static_cast<int>(kvh);
  m.head_dim = static_cast<int>(hd);
  m.vocab_size = static_cast<int>(V);
  m.tied_embeddings = tied;
  m.max_context = static_cast<int>(IntOr(c, "max_position_embeddings", IntOr(root, "max_position_embeddings", 4096)));
  Attention& a = m.attention;
  a.kv_layers = static_cast<int>(kv_layers);
  a.sliding_window = sliding > 0 ? static_cast<int>(window) : 0;
  a.sliding_window_layers = static_cast<int>(sliding);
  if (kv_lora > 0) {
    a.kind = AttentionKind::kMla;
    a.kv_lora_rank = static_cast<int>(kv_lora);
    a.qk_rope_head_dim = static_cast<int>(rope);
  } else if (sliding > 0) {
    a.kind = AttentionKind::kSlidingMix;
  } else if (kv_layers < L) {
    a.kind = AttentionKind::kHybrid;
  }
  m.modality = "text";
  m.notes = absl::StrCat("from ", display_name);
  return m;
}

}  // namespace fitrank
