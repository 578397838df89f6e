#include "catalog/to_json.h"

#include <string>

#include "catalog/vocabulary.h"

namespace fitrank {

using Json = nlohmann::ordered_json;

Json ToJson(const SourceRef& s) { return Json{{"key", s.key}, {"text", s.text}}; }

Json ToJson(const Gpu& g) {
  Json j;
  j["id"] = g.id;
  j["name"] = g.name;
  j["vendor"] = g.vendor;
  j["aliases"] = g.aliases;
  j["family"] = g.family;
  j["architecture"] = g.architecture;
  j["segment"] = std::string(SegmentName(g.segment));
  j["form_factor"] = g.form_factor;
  j["memory_gb"] = g.memory_gb;
  j["memory_type"] = g.memory_type;
  j["memory_bus_bits"] = g.memory_bus_bits;
  j["bandwidth_gbps"] = g.bandwidth_gbps;
  j["fp32_tflops"] = g.fp32_tflops;
  j["fp16_tflops"] = g.fp16_tflops;
  j["fp16_fp32acc_tflops"] = g.fp16_fp32acc_tflops;
  j["int8_tops"] = g.int8_tops;
  j["fp8_tflops"] = g.fp8_tflops;
  j["fp4_tflops"] = g.fp4_tflops;
  j["precisions"] = g.precisions;
  j["platforms"] = g.platforms;
  j["gpu_cores"] = g.gpu_cores;
  j["interconnect"] = g.interconnect;
  j["interconnect_gbps"] = g.interconnect_gbps;
  j["pcie_gbps"] = g.pcie_gbps;
  j["tdp_w"] = g.tdp_w;
  j["launch_year"] = g.launch_year;
  j["msrp_usd"] = g.msrp_usd;
  j["unified_memory"] = g.unified_memory;
  j["gpu_memory_share"] = g.gpu_memory_share;
  j["notes"] = g.notes;
  j["source"] = ToJson(g.source);
  return j;
}

Json ToJson(const Attention& a) {
  Json j;
  j["kind"] = std::string(AttentionKindName(a.kind));
  j["kv_layers"] = a.kv_layers;
  j["sliding_window"] = a.sliding_window;
  j["sliding_window_layers"] = a.sliding_window_layers;
  j["kv_lora_rank"] = a.kv_lora_rank;
  j["qk_rope_head_dim"] = a.qk_rope_head_dim;
  return j;
}

Json ToJson(const Quality& q) {
  return Json{{"score", q.score},
              {"estimated", q.estimated},
              {"coding", q.coding},
              {"coding_estimated", q.coding_estimated},
              {"math", q.math},
              {"math_estimated", q.math_estimated},
              {"source", q.source}};
}

Json ToJson(const WorkloadQuality& q) {
  return Json{{"score", q.score},
              {"estimated", q.estimated},
              {"uncertainty", q.uncertainty},
              {"source", q.source}};
}

Json ToJson(const LongContext& lc) {
  return Json{{"ruler_32k", lc.ruler_32k},
              {"ruler_64k", lc.ruler_64k},
              {"ruler_128k", lc.ruler_128k},
              {"effective_context", lc.effective_context},
              {"estimated", lc.estimated},
              {"source", lc.source}};
}

Json ToJson(const Model& m) {
  Json j;
  j["id"] = m.id;
  j["name"] = m.name;
  j["aliases"] = m.aliases;
  j["family"] = m.family;
  j["org"] = m.org;
  j["kind"] = m.kind;
  j["params_b"] = m.params_b;
  j["active_params_b"] = m.active_params_b;
  j["experts"] = m.experts;
  j["experts_per_token"] = m.experts_per_token;
  j["layers"] = m.layers;
  j["hidden_size"] = m.hidden_size;
  j["attention_heads"] = m.attention_heads;
  j["kv_heads"] = m.kv_heads;
  j["head_dim"] = m.head_dim;
  j["attention"] = ToJson(m.attention);
  j["vocab_size"] = m.vocab_size;
  j["tied_embeddings"] = m.tied_embeddings;
  j["max_context"] = m.max_context;
  j["release_date"] = m.release_date;
  j["license"] = m.license;
  j["modality"] = m.modality;
  j["capabilities"] = m.capabilities;
  j["hf_repo"] = m.hf_repo;
  j["ollama_tag"] = m.ollama_tag;
  j["gguf_repo"] = m.gguf_repo;
  j["awq_repo"] = m.awq_repo;
  j["gptq_repo"] = m.gptq_repo;
  j["fp8_repo"] = m.fp8_repo;
  j["release_quant"] = m.release_quant;
  j["quality"] = ToJson(m.quality);
  j["workload_quality"] = Json{{"chat", ToJson(m.workload_quality.chat)},
                               {"coding", ToJson(m.workload_quality.coding)},
                               {"agentic", ToJson(m.workload_quality.agentic)},
                               {"rag", ToJson(m.workload_quality.rag)},
                               {"reasoning", ToJson(m.workload_quality.reasoning)}};
  j["long_context"] = ToJson(m.long_context);
  j["notes"] = m.notes;
  j["source"] = ToJson(m.source);
  return j;
}

Json ToJson(const DiffusionModel& d) {
  Json j;
  j["id"] = d.id;
  j["name"] = d.name;
  j["aliases"] = d.aliases;
  j["family"] = d.family;
  j["org"] = d.org;
  j["kind"] = std::string(DiffusionKindName(d.kind));
  j["architecture"] = d.architecture;
  j["params_b"] = d.params_b;
  j["active_params_b"] = d.active_params_b;
  j["text_encoder_params_b"] = d.text_encoder_params_b;
  j["vae_params_b"] = d.vae_params_b;
  j["width"] = d.width;
  j["height"] = d.height;
  j["steps"] = d.steps;
  j["frames"] = d.frames;
  j["latent_downsample"] = d.latent_downsample;
  j["temporal_downsample"] = d.temporal_downsample;
  j["patch_size"] = d.patch_size;
  j["cfg_passes"] = d.cfg_passes;
  j["hidden_size"] = d.hidden_size;
  j["attention_layers"] = d.attention_layers;
  j["token_params_b"] = d.token_params_b;
  j["text_tokens"] = d.text_tokens;
  j["context_images"] = d.context_images;
  j["gflops_per_pass"] = d.gflops_per_pass;
  j["attention_gflops_per_pass"] = d.attention_gflops_per_pass;
  j["per_frame_attention"] = d.per_frame_attention;
  j["vram_min_gb"] = d.vram_min_gb;
  j["vram_recommended_gb"] = d.vram_recommended_gb;
  j["release_date"] = d.release_date;
  j["license"] = d.license;
  j["hf_repo"] = d.hf_repo;
  j["notes"] = d.notes;
  j["source"] = ToJson(d.source);
  return j;
}

Json ToJson(const Quant& q) {
  Json j;
  j["id"] = q.id;
  j["aliases"] = q.aliases;
  j["family"] = q.family;
  j["bits"] = q.bits;
  j["bpw"] = q.bpw;
  j["variable_bpw"] = q.variable_bpw;
  j["quality_retention"] = q.quality_retention;
  j["quality_source"] = q.quality_source;
  j["runtimes"] = q.runtimes;
  j["requires_precision"] = q.requires_precision;
  j["quantize_with"] = q.quantize_with;
  j["notes"] = q.notes;
  j["source"] = ToJson(q.source);
  return j;
}

Json ToJson(const Runtime& r) {
  Json j;
  j["id"] = r.id;
  j["name"] = r.name;
  j["aliases"] = r.aliases;
  j["platforms"] = r.platforms;
  j["quant_families"] = r.quant_families;
  j["parallelism"] = r.parallelism;
  j["serving"] = r.serving;
  j["command"] = r.command;
  j["tag_quant"] = r.tag_quant;
  j["server_command"] = r.server_command;
  j["notes"] = r.notes;
  j["source"] = ToJson(r.source);
  return j;
}

Json ToJson(const Interconnect& i) {
  Json j;
  j["id"] = i.id;
  j["name"] = i.name;
  j["bandwidth_gbps"] = i.bandwidth_gbps;
  j["latency_us"] = i.latency_us;
  j["source"] = ToJson(i.source);
  return j;
}

Json ToJson(const Price& p) {
  Json j;
  j["gpu_id"] = p.gpu_id;
  j["street_usd"] = p.street_usd;
  j["cloud_usd_per_hour"] = p.cloud_usd_per_hour;
  j["as_of"] = p.as_of;
  j["source"] = ToJson(p.source);
  return j;
}

}  // namespace fitrank
