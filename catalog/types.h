// Plain catalog records: GPUs, LLMs, diffusion models, quantizations, runtimes, interconnects
// and prices. One struct per YAML entry; every YAML key is the snake_case field name below
// (catalog/README.md documents the files). All numbers carry their unit in the name:
//   _gb      decimal gigabytes (1e9 bytes)
//   _gbps    gigabytes per second (1e9 bytes/s), never gigabits
//   _tflops  dense (no sparsity) 1e12 operations per second
//   _b       billions (parameters)
// A field that the source does not know is 0 (numbers) or empty (strings, lists); the
// "optional" marks below say which fields may be missing. These structs are immutable once
// the catalog is loaded and are shared read-only across threads.
//
// CatalogText: the `source` of a quality figure (a model has seven, ~190 characters each, 0.6 MB
// over the catalog) is a view of text the catalog holds rather than a copy: the baked image
// (catalog/image.h) or the YAML tree of models.yaml, which a catalog loaded from YAML keeps.
// A record made elsewhere (a local GGUF file, a test) points it at text that outlives the
// record, such as a literal.
#ifndef FITRANK_CATALOG_TYPES_H_
#define FITRANK_CATALOG_TYPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank {

// Where an entry's numbers come from: a key into the file's `sources:` map, resolved to text.
struct SourceRef {
  std::string key;   // e.g. "vendor-specs"
  std::string text;  // the resolved description, e.g. "NVIDIA datasheets; shared/data/sources/gpus.csv"
};

enum class Segment { kConsumer, kWorkstation, kDatacenter, kApple, kApu, kEmbedded, kCpu };

struct Gpu {
  std::string id;                    // "geforce-rtx-4090", unique across ids and aliases
  std::string name;                  // "GeForce RTX 4090"
  std::string vendor;                // "NVIDIA" | "AMD" | "Intel" | "Apple" | "Qualcomm" | "CPU"
  std::vector<std::string> aliases;  // extra names for lookup, e.g. "4090", "rtx 4090"
  std::string family;                // "GeForce RTX 40"
  std::string architecture;          // "Ada Lovelace"
  Segment segment = Segment::kConsumer;
  std::string form_factor;           // optional: "pcie-card", "sxm5", "oam", "soc-unified", ...

  double memory_gb = 0;              // memory of this entry (each size is its own entry)
  std::string memory_type;           // "GDDR6X", "HBM3e", "LPDDR5X", "DDR5"
  int memory_bus_bits = 0;           // optional
  double bandwidth_gbps = 0;         // peak memory bandwidth, GB/s

  double fp32_tflops = 0;            // optional: vector rate
  double fp16_tflops = 0;            // dense FP16 matrix rate (GeForce: FP16 accumulate)
  double fp16_fp32acc_tflops = 0;    // optional: dense FP16 with FP32 accumulate (0 = same as fp16)
  double int8_tops = 0;              // optional: dense INT8
  double fp8_tflops = 0;             // optional: dense FP8, 0 if not supported in hardware
  double fp4_tflops = 0;             // optional: dense FP4, 0 if not supported in hardware
  std::vector<std::string> precisions;  // hardware-supported: "FP32","FP16","BF16","FP8","FP4","INT8","INT4"
  std::vector<std::string> platforms;   // "CUDA","ROCm","Metal","Vulkan","SYCL"
  int gpu_cores = 0;                 // optional: Apple/APU GPU core count, SMs/CUs elsewhere

  std::string interconnect;          // id into interconnects.yaml, e.g. "nvlink4", "pcie4-x16"
  double interconnect_gbps = 0;      // GPU-to-GPU bandwidth as quoted (0 = PCIe host link only)
  double pcie_gbps = 0;              // host link bandwidth, one direction, GB/s (0 for SoCs)

  double tdp_w = 0;
  int launch_year = 0;
  double msrp_usd = 0;               // optional: launch MSRP, 0 if none

  bool unified_memory = false;       // Apple, APUs, GH200-style: memory shared with the CPU
  double gpu_memory_share = 1.0;     // fraction of memory_gb the GPU may use by default
  std::string notes;                 // optional
  SourceRef source;
};

enum class AttentionKind { kFull, kSlidingMix, kMla, kHybrid, kNone };

// The KV-relevant attention layout of a model.
struct Attention {
  AttentionKind kind = AttentionKind::kFull;  // YAML: full | sliding | mla | hybrid | none
  int kv_layers = 0;              // layers that keep a KV cache (hybrids: fewer than layers)
  int sliding_window = 0;         // tokens kept by sliding-window layers (0 = none)
  int sliding_window_layers = 0;  // how many of kv_layers are sliding-window layers
  int kv_lora_rank = 0;           // MLA: compressed latent size
  int qk_rope_head_dim = 0;       // MLA: decoupled RoPE dims cached beside the latent
};

