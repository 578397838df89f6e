#include "catalog/hf_config.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace fitrank {
namespace {

using nlohmann::json;

// The largest value an integer field may hold: the Model's fields are ints.
constexpr long long kMaxField = std::numeric_limits<int>::max();

// "file:line:col" of the first `"key"` in `text` (nlohmann keeps no positions), else "file".
std::string Where(absl::string_view text, absl::string_view file, absl::string_view key) {
  const size_t at = text.find(absl::StrCat("\"", key, "\""));
  if (at == absl::string_view::npos) return std::string(file);
  int line = 1, col = 1;
  for (size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return absl::StrCat(file, ":", line, ":", col);
}

// "file:line:col" of byte `offset` (1-based, as nlohmann counts) of `text`.
std::string WhereByte(absl::string_view text, absl::string_view file, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i + 1 < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return absl::StrCat(file, ":", line, ":", col);
}

// Typed, range-checked reads of one JSON object's fields. The first problem is kept as the
// status (its message names the field and where it is); reads after it return defaults.
class Fields {
 public:
  Fields(const json& j, absl::string_view text, absl::string_view file)
      : j_(j), text_(text), file_(file) {}

  // Integer field in [0, kMaxField], or nullopt if absent/null. A whole float (4096.0) is
  // taken; a fraction, a string, a bool, a negative or a too large number is an error.
  std::optional<long long> Int(const char* key) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null() || !status_.ok()) return std::nullopt;
    if (it->is_number_unsigned()) {
      const auto v = it->get<unsigned long long>();
      if (v > static_cast<unsigned long long>(kMaxField)) return Fail(key, TooLarge(it->dump()));
      return static_cast<long long>(v);
    }
    if (it->is_number_integer()) {
      const auto v = it->get<long long>();
      if (v < 0) return Fail(key, absl::StrCat("is ", v, "; it must not be negative"));
      if (v > kMaxField) return Fail(key, TooLarge(it->dump()));
      return v;
    }
    if (it->is_number_float()) {
      const double v = it->get<double>();
      if (!(v >= 0)) return Fail(key, absl::StrCat("is ", it->dump(), "; it must not be negative"));
      if (v > kMaxField) return Fail(key, TooLarge(it->dump()));
      if (v != std::floor(v)) return Fail(key, absl::StrCat("is ", it->dump(), "; it must be a whole number"));
      return static_cast<long long>(v);
    }
    return Fail(key, absl::StrCat("is ", TypeName(*it), "; it must be a whole number"));
  }

  long long IntOr(const char* key, long long def) {
    auto v = Int(key);
    return v ? *v : def;
  }

