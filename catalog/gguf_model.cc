// ModelFromGguf: the Model a GGUF header describes (the declarations are in gguf.h).
#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "catalog/gguf.h"

namespace fitrank {
namespace {

// llama.cpp's enum llama_ftype (include/llama.h), the recipe a file was quantized with.
struct FileType {
  uint32_t id;
  absl::string_view name;
};
constexpr FileType kFileTypes[] = {
    {0, "F32"},      {1, "F16"},      {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},
    {8, "Q5_0"},     {9, "Q5_1"},     {10, "Q2_K"},      {11, "Q3_K_S"}, {12, "Q3_K_M"},
    {13, "Q3_K_L"},  {14, "Q4_K_S"},  {15, "Q4_K_M"},    {16, "Q5_K_S"}, {17, "Q5_K_M"},
    {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"},    {21, "Q2_K_S"}, {22, "IQ3_XS"},
    {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"},    {26, "IQ3_S"},  {27, "IQ3_M"},
    {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"},    {31, "IQ1_M"},  {32, "BF16"},
    {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4_MOE"},
};

// Architectures whose sliding-window layout llama.cpp hard-codes rather than stores
// (src/llama-model.cpp, load_hparams): every Nth layer is global, the others slide.
struct SlidingPattern {
  absl::string_view arch;
  int every;
};
constexpr SlidingPattern kSlidingPatterns[] = {
    {"gemma2", 2}, {"gemma3", 6}, {"gemma3n", 5}, {"cohere2", 4}, {"gpt-oss", 2},
};

std::string Stem(absl::string_view path) {
  size_t slash = path.find_last_of('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  if (absl::EndsWithIgnoreCase(path, ".gguf")) path.remove_suffix(5);
  return std::string(path);
}

}  // namespace

absl::string_view GgufFileTypeName(uint32_t file_type) {
  for (const FileType& f : kFileTypes) {
    if (f.id == file_type) return f.name;
  }
  return "";
}

absl::StatusOr<GgufModel> ModelFromGguf(const GgufHeader& h, absl::string_view display_name) {
  GgufModel out;
  out.architecture = h.Text("general.architecture");
  if (out.architecture.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": missing metadata `general.architecture`"));
  }
  const std::string a = out.architecture + ".";
  // Counts must be whole numbers in [0, 1e9]; a file with NaN, a negative or a huge float in one
  // is refused by the key's name (the casts to int below are defined only for such numbers).
  std::string invalid_key;  // the first refused
  auto is_count = [](double v) { return v >= 0 && v <= 1e9 && v == std::floor(v); };
  auto invalid = [&](absl::string_view key) {
    if (invalid_key.empty()) invalid_key = absl::StrCat(a, key);
    return 0;
  };
  auto count = [&](absl::string_view key, double def) -> int {
    const double v = h.Number(absl::StrCat(a, key), def);
    return is_count(v) ? static_cast<int>(v) : invalid(key);
  };
  // A scalar count, or the largest of a per-layer array (`kv_layers`, if asked: how many are > 0).
  auto largest = [&](absl::string_view key, double def, int* kv_layers = nullptr) -> int {
    const GgufValue* v = h.Find(absl::StrCat(a, key));
    if (v == nullptr || v->kind != GgufValue::Kind::kArray || v->numbers.empty()) {
      return count(key, def);
    }
    if (!std::all_of(v->numbers.begin(), v->numbers.end(), is_count)) return invalid(key);
    if (kv_layers != nullptr) {
      *kv_layers = static_cast<int>(
          std::count_if(v->numbers.begin(), v->numbers.end(), [](double x) { return x > 0; }));
    }
    return static_cast<int>(*std::max_element(v->numbers.begin(), v->numbers.end()));
  };
  auto refuse = [&](const std::string& k) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": missing or invalid metadata `", k, "`"));
  };