// LMArena-derived quality, 0-100 (score = clamp((elo - 975) / 5, 0, 100), tools/catalog_models.py).
// `score` is the text (overall) leaderboard; `coding` and `math` the leaderboard's coding and
// math categories, on the same scale. Each carries its own `*_estimated` flag: a measured text
// elo may come with an estimated category (text elo + the family's or kind's typical offset).
struct Quality {
  double score = 0;               // 0-100, text leaderboard
  bool estimated = false;         // true: not a leaderboard figure; `source` says how it was derived
  double coding = 0;              // 0-100, coding category (optional in YAML: default `score`)
  bool coding_estimated = false;  // default: `estimated`
  double math = 0;                // 0-100, math category (optional in YAML: default `score`)
  bool math_estimated = false;    // default: `estimated`
  // "LMArena text 2025-12-11: elo 1262.0" or the estimate's method. A view of text the catalog
  // holds (CatalogText, above).
  absl::string_view source;
};

// One workload's quality on the common 0-100 scale of catalog/QUALITY.md: the benchmark strings
// of the workload's leaderboards, each mapped onto one latent per model, expressed on the scale
// of the overall score above. Estimated figures (no usable leaderboard row) say how in `source`.
struct WorkloadQuality {
  double score = 0;          // 0-100
  bool estimated = false;    // true: not a leaderboard figure
  double uncertainty = 0;    // one standard error, score points (estimates: leave-one-out RMS)
  absl::string_view source;  // "measured: RULER 32K; ..." or the estimate's method (CatalogText)
};

// The quality figure of each shipped workload. Optional in YAML: absent, every figure comes from
// `quality` (chat and rag: score; coding and agentic: coding; reasoning: math).
struct WorkloadQualities {
  WorkloadQuality chat;
  WorkloadQuality coding;
  WorkloadQuality agentic;
  WorkloadQuality rag;
  WorkloadQuality reasoning;
};

// How well the model uses a long context: RULER scores (percent) at 32K/64K/128K tokens, measured
// or estimated, and the effective context (the longest length scored >= 85.6%, RULER's
// threshold), never above max_context. Optional in YAML: absent, effective_context = max_context.
struct LongContext {
  double ruler_32k = 0;      // percent; 0 when the model's maximum context is shorter
  double ruler_64k = 0;
  double ruler_128k = 0;
  int effective_context = 0; // tokens
  bool estimated = false;
  absl::string_view source;  // CatalogText
};

struct Model {
  std::string id;                    // "llama-3.1-8b-instruct"
  std::string name;                  // "Llama 3.1 8B Instruct"
  std::vector<std::string> aliases;  // "llama 3.1 8b", "llama3.1:8b"
  std::string family;                // "Llama 3.1"
  std::string org;                   // "Meta"
  std::string kind;                  // instruct | chat | reasoning | hybrid-reasoning | code | base | embedding
  double params_b = 0;               // total parameters
  double active_params_b = 0;        // parameters read per token (== params_b for dense models)
  int experts = 0;                   // optional, MoE only
  int experts_per_token = 0;         // optional, MoE only
  int layers = 0;
  int hidden_size = 0;
  int attention_heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  Attention attention;
  int vocab_size = 0;                // optional (0 = unknown)
  bool tied_embeddings = false;      // optional
  int max_context = 0;
  std::string release_date;          // "2024-07-23" or "2024-07"
  // never in YAML: release_date as a month number (catalog/release_month.h ReleaseMonth),
  // derived once by CatalogBuilder::Build; 0 when the date is unknown. Ages subtract these.
  double release_month = 0;
  std::string license;
  std::string modality;              // text | text+image | text+image+audio
  std::vector<std::string> capabilities;  // code, reasoning, tools, vision, multilingual, long-context
  std::string hf_repo;
  std::string ollama_tag;            // optional
  // optional: a Hugging Face repo of GGUF files of the model (ggml-org, unsloth, bartowski ...),
  // from the gguf_sources llmfit lists for its repo; llama.cpp's run command uses it.
  std::string gguf_repo;
  // optional: Hugging Face repos of the model's 4-bit AWQ, 4-bit GPTQ and FP8 checkpoints
  // (the catalog quants AWQ-4bit, GPTQ-4bit, FP8), from the quantized builds llmfit lists
  // (<publisher>/<repo name>-AWQ, -GPTQ-Int4, -FP8 ...); vLLM, SGLang and TensorRT-LLM run
  // commands load them. Empty: none listed (the command says to quantize first).
  std::string awq_repo;
  std::string gptq_repo;
  std::string fp8_repo;
  // optional: the catalog quant the weights were published in, when below 16 bits (gpt-oss:
  // MXFP4, DeepSeek-V3: FP8). Its quality score was measured there (see QualityRetention).
  std::string release_quant;
  Quality quality;
  WorkloadQualities workload_quality;  // optional in YAML (see WorkloadQualities)
  LongContext long_context;            // optional in YAML (see LongContext)
  std::string notes;
  SourceRef source;
  // optional, never in YAML: a model read from a local file (a GGUF header, catalog/gguf.h) has
  // its weights' exact size in bytes and the catalog quant id they are stored at ("Q4_K_M").
  // An estimate at that quant (without a --bpw override) uses these bytes instead of
  // params x bpw. 0 / empty for catalog models.
  double file_weights_bytes = 0;
  std::string file_quant;
};

// What a diffusion model makes.
enum class DiffusionKind { kImage, kVideo };