  // Boolean field, or `def` if absent/null; anything but true/false is an error.
  std::optional<bool> Bool(const char* key) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null() || !status_.ok()) return std::nullopt;
    if (!it->is_boolean()) {
      Fail(key, absl::StrCat("is ", TypeName(*it), "; it must be true or false"));
      return std::nullopt;
    }
    return it->get<bool>();
  }

  // String field, or `def` if absent/null/not a string (names are informational).
  std::string StringOr(const char* key, std::string def) const {
    auto it = j_.find(key);
    if (it == j_.end() || !it->is_string()) return def;
    return it->get<std::string>();
  }

  // Records an error about `key` unless one is already recorded.
  std::nullopt_t Fail(const char* key, absl::string_view what) {
    if (status_.ok()) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat(Where(text_, file_, key), ": field `", key, "` ", what));
    }
    return std::nullopt;
  }

  const absl::Status& status() const { return status_; }

 private:
  static std::string TooLarge(const std::string& v) {
    return absl::StrCat("is ", v.size() > 40 ? v.substr(0, 40) + "..." : v,
                        "; it must be at most ", kMaxField);
  }
  static std::string TypeName(const json& v) {
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    return "not a number";
  }

  const json& j_;
  absl::string_view text_, file_;
  absl::Status status_;
};

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
    // e.what() reads "[json.exception.parse_error.101] parse error at line 1, column 5: ...":
    // keep what follows the position, which the location already says.
    std::string what = e.what();
    if (size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    return absl::InvalidArgumentError(absl::StrCat(
        WhereByte(json_text, display_name, e.byte), ": not valid JSON: ", what));
  } catch (const json::exception& e) {
    // A number beyond a double ("1e309") is out_of_range.406, without a position: find the
    // literal the message quotes.
    std::string what = e.what();
    if (size_t b = what.find("] "); b != std::string::npos) what = what.substr(b + 2);
    std::string where(display_name);
    if (size_t q = what.find('\''); q != std::string::npos) {
      const size_t q2 = what.find('\'', q + 1);
      if (q2 != std::string::npos) {
        const size_t at = json_text.find(what.substr(q + 1, q2 - q - 1));
        if (at != absl::string_view::npos) where = WhereByte(json_text, display_name, at + 1);
      }
    }
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": not valid JSON: ", what, " (numbers must fit a double)"));
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
  Fields f(c, json_text, display_name), top(root, json_text, display_name);
  auto need = [&](const char* key) -> absl::StatusOr<long long> {
    auto v = f.Int(key);
    if (!f.status().ok()) return f.status();
    if (!v) return absl::InvalidArgumentError(absl::StrCat(display_name, ": missing field `", key, "`"));
    if (*v <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(Where(json_text, display_name, key),
                                                     ": field `", key, "` must be positive (got ",
                                                     *v, ")"));
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
  const long long kvh = f.IntOr("num_key_value_heads", nh);
  const long long hd = f.IntOr("head_dim", H / nh);
  long long experts = f.IntOr("num_experts", 0);
  if (experts == 0) experts = f.IntOr("num_local_experts", 0);
  if (experts == 0) experts = f.IntOr("n_routed_experts", 0);
  const long long k = f.IntOr("num_experts_per_tok", experts > 0 ? 1 : 0);
  const long long moe_i = f.IntOr("moe_intermediate_size", 0);
  auto inter_opt = f.Int("intermediate_size");
  if (!f.status().ok()) return f.status();
  if (kvh == 0) f.Fail("num_key_value_heads", "is 0; it must be at least 1");
  if (hd == 0) f.Fail("head_dim", "is 0; it must be at least 1");
  if (experts > 0 && k > experts) {
    f.Fail("num_experts_per_tok", absl::StrCat("is ", k, ", more than the ", experts, " experts"));
  }
  if (!f.status().ok()) return f.status();
  if (!inter_opt && !(experts > 0 && moe_i > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": missing field `intermediate_size`"));
  }
  const long long I = inter_opt ? *inter_opt : moe_i;
  std::optional<bool> tied_opt = f.Bool("tie_word_embeddings");
  if (!tied_opt) tied_opt = top.Bool("tie_word_embeddings");
  const bool tied = tied_opt.value_or(false);
  if (!top.status().ok()) return top.status();

  // Attention layout.
  const long long kv_lora = f.IntOr("kv_lora_rank", 0);
  const long long rope = f.IntOr("qk_rope_head_dim", 0);
  long long sliding = 0, kv_layers = L;
  const long long window = f.IntOr("sliding_window", 0);
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
    const long long pattern = f.IntOr("sliding_window_pattern", 0);
    sliding = pattern > 1 ? L - L / pattern : L;
  }

  // Parameters.
  double attn;
  if (kv_lora > 0) {
    const double nope = f.IntOr("qk_nope_head_dim", 128), vhd = f.IntOr("v_head_dim", 128);
    const double q_lora = f.IntOr("q_lora_rank", 0);
    const double qk = nope + rope;
    const double q = q_lora > 0 ? H * q_lora + q_lora * nh * qk : double(H) * nh * qk;
    attn = q + double(H) * (kv_lora + rope) + kv_lora * nh * (nope + vhd) + nh * vhd * H;
  } else {
    attn = double(H) * nh * hd * 2 + double(H) * kvh * hd * 2;
  }
  const double dense_mlp = 3.0 * H * I;
  double total_layers = 0, active_layers = 0;
  if (experts > 0) {
    const long long first_dense = f.IntOr("first_k_dense_replace", 0);
    const double ei = moe_i > 0 ? moe_i : I;
    double shared = 0;
    if (auto n = f.Int("n_shared_experts"); n && *n > 0) shared = *n * 3.0 * H * ei;
    if (auto si = f.Int("shared_expert_intermediate_size"); si && *si > 0) shared = 3.0 * H * *si;
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

  if (!f.status().ok()) return f.status();
  if (!top.status().ok()) return top.status();

  Model m;
  std::string name;
  if (root.contains("_name_or_path") && root["_name_or_path"].is_string()) {
    name = root["_name_or_path"].get<std::string>();
  }
  if (name.empty()) name = Stem(display_name);
  m.id = absl::StrCat("hf:", name);
  m.name = name;
  m.family = top.StringOr("model_type", "hf");
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
  m.max_context = static_cast<int>(f.IntOr("max_position_embeddings", top.IntOr("max_position_embeddings", 4096)));
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
