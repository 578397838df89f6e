// Every field of every catalog record, listed once, for the catalog image (catalog/image.h):
// `Fields(v, record)` calls `v(field)` for each field in declaration order, with `record`
// const (writing an image) or not (reading one). A field added to catalog/types.h is one line
// here; a record type nested in another (Attention in Model) gets its own Fields().
// A field left out would come back from the image at its default value: the image test
// (tests/catalog/image_test.cc) compares the baked catalog with the YAML one through
// catalog/to_json.h, which writes every field.
#ifndef FITRANK_CATALOG_INTERNAL_FIELDS_H_
#define FITRANK_CATALOG_INTERNAL_FIELDS_H_

#include <concepts>
#include <type_traits>

#include "catalog/types.h"

namespace fitrank::catalog_internal {

// `T` is `Record` or `const Record`.
template <class T, class Record>
concept RecordOf = std::same_as<std::remove_const_t<T>, Record>;

template <class V, RecordOf<SourceRef> T>
void Fields(V& v, T& x) {
  v(x.key);
  v(x.text);
}

template <class V, RecordOf<Gpu> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.name);
  v(x.vendor);
  v(x.aliases);
  v(x.family);
  v(x.architecture);
  v(x.segment);
  v(x.form_factor);
  v(x.memory_gb);
  v(x.memory_type);
  v(x.memory_bus_bits);
  v(x.bandwidth_gbps);
  v(x.fp32_tflops);
  v(x.fp16_tflops);
  v(x.fp16_fp32acc_tflops);
  v(x.int8_tops);
  v(x.fp8_tflops);
  v(x.fp4_tflops);
  v(x.precisions);
  v(x.platforms);
  v(x.gpu_cores);
  v(x.interconnect);
  v(x.interconnect_gbps);
  v(x.pcie_gbps);
  v(x.tdp_w);
  v(x.launch_year);
  v(x.msrp_usd);
  v(x.unified_memory);
  v(x.gpu_memory_share);
  v(x.notes);
  v(x.source);
}

template <class V, RecordOf<Attention> T>
void Fields(V& v, T& x) {
  v(x.kind);
  v(x.kv_layers);
  v(x.sliding_window);
  v(x.sliding_window_layers);
  v(x.kv_lora_rank);
  v(x.qk_rope_head_dim);
}

template <class V, RecordOf<Quality> T>
void Fields(V& v, T& x) {
  v(x.score);
  v(x.estimated);
  v(x.coding);
  v(x.coding_estimated);
  v(x.math);
  v(x.math_estimated);
  v(x.source);
}

template <class V, RecordOf<WorkloadQuality> T>
void Fields(V& v, T& x) {
  v(x.score);
  v(x.estimated);
  v(x.uncertainty);
  v(x.source);
}

template <class V, RecordOf<WorkloadQualities> T>
void Fields(V& v, T& x) {
  v(x.chat);
  v(x.coding);
  v(x.agentic);
  v(x.rag);
  v(x.reasoning);
}

template <class V, RecordOf<LongContext> T>
void Fields(V& v, T& x) {
  v(x.ruler_32k);
  v(x.ruler_64k);
  v(x.ruler_128k);
  v(x.effective_context);
  v(x.estimated);
  v(x.source);
}

template <class V, RecordOf<Model> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.name);
  v(x.aliases);
  v(x.family);
  v(x.org);
  v(x.kind);
  v(x.params_b);
  v(x.active_params_b);
  v(x.experts);
  v(x.experts_per_token);
  v(x.layers);
  v(x.hidden_size);
  v(x.attention_heads);
  v(x.kv_heads);
  v(x.head_dim);
  v(x.attention);
  v(x.vocab_size);
  v(x.tied_embeddings);
  v(x.max_context);
  v(x.release_date);
  v(x.release_month);
  v(x.license);
  v(x.modality);
  v(x.capabilities);
  v(x.hf_repo);
  v(x.ollama_tag);
  v(x.gguf_repo);
  v(x.awq_repo);
  v(x.gptq_repo);
  v(x.fp8_repo);
  v(x.release_quant);
  v(x.quality);
  v(x.workload_quality);
  v(x.long_context);
  v(x.notes);
  v(x.source);
  v(x.file_weights_bytes);
  v(x.file_quant);
}

template <class V, RecordOf<DiffusionModel> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.name);
  v(x.aliases);
  v(x.family);
  v(x.org);
  v(x.kind);
  v(x.architecture);
  v(x.params_b);
  v(x.active_params_b);
  v(x.text_encoder_params_b);
  v(x.vae_params_b);
  v(x.width);
  v(x.height);
  v(x.steps);
  v(x.frames);
  v(x.latent_downsample);
  v(x.temporal_downsample);
  v(x.patch_size);
  v(x.cfg_passes);
  v(x.hidden_size);
  v(x.attention_layers);
  v(x.token_params_b);
  v(x.text_tokens);
  v(x.context_images);
  v(x.gflops_per_pass);
  v(x.attention_gflops_per_pass);
  v(x.per_frame_attention);
  v(x.vram_min_gb);
  v(x.vram_recommended_gb);
  v(x.release_date);
  v(x.license);
  v(x.hf_repo);
  v(x.notes);
  v(x.source);
}

template <class V, RecordOf<Quant> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.aliases);
  v(x.family);
  v(x.bits);
  v(x.bpw);
  v(x.variable_bpw);
  v(x.quality_retention);
  v(x.quality_source);
  v(x.runtimes);
  v(x.requires_precision);
  v(x.quantize_with);
  v(x.notes);
  v(x.source);
}

template <class V, RecordOf<Runtime> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.name);
  v(x.aliases);
  v(x.platforms);
  v(x.quant_families);
  v(x.parallelism);
  v(x.serving);
  v(x.command);
  v(x.tag_quant);
  v(x.server_command);
  v(x.notes);
  v(x.source);
}

template <class V, RecordOf<Interconnect> T>
void Fields(V& v, T& x) {
  v(x.id);
  v(x.name);
  v(x.bandwidth_gbps);
  v(x.latency_us);
  v(x.source);
}

template <class V, RecordOf<Price> T>
void Fields(V& v, T& x) {
  v(x.gpu_id);
  v(x.street_usd);
  v(x.cloud_usd_per_hour);
  v(x.as_of);
  v(x.source);
}

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_FIELDS_H_