struct DiffusionModel {
  std::string id;
  std::string name;
  std::vector<std::string> aliases;
  std::string family;
  std::string org;
  DiffusionKind kind = DiffusionKind::kImage;  // YAML: image | video
  std::string architecture;          // "UNet", "DiT", "MMDiT", ...
  double params_b = 0;               // denoiser parameters
  double active_params_b = 0;        // per-step active (MoE DiT); == params_b otherwise
  double text_encoder_params_b = 0;
  double vae_params_b = 0;           // optional
  int width = 0;                     // default resolution
  int height = 0;
  int steps = 0;                     // default sampling steps
  int frames = 0;                    // video: default frame count (0 for images)
  int latent_downsample = 8;         // VAE spatial compression
  int temporal_downsample = 1;       // video VAE temporal compression
  int patch_size = 1;                // DiT patch size in latent pixels (UNets: 1)
  // Compute of one sampling step (engine/diffusion.cc). A step runs the denoiser cfg_passes
  // times: 2 with classifier-free guidance (prompt + negative prompt), 1 for guidance- or
  // adversarially-distilled models. Optional: 2 when absent.
  int cfg_passes = 2;
  // Transformer layout (config.json): width, blocks with self-attention over all tokens (0 for
  // linear attention, and for UNets whose attention is in attention_gflops_per_pass).
  // hidden_size also sizes the activations (UNets: the width at the latent resolution).
  // Optional: 0 = unknown (estimated from params_b).
  int hidden_size = 0;
  int attention_layers = 0;
  double token_params_b = 0;         // optional: parameters applied to every token (no adaLN
                                     // modulation, embedders); 0 = all active parameters
  int text_tokens = 0;               // optional: text tokens in the joint attention (MMDiT)
  int context_images = 0;            // optional: reference images whose tokens join (editing)
  // Optional: FLOPs of one denoiser pass at the default resolution and frames (UNets, where
  // the layout is not a stack of equal blocks), and its quadratic attention part (Q K^T and
  // the weighted sum), which grows with tokens^2; the rest grows with tokens.
  double gflops_per_pass = 0;
  double attention_gflops_per_pass = 0;
  bool per_frame_attention = false;  // optional: video attention within each frame (SVD's UNet)
  double vram_min_gb = 0;            // optional: published minimum (with offload/quantization)
  double vram_recommended_gb = 0;    // optional
  std::string release_date;
  std::string license;
  std::string hf_repo;
  std::string notes;
  SourceRef source;
};

struct Quant {
  std::string id;                    // "Q4_K_M", "FP8", "EXL2", "GPTQ-4bit"
  std::vector<std::string> aliases;
  std::string family;                // gguf-legacy | gguf-k | gguf-iq | float | fp8 | fp4 | gptq | awq | exl2 | mlc
  double bits = 0;                   // nominal bits, for display
  double bpw = 0;                    // effective bits per weight measured on real files
  bool variable_bpw = false;         // EXL2: any bpw, given with --bpw
  double quality_retention = 0;      // 0-1, vs the 16-bit model
  std::string quality_source;
  std::vector<std::string> runtimes; // runtime ids that load it
  std::string requires_precision;    // optional: "FP8" / "FP4": hardware must list it to run natively
  // optional: the tool that makes this quant from the 16-bit weights ("AutoAWQ", "llama.cpp's
  // llama-quantize" ...); run commands name it when no checkpoint of the quant is known.
  std::string quantize_with;
  std::string notes;
  SourceRef source;
};

struct Runtime {
  std::string id;                    // "llama.cpp", "ollama", "vllm", ...
  std::string name;
  std::vector<std::string> aliases;
  std::vector<std::string> platforms;       // CUDA, ROCm, Metal, Vulkan, SYCL, CPU
  std::vector<std::string> quant_families;  // which Quant::family it loads
  std::vector<std::string> parallelism;     // "layer", "tensor"
  bool serving = false;              // built for concurrent serving (continuous batching)
  // Launch template; placeholders in runtimes.yaml's source note, filled by
  // engine/report/run_command.cc.
  std::string command;
  // optional: the quant a bare library tag serves (Ollama: Q4_K_M), for models without a
  // GGUF repo to pin the quant from.
  std::string tag_quant;
  // optional: the server to start first with the estimated settings (Ollama's context length
  // and KV cache type are server settings); same placeholders as `command`.
  std::string server_command;
  std::string notes;
  SourceRef source;
};

struct Interconnect {
  std::string id;                    // "nvlink4", "pcie4-x16", "infinity-fabric"
  std::string name;
  double bandwidth_gbps = 0;         // per GPU, one direction
  double latency_us = 0;             // per all-reduce hop, small messages
  SourceRef source;
};

struct Price {
  std::string gpu_id;
  double street_usd = 0;             // optional: typical current price (0 = unknown)
  double cloud_usd_per_hour = 0;     // optional: on-demand $/GPU-hour (0 = unknown)
  std::string as_of;                 // "2026-03"
  SourceRef source;
};

}  // namespace fitrank

#endif  // FITRANK_CATALOG_TYPES_H_
