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
  auto need = [&](absl::string_view key) -> absl::StatusOr<double> {
    const std::string k = absl::StrCat(a, key);
    const double v = h.Number(k, -1);
    if (!(v > 0) || v > 1e9) {
      return absl::InvalidArgumentError(
          absl::StrCat(display_name, ": missing or invalid metadata `", k, "`"));
    }
    return v;
  };
  absl::StatusOr<double> layers = need("block_count");
  if (!layers.ok()) return layers.status();
  absl::StatusOr<double> hidden = need("embedding_length");
  if (!hidden.ok()) return hidden.status();
  // head_count is a scalar, or a per-layer array in a few architectures.
  double heads = h.Number(a + "attention.head_count", 0);
  if (const GgufValue* v = h.Find(a + "attention.head_count");
      v != nullptr && v->kind == GgufValue::Kind::kArray && !v->numbers.empty()) {
    heads = *std::max_element(v->numbers.begin(), v->numbers.end());
  }
  if (!(heads > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(display_name, ": missing or invalid metadata `", a, "attention.head_count`"));
  }

  Model& m = out.model;
  m.layers = static_cast<int>(*layers);
  m.hidden_size = static_cast<int>(*hidden);
  m.attention_heads = static_cast<int>(heads);
  m.kv_heads = m.attention_heads;
  m.attention.kv_layers = m.layers;
  if (const GgufValue* v = h.Find(a + "attention.head_count_kv"); v != nullptr) {
    if (v->kind == GgufValue::Kind::kArray && !v->numbers.empty()) {
      // Per layer; layers without KV heads (recurrent or linear-attention layers) keep no cache.
      m.kv_heads = static_cast<int>(*std::max_element(v->numbers.begin(), v->numbers.end()));
      m.attention.kv_layers = static_cast<int>(
          std::count_if(v->numbers.begin(), v->numbers.end(), [](double x) { return x > 0; }));
      if (m.attention.kv_layers < m.layers) m.attention.kind = AttentionKind::kHybrid;
    } else if (v->number > 0) {
      m.kv_heads = static_cast<int>(v->number);
    }
  }
  m.head_dim =
      static_cast<int>(h.Number(a + "attention.key_length", m.hidden_size / m.attention_heads));
  m.max_context = static_cast<int>(std::min(h.Number(a + "context_length", 0), 1e9));
  m.experts = static_cast<int>(h.Number(a + "expert_count", 0));
  m.experts_per_token = m.experts > 0 ? static_cast<int>(h.Number(a + "expert_used_count", 1)) : 0;

  const int window = static_cast<int>(h.Number(a + "attention.sliding_window", 0));
  if (window > 0) {
    int sliding = m.attention.kv_layers;
    if (const GgufValue* p = h.Find(a + "attention.sliding_window_pattern"); p != nullptr) {
      if (p->kind == GgufValue::Kind::kArray && !p->numbers.empty()) {
        sliding = static_cast<int>(
            std::count_if(p->numbers.begin(), p->numbers.end(), [](double x) { return x != 0; }));
      } else if (p->number > 1) {
        sliding = m.layers - m.layers / static_cast<int>(p->number);
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
  if (const int rank = static_cast<int>(h.Number(a + "attention.kv_lora_rank", 0)); rank > 0) {
    m.attention.kind = AttentionKind::kMla;
    m.attention.kv_lora_rank = rank;
    m.attention.qk_rope_head_dim = static_cast<int>(h.Number(a + "rope.dimension_count", 64));
  }

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
  } else if (double v = h.Number(a + "vocab_size", 0); v > 0) {
    m.vocab_size = static_cast<int>(std::min(v, 1e9));
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
  if (ft >= 0) out.file_type = std::string(GgufFileTypeName(static_cast<uint32_t>(ft)));
  out.weights_bytes = h.tensor_bytes;
  m.file_weights_bytes = static_cast<double>(h.tensor_bytes);
  m.file_quant = out.file_type;
  return out;
}

}  // namespace fitrank