  Model& m = out.model;
  // The shape: layers, width and heads (head_count is per layer in a few architectures).
  m.layers = count("block_count", 0);
  m.hidden_size = count("embedding_length", 0);
  m.attention_heads = largest("attention.head_count", 0);
  if (m.layers <= 0) return refuse(a + "block_count");
  if (m.hidden_size <= 0) return refuse(a + "embedding_length");
  if (m.attention_heads <= 0) return refuse(a + "attention.head_count");
  m.attention.kv_layers = m.layers;
  // Per layer, layers without KV heads (recurrent or linear-attention layers) keep no cache.
  m.kv_heads = largest("attention.head_count_kv", m.attention_heads, &m.attention.kv_layers);
  if (m.kv_heads == 0) m.kv_heads = m.attention_heads;
  if (m.attention.kv_layers < m.layers) m.attention.kind = AttentionKind::kHybrid;
  m.head_dim = count("attention.key_length", m.hidden_size / m.attention_heads);
  m.max_context = count("context_length", 0);
  m.experts = count("expert_count", 0);
  m.experts_per_token = m.experts > 0 ? count("expert_used_count", 1) : 0;

  const int window = count("attention.sliding_window", 0);
  if (window > 0) {
    int sliding = m.attention.kv_layers;
    if (const GgufValue* p = h.Find(a + "attention.sliding_window_pattern"); p != nullptr) {
      if (p->kind == GgufValue::Kind::kArray && !p->numbers.empty()) {
        sliding = static_cast<int>(
            std::count_if(p->numbers.begin(), p->numbers.end(), [](double x) { return x != 0; }));
      } else if (const int every = count("attention.sliding_window_pattern", 0); every > 1) {
        sliding = m.layers - m.layers / every;
      }
    } else {
      for (const SlidingPattern& sp : kSlidingPatterns) {
        if (sp.arch == out.architecture) sliding = m.layers - m.layers / sp.every;
      }
    }
    m.attention.kind = AttentionKind::kSlidingMix;
    m.attention.sliding_window = window;
    m.attention.sliding_window_layers = std::min(sliding, m.attention.kv_layers);
  }
  if (const int rank = count("attention.kv_lora_rank", 0); rank > 0) {
    m.attention.kind = AttentionKind::kMla;
    m.attention.kv_lora_rank = rank;
    m.attention.qk_rope_head_dim = count("rope.dimension_count", 64);
  }
  if (!invalid_key.empty()) return refuse(invalid_key);

  // Vocabulary, tied head, parameters.
  const GgufTensor* embed = nullptr;
  bool has_output = false;
  double expert_elements = 0;
  for (const GgufTensor& t : h.tensors) {
    if (t.name == "token_embd.weight") embed = &t;
    if (t.name == "output.weight") has_output = true;
    if (absl::StrContains(t.name, "_exps")) expert_elements += static_cast<double>(t.elements);
  }
  if (const GgufValue* tokens = h.Find("tokenizer.ggml.tokens");
      tokens != nullptr && tokens->kind == GgufValue::Kind::kArray) {
    m.vocab_size = static_cast<int>(std::min<uint64_t>(tokens->length, 1u << 30));
  } else if (double v = h.Number(a + "vocab_size", 0); is_count(v) && v > 0) {
    m.vocab_size = static_cast<int>(v);
  } else if (embed != nullptr && embed->dims.size() == 2) {
    m.vocab_size = static_cast<int>(std::min<uint64_t>(embed->dims[1], 1u << 30));
  }
  m.tied_embeddings = !has_output;
  m.params_b = static_cast<double>(h.parameters) / 1e9;
  m.active_params_b = m.params_b;
  if (m.experts > 0 && m.experts_per_token > 0 && expert_elements > 0) {
    const double inactive =
        expert_elements * (1.0 - std::min(1.0, double(m.experts_per_token) / m.experts));
    m.active_params_b = (static_cast<double>(h.parameters) - inactive) / 1e9;
  }

  // Names.
  std::string name = h.Text("general.name");
  if (name.empty()) name = Stem(display_name);
  m.name = name;
  m.id = absl::StrCat("gguf:", name);
  m.family = out.architecture;
  m.org = h.Text("general.organization");
  m.kind = "instruct";
  m.modality = "text";
  m.license = h.Text("general.license");
  m.source = {"gguf", absl::StrCat("GGUF header of ", display_name)};
  m.quality.estimated = true;
  m.quality.source = "no leaderboard score: a local GGUF file";
  const double ft = h.Number("general.file_type", -1);
  if (is_count(ft)) out.file_type = std::string(GgufFileTypeName(static_cast<uint32_t>(ft)));
  out.weights_bytes = h.tensor_bytes;
  m.file_weights_bytes = static_cast<double>(h.tensor_bytes);
  m.file_quant = out.file_type;
  return out;
}

}  // namespace fitrank
