// LLMs and diffusion models.
#include "absl/strings/str_cat.h"
#include "catalog/internal/records.h"
#include "catalog/vocabulary.h"

namespace fitrank::catalog_internal {
namespace {

constexpr int kMaxLayers = 1000;

// Reads `attention:` (absent: full attention on every layer). True if `kv_layers` was given,
// even as 0.
bool ReadAttention(MapReader& model, const Model& m, Attention* a) {
  YamlNode node = model.Child("attention");
  if (!node.IsDefined() || node.IsNull()) return false;
  MapReader r(node, model.file(), model.diags(),
              absl::StrCat("the attention of model `", m.id, "`"), std::string(kCatalogDoc));
  if (!r.ok()) return false;
  const bool kv_layers_given = r.Has("kv_layers");
  std::string kind;
  if (r.Enum("kind", AttentionKindNames(), &kind, /*required=*/true)) {
    a->kind = *ParseAttentionKind(kind);
  }
  OptionalNum(r, "kv_layers", &a->kv_layers, 0, kMaxLayers);
  OptionalNum(r, "sliding_window", &a->sliding_window, 1, 100'000'000);
  OptionalNum(r, "sliding_window_layers", &a->sliding_window_layers, 0, kMaxLayers);
  OptionalNum(r, "kv_lora_rank", &a->kv_lora_rank, 1, 65536);
  OptionalNum(r, "qk_rope_head_dim", &a->qk_rope_head_dim, 0, 4096);
  r.CheckUnknownKeys();

  if (a->kind == AttentionKind::kSlidingMix) {
    if (a->sliding_window == 0) {
      Inconsistent(r, "kind", "sliding attention needs `sliding_window` (tokens kept)",
                   "add `sliding_window: <tokens>`");
    }
    if (a->sliding_window_layers == 0) {
      Inconsistent(r, "kind", "sliding attention needs `sliding_window_layers`",
                   "add how many of the KV layers use the window");
    }
  }
  if (a->kind == AttentionKind::kMla && a->kv_lora_rank == 0) {
    Inconsistent(r, "kind", "MLA attention needs `kv_lora_rank` (the cached latent size)",
                 "add `kv_lora_rank: <n>` from the model's config.json");
  }
  if (a->kind != AttentionKind::kSlidingMix && a->sliding_window_layers > 0) {
    Inconsistent(r, "sliding_window_layers",
                 absl::StrCat("`sliding_window_layers` needs `kind: sliding`, not `",
                              AttentionKindName(a->kind), "`"),
                 "set `kind: sliding` or drop the sliding-window fields");
  }
  if (m.layers > 0 && a->kv_layers > m.layers) {
    Inconsistent(r, "kv_layers",
                 absl::StrCat("`kv_layers` (", a->kv_layers, ") exceeds the model's `layers` (",
                              m.layers, ")"),
                 "kv_layers counts the layers that keep a KV cache");
  }
  int kv_layers = a->kv_layers > 0 ? a->kv_layers : m.layers;
  if (a->sliding_window_layers > kv_layers && kv_layers > 0) {
    Inconsistent(r, "sliding_window_layers",
                 absl::StrCat("`sliding_window_layers` (", a->sliding_window_layers,
                              ") exceeds the KV layers (", kv_layers, ")"),
                 "sliding-window layers are a subset of the KV layers");
  }
  return kv_layers_given;
}

void ReadQuality(MapReader& model, const Model& m, Quality* q) {
  if (model.ok() && !model.Has("quality")) {
    model.Missing("quality", "{score: <0-100>, source: \"...\"}");
    return;
  }
  MapReader r(model.Child("quality"), model.file(), model.diags(),
              absl::StrCat("the quality of model `", m.id, "`"), std::string(kCatalogDoc));
  if (!r.ok()) return;
  r.Required("score", &q->score, 0, 100);
  r.Optional("estimated", &q->estimated);
  // The coding and math categories default to the text score and its flag (catalogs written
  // before they existed, hand-made test catalogs).
  q->coding = q->score;
  q->coding_estimated = q->estimated;
  q->math = q->score;
  q->math_estimated = q->estimated;
  r.Optional("coding", &q->coding, 0, 100);
  r.Optional("coding_estimated", &q->coding_estimated);
  r.Optional("math", &q->math, 0, 100);
  r.Optional("math_estimated", &q->math_estimated);
  r.Required("source", &q->source);
  r.CheckUnknownKeys();
}

// Defaults when the catalog gives no per-workload figures: the LMArena-derived `quality`.
void DefaultWorkloadQuality(const Quality& q, WorkloadQualities* w) {
  auto from = [&](double score, bool estimated) {
    return WorkloadQuality{score, estimated, 0, q.source};
  };
  w->chat = from(q.score, q.estimated);
  w->coding = from(q.coding, q.coding_estimated);
  w->agentic = from(q.coding, q.coding_estimated);
  w->rag = from(q.score, q.estimated);
  w->reasoning = from(q.math, q.math_estimated);
}

void ReadOneWorkloadQuality(MapReader& parent, absl::string_view key, const Model& m,
                            WorkloadQuality* q) {
  if (!parent.Has(key)) {
    parent.Missing(key, "{score: <0-100>, estimated: <bool>, uncertainty: <points>, source: \"...\"}");
    return;
  }
  MapReader r(parent.Child(key), parent.file(), parent.diags(),
              absl::StrCat("the ", key, " quality of model `", m.id, "`"),
              std::string(kCatalogDoc));
  if (!r.ok()) return;
  r.Required("score", &q->score, 0, 100);
  r.Optional("estimated", &q->estimated);
  q->uncertainty = 0;
  r.Optional("uncertainty", &q->uncertainty, 0, 100);
  r.Required("source", &q->source);
  r.CheckUnknownKeys();
}

void ReadWorkloadQuality(MapReader& model, const Model& m, WorkloadQualities* w) {
  DefaultWorkloadQuality(m.quality, w);
  if (!model.Has("workload_quality")) return;
  MapReader r(model.Child("workload_quality"), model.file(), model.diags(),
              absl::StrCat("the workload quality of model `", m.id, "`"),
              std::string(kCatalogDoc));
  if (!r.ok()) return;
  ReadOneWorkloadQuality(r, "chat", m, &w->chat);
  ReadOneWorkloadQuality(r, "coding", m, &w->coding);
  ReadOneWorkloadQuality(r, "agentic", m, &w->agentic);
  ReadOneWorkloadQuality(r, "rag", m, &w->rag);
  ReadOneWorkloadQuality(r, "reasoning", m, &w->reasoning);
  r.CheckUnknownKeys();
}

void ReadLongContext(MapReader& model, const Model& m, LongContext* lc) {
  lc->effective_context = m.max_context;
  lc->estimated = true;
  lc->source = "not in the catalog: the model's maximum context";
  if (!model.Has("long_context")) return;
  MapReader r(model.Child("long_context"), model.file(), model.diags(),
              absl::StrCat("the long-context figures of model `", m.id, "`"),
              std::string(kCatalogDoc));
  if (!r.ok()) return;
  r.Optional("ruler_32k", &lc->ruler_32k, 0, 100);
  r.Optional("ruler_64k", &lc->ruler_64k, 0, 100);
  r.Optional("ruler_128k", &lc->ruler_128k, 0, 100);
  r.Required("effective_context", &lc->effective_context, 0, 100'000'000);
  r.Optional("estimated", &lc->estimated);
  r.Required("source", &lc->source);
  r.CheckUnknownKeys();
  if (m.max_context > 0 && lc->effective_context > m.max_context) {
    Inconsistent(r, "effective_context",
                 absl::StrCat("`effective_context` (", lc->effective_context,
                              ") exceeds the model's max_context (", m.max_context, ")"),
                 "the effective context is the part of max_context the model uses well");
  }
}

}  // namespace

void ReadModel(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Model* m, Places* places) {
  places->what = EntryWhat(node, "model", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  ReadId(r, /*any_case=*/false, &m->id, places);
  if (r.Required("name", &m->name)) places->name = r.WhereOf("name");
  ReadAliases(r, &m->aliases, places);
  r.Required("family", &m->family);
  r.Required("org", &m->org);
  r.Enum("kind", ModelKinds(), &m->kind, /*required=*/true);

  bool have_params = r.Required("params_b", &m->params_b, 0.01, 5000);
  bool have_active = OptionalNum(r, "active_params_b", &m->active_params_b, 0.01, 5000);
  OptionalNum(r, "experts", &m->experts, 1, 4096);
  OptionalNum(r, "experts_per_token", &m->experts_per_token, 1, 4096);
  r.Required("layers", &m->layers, 1, kMaxLayers);
  r.Required("hidden_size", &m->hidden_size, 64, 131072);
  const bool kv_layers_given = ReadAttention(r, *m, &m->attention);
  // Models without attention (pure state-space layers) have no heads: 0 is allowed there,
  // and MLA caches a latent rather than heads of head_dim.
  const AttentionKind ak = m->attention.kind;
  const bool no_attention = ak == AttentionKind::kNone ||
                            (ak == AttentionKind::kHybrid && kv_layers_given &&
                             m->attention.kv_layers == 0);
  const int min_heads = no_attention ? 0 : 1;
  bool have_heads = r.Required("attention_heads", &m->attention_heads, min_heads, 4096);
  bool have_kv = r.Required("kv_heads", &m->kv_heads, min_heads, 4096);
  r.Required("head_dim", &m->head_dim, no_attention || ak == AttentionKind::kMla ? 0 : 8, 4096);
  OptionalNum(r, "vocab_size", &m->vocab_size, 100, 10'000'000);
  r.Optional("tied_embeddings", &m->tied_embeddings);
  r.Required("max_context", &m->max_context, 128, 100'000'000);
  ReadDate(r, "release_date", /*required=*/true, &m->release_date);
  r.Required("license", &m->license);
  r.Enum("modality", Modalities(), &m->modality, /*required=*/true);
  ReadWordList(r, "capabilities", Capabilities(), /*required=*/false, &m->capabilities);
  r.Optional("hf_repo", &m->hf_repo);
  r.Optional("ollama_tag", &m->ollama_tag);
  r.Optional("gguf_repo", &m->gguf_repo);
  r.Optional("awq_repo", &m->awq_repo);
  r.Optional("gptq_repo", &m->gptq_repo);
  r.Optional("fp8_repo", &m->fp8_repo);
  if (r.Optional("release_quant", &m->release_quant) && !m->release_quant.empty()) {
    places->refs.emplace_back(m->release_quant, r.WhereOf("release_quant"));
  }
  ReadQuality(r, *m, &m->quality);
  ReadWorkloadQuality(r, *m, &m->workload_quality);
  ReadLongContext(r, *m, &m->long_context);
  r.Optional("notes", &m->notes);
  ReadSource(r, frame, &m->source);
  r.CheckUnknownKeys();

  // Defaults, then the checks that relate fields.
  if (!have_active) m->active_params_b = m->params_b;
  // kv_layers defaults to every layer; 0 is taken literally only where a model may have no
  // KV layers at all (hybrid state-space models, kind none).
  const bool literal_zero =
      ak == AttentionKind::kNone || (ak == AttentionKind::kHybrid && kv_layers_given);
  if (m->attention.kv_layers == 0 && !literal_zero) m->attention.kv_layers = m->layers;
  if (have_params && have_active && m->active_params_b > m->params_b) {
    Inconsistent(r, "active_params_b",
                 absl::StrCat("model `", m->id, "` has more active (", m->active_params_b,
                              "B) than total parameters (", m->params_b, "B)"),
                 "active_params_b counts the parameters read per token: at most params_b");
  }
  if (m->experts_per_token > 0 && m->experts > 0 && m->experts_per_token > m->experts) {
    Inconsistent(r, "experts_per_token",
                 absl::StrCat("model `", m->id, "` routes ", m->experts_per_token,
                              " experts per token but has only ", m->experts),
                 "experts_per_token is at most experts");
  }
  bool grouped = m->attention.kind == AttentionKind::kFull ||
                 m->attention.kind == AttentionKind::kSlidingMix;
  if (grouped && have_heads && have_kv && m->kv_heads > 0 &&
      m->attention_heads % m->kv_heads != 0) {
    Inconsistent(r, "kv_heads",
                 absl::StrCat("model `", m->id, "`: kv_heads (", m->kv_heads,
                              ") does not divide attention_heads (", m->attention_heads, ")"),
                 "grouped-query attention shares each KV head among a whole number of query "
                 "heads; check config.json's num_key_value_heads");
  }
}

void ReadDiffusion(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
                   DiffusionModel* d, Places* places) {
  places->what = EntryWhat(node, "diffusion model", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  ReadId(r, /*any_case=*/false, &d->id, places);
  if (r.Required("name", &d->name)) places->name = r.WhereOf("name");
  ReadAliases(r, &d->aliases, places);
  r.Required("family", &d->family);
  r.Required("org", &d->org);
  std::string kind;
  const bool have_kind = r.Enum("kind", DiffusionKindNames(), &kind, /*required=*/true);
  if (have_kind) d->kind = *ParseDiffusionKind(kind);
  r.Required("architecture", &d->architecture);
  bool have_params = r.Required("params_b", &d->params_b, 0.01, 5000);
  bool have_active = OptionalNum(r, "active_params_b", &d->active_params_b, 0.01, 5000);
  OptionalNum(r, "text_encoder_params_b", &d->text_encoder_params_b, 0, 1000);
  OptionalNum(r, "vae_params_b", &d->vae_params_b, 0, 100);
  r.Required("width", &d->width, 64, 16384);
  r.Required("height", &d->height, 64, 16384);
  r.Required("steps", &d->steps, 1, 1000);
  OptionalNum(r, "frames", &d->frames, 0, 100000);
  OptionalNum(r, "latent_downsample", &d->latent_downsample, 1, 128);
  OptionalNum(r, "temporal_downsample", &d->temporal_downsample, 1, 128);
  OptionalNum(r, "patch_size", &d->patch_size, 1, 64);
  OptionalNum(r, "cfg_passes", &d->cfg_passes, 1, 2);
  OptionalNum(r, "hidden_size", &d->hidden_size, 0, 1000000);
  OptionalNum(r, "attention_layers", &d->attention_layers, 0, 100000);
  OptionalNum(r, "token_params_b", &d->token_params_b, 0, 5000);
  OptionalNum(r, "text_tokens", &d->text_tokens, 0, 1000000);
  OptionalNum(r, "context_images", &d->context_images, 0, 64);
  OptionalNum(r, "gflops_per_pass", &d->gflops_per_pass, 0, 1e9);
  OptionalNum(r, "attention_gflops_per_pass", &d->attention_gflops_per_pass, 0, 1e9);
  r.Optional("per_frame_attention", &d->per_frame_attention);
  OptionalNum(r, "vram_min_gb", &d->vram_min_gb, 0, 4096);
  OptionalNum(r, "vram_recommended_gb", &d->vram_recommended_gb, 0, 4096);
  ReadDate(r, "release_date", /*required=*/true, &d->release_date);
  r.Required("license", &d->license);
  r.Optional("hf_repo", &d->hf_repo);
  r.Optional("notes", &d->notes);
  ReadSource(r, frame, &d->source);
  r.CheckUnknownKeys();

  if (!have_active) d->active_params_b = d->params_b;
  if (have_params && have_active && d->active_params_b > d->params_b) {
    Inconsistent(r, "active_params_b",
                 absl::StrCat("diffusion model `", d->id, "` has more active (",
                              d->active_params_b, "B) than total parameters (", d->params_b,
                              "B)"),
                 "active_params_b is at most params_b");
  }
  if (have_params && d->token_params_b > d->active_params_b) {
    Inconsistent(r, "token_params_b",
                 absl::StrCat("diffusion model `", d->id, "` applies more parameters per token (",
                              d->token_params_b, "B) than it has active (", d->active_params_b,
                              "B)"),
                 "token_params_b is at most active_params_b");
  }
  if (d->attention_gflops_per_pass > d->gflops_per_pass) {
    Inconsistent(r, "attention_gflops_per_pass",
                 absl::StrCat("diffusion model `", d->id, "`: attention_gflops_per_pass (",
                              d->attention_gflops_per_pass, ") exceeds gflops_per_pass (",
                              d->gflops_per_pass, ")"),
                 "the attention part is a share of the whole pass");
  }
  if (have_kind && d->kind == DiffusionKind::kVideo && d->frames == 0 && r.ok()) {
    Inconsistent(r, "kind", absl::StrCat("video model `", d->id, "` has no `frames`"),
                 "add the default frame count, e.g. `frames: 81`");
  }
  if (have_kind && d->kind == DiffusionKind::kImage && d->frames > 1) {
    Inconsistent(r, "frames", absl::StrCat("image model `", d->id, "` has `frames`"),
                 "frames is for video models; drop it or set `kind: video`");
  }
  if (d->vram_min_gb > 0 && d->vram_recommended_gb > 0 &&
      d->vram_min_gb > d->vram_recommended_gb) {
    Inconsistent(r, "vram_min_gb",
                 absl::StrCat("`vram_min_gb` (", d->vram_min_gb,
                              ") exceeds `vram_recommended_gb` (", d->vram_recommended_gb, ")"),
                 "the minimum cannot exceed the recommendation");
  }
}

}  // namespace fitrank::catalog_internal
