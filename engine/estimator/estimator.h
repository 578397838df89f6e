// The estimator: memory, fit, decode speed, prefill / time to first token, multi-GPU, serving
// and diffusion for a setup, a model, a quantization, a runtime and a workload shape.
//
// Physics first: bytes moved over achieved bandwidth, FLOPs over achieved matrix throughput,
// the model's real attention layout for the KV cache. The few calibration constants (achieved
// fractions of peak, fixed per-layer and per-token costs, reserves) live in
// engine/estimator/estimator.yaml with their sources, never in code; `fitrank calibrate` reports the error
// against public measurements.
//
// Usage:
//   Diagnostics diags;
//   auto est = Estimator::Load(*source, &diags);            // engine/estimator/estimator.yaml
//   auto setup = BuildSetup(*est, {{&gpu, 2}});
//   EstimateInput in;  in.setup = &*setup;  in.model = &model;  in.quant = &quant;
//   in.runtime = est->DefaultRuntime(catalog, *setup, &quant);
//   Estimate e;  est->Run(in, &e);                           // no allocation, < 1 us
//   Basis why;   est->Explain(in, &e, &why);                 // same numbers + their basis
//
// Units: GB are decimal (1e9 bytes), bandwidth GB/s, tokens/s, milliseconds. Every number in an
// Estimate is finite and >= 0 (0 when it does not exist, e.g. decode speed of a no-fit).
//
// Thread safety: a loaded Estimator is immutable; Run and Explain are const and may be called
// from any number of threads at once.
#ifndef FITRANK_ENGINE_ESTIMATOR_ESTIMATOR_H_
#define FITRANK_ENGINE_ESTIMATOR_ESTIMATOR_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "catalog/gguf_recipe.h"
#include "catalog/types.h"
#include "engine/estimator/constants.h"
#include "engine/estimator/internal/sizing_state.h"
#include "engine/estimator/setup.h"

namespace fitrank {

struct Basis;
namespace internal {
class Tracer;
struct Ctx;
}

// KV cache element type: llama.cpp --cache-type-k/v (f16, q8_0, q4_0) and the serving engines'
// --kv-cache-dtype fp8 (vLLM, SGLang, TensorRT-LLM). Bytes per element: f16 2, q8_0 34/32,
// q4_0 18/32, fp8 1.
enum class KvCacheType : uint8_t { kF16, kQ8_0, kQ4_0, kFp8 };
// "f16" | "q8_0" | "q4_0" | "fp8". Inline: the ranking's facts name every candidate's.
inline absl::string_view KvCacheTypeName(KvCacheType t) {
  switch (t) {
    case KvCacheType::kF16: return "f16";
    case KvCacheType::kQ8_0: return "q8_0";
    case KvCacheType::kQ4_0: return "q4_0";
    case KvCacheType::kFp8: return "fp8";
  }
  return "f16";
}
bool ParseKvCacheType(absl::string_view text, KvCacheType* out);
double KvBytesPerElement(KvCacheType t);

// Flash attention (llama.cpp -fa, on by default in current builds and in the serving engines).
// Off, the attention scores of a micro-batch are materialised: ubatch x context x heads f32
// values in the compute buffer, written and read in prefill.
enum class FlashAttention : uint8_t { kDefault, kOn, kOff };

struct ResolvedNames;
struct Sizing;  // below the Estimator

// One estimate's inputs. Pointers are not owned and must outlive the call. Zero means
// "default" for the workload numbers; the defaults are in estimator.yaml and are listed in the
// Basis.
struct EstimateInput {
  const Setup* setup = nullptr;      // required
  const Model* model = nullptr;      // required (catalog entry or ModelFromHfConfig)
  const Quant* quant = nullptr;      // the quantization; may be null if bpw > 0 (then F16-like)
  double bpw = 0;                    // > 0 overrides quant->bpw (EXL2 4.65, ...)
  const Runtime* runtime = nullptr;  // null: a llama.cpp-like runtime (listed as a default)
  Backend backend = Backend::kAuto;  // kAuto: DefaultBackend(runtime, first GPU)
  // Parallelism for several GPUs; if the setup's is defaulted, the runtime decides.
  int context = 0;                   // tokens allocated per sequence (KV + buffers)
  int prompt_tokens = 0;             // prompt length (prefill, TTFT)
  int gen_tokens = 0;                // tokens generated (decode averages over them)
  // Concurrent sequences offered. Runtimes that queue (runtime.queues_load: vLLM, SGLang,
  // TensorRT-LLM) run as many as the KV budget and max_num_seqs hold and queue the rest;
  // others must hold them all.
  int batch = 1;
  KvCacheType kv_cache = KvCacheType::kF16;
  int ubatch = 0;                    // micro-batch tokens (llama.cpp -ub); 0: the runtime's
  int max_num_seqs = 0;              // running-sequence limit (vLLM --max-num-seqs); 0: the runtime's
  FlashAttention flash_attn = FlashAttention::kDefault;
  // With one sequence offered (batch 1): whether ServingEstimate's speeds are worked out at
  // the most sequences that fit, what serving at capacity would give (`fitrank estimate` shows
  // it). Off, they stay 0 (max_concurrency, concurrency and queued are still filled): for a
  // ranker, whose batch-1 rules read the one sequence's speeds alone. Sizing does not read it.
  bool serving_speeds_at_capacity = true;
  // With serving_speeds_at_capacity and one sequence offered: the users the speeds are for,
  // > 0 caps the concurrency at them (a serving mode whose sequences did not all fit beside
  // the weights is sized at batch 1; its users cannot run more sequences than there are of
  // them, however many would fit); 0: at capacity. Sizing does not read it.
  int serving_users = 0;
  // Optional: Estimator::ResolveNames of an input with this setup, quant, bpw, runtime and
  // backend (the caller keeps it for many estimates); null: worked out by this estimate.
  const ResolvedNames* names = nullptr;
  // Optional: EstimateGgufSize(*model, quant->id) (catalog/gguf_recipe.h), kept by a caller that
  // sizes one model at one quantization many times (the size per tensor depends on nothing
  // else); null: worked out by this estimate when the quantization is a GGUF file type.
  const GgufSize* gguf = nullptr;
};

// What an estimate works out from the names in its input (catalog strings): the quantization
// and runtime families, the backend, the setup's first memory kind and the problems that do not
// depend on the model. Plain data.
struct ResolvedNames {
  QuantFamily quant_family = QuantFamily::kOther;
  int runtime_family = -1;           // index into constants().runtime_families(), -1 unknown
  Backend backend = Backend::kAuto;  // resolved (never kAuto for a valid setup)
  MemoryKind memory = MemoryKind::kGddr;  // of the setup's first GPU
  uint32_t problems = 0;             // CheckCombination(setup, quant, runtime, backend)
  bool runtime_without_tensor = false;  // the runtime lists its parallelism, without "tensor"
};

enum class FitKind : uint8_t { kNativeComfortable, kNativeTight, kOffload, kNoFit };
// "native-comfortable" | ... | "no-fit". Inline, as KvCacheTypeName.
inline absl::string_view FitKindName(FitKind k) {
  switch (k) {
    case FitKind::kNativeComfortable: return "native-comfortable";
    case FitKind::kNativeTight: return "native-tight";
    case FitKind::kOffload: return "offload";
    case FitKind::kNoFit: return "no-fit";
  }
  return "no-fit";
}
// All in accelerator memory: native-comfortable or native-tight.
inline bool IsNative(FitKind k) {
  return k == FitKind::kNativeComfortable || k == FitKind::kNativeTight;
}

// Things that stop or qualify an estimate; a bit set in Estimate::problems.
enum Problem : uint32_t {
  kProblemQuantNotLoadable = 1u << 0,     // the runtime cannot load this quant family (blocking)
  kProblemPrecisionUnsupported = 1u << 1, // FP8/FP4 weights on hardware without it (blocking)
  kProblemRuntimeNotOnPlatform = 1u << 2, // e.g. MLX on NVIDIA, CUDA-only runtime on AMD (blocking)
  kProblemTensorParallelHeads = 1u << 3,  // TP degree does not divide heads / KV heads (blocking)
  kProblemNoTensorParallel = 1u << 4,     // tensor parallel asked of a runtime without it (blocking)
  kProblemMixedTensorParallel = 1u << 5,  // tensor parallel over different GPUs (blocking)
  kProblemContextBeyondModel = 1u << 6,   // context above the model's maximum (warning)
  kProblemNoOffload = 1u << 7,            // needs host offload the runtime cannot do (warning)
  kProblemInvalidInput = 1u << 8,         // missing setup/model, non-positive numbers (blocking)
  kProblemUnmeasuredBackend = 1u << 9,    // no calibration data for this backend (warning)
};
inline constexpr uint32_t kBlockingProblems =
    kProblemQuantNotLoadable | kProblemPrecisionUnsupported | kProblemRuntimeNotOnPlatform |
    kProblemTensorParallelHeads | kProblemNoTensorParallel | kProblemMixedTensorParallel |
    kProblemInvalidInput;

// One line per problem bit, for users ("Q4_K_M cannot be loaded by vLLM (it loads float, fp8,
// gptq, awq)"). Empty for 0.
std::vector<std::string> DescribeProblems(uint32_t problems, const EstimateInput& in);

struct MemoryEstimate {
  double weights_gb = 0;   // all weights, at the quant's precision (embeddings/head as stored)
  double kv_gb = 0;        // KV cache for `batch` sequences of `context` tokens
  double overhead_gb = 0;  // runtime context + compute buffers, all devices
  double total_gb = 0;     // weights + kv + overhead
  double usable_gb = 0;    // accelerator memory available to the model, all devices
};

struct FitEstimate {
  FitKind kind = FitKind::kNoFit;
  double headroom_pct = 0;  // native: free share of usable memory, 0-100
  double offload_pct = 0;   // offload: share of the working set in host RAM, 0-100
  double host_ram_gb = 0;   // offload: host RAM the offloaded part needs
};

// Low/high bounds reflecting confidence (wider for unmeasured backends, offload, TP over PCIe,
// estimated inputs). low <= value <= high.
struct RangeEstimate {
  double decode_low = 0, decode_high = 0;
  double prefill_low = 0, prefill_high = 0;
  double ttft_low_ms = 0, ttft_high_ms = 0;
  double relative = 0;      // the relative uncertainty used, 0.15 = +-15%
};

struct ServingEstimate {
  int max_concurrency = 0;       // sequences of `context` tokens whose KV fits beside the weights
                                 // (capped by max_num_seqs)
  int concurrency = 0;           // the concurrency the speeds below are for: min(batch, max),
                                 // at batch 1 max (EstimateInput::serving_speeds_at_capacity),
                                 // or min(serving_users, max)
  int queued = 0;                // offered sequences (or serving_users) beyond `concurrency`,
                                 // waiting (queueing runtimes)
  double aggregate_tok_s = 0;    // decode tokens/s summed over `concurrency` sequences
  double per_user_tok_s = 0;     // aggregate / concurrency
};

// Where the weights live, per device group (same order as Setup::devices) and host RAM.
struct PlacementEstimate {
  std::array<double, kMaxDeviceGroups> group_weights_gb{};  // per GPU of each group
  std::array<double, kMaxDeviceGroups> group_usable_gb{};   // per GPU of each group
  double host_weights_gb = 0;
  int groups = 0;
};

struct Estimate {
  MemoryEstimate memory;
  FitEstimate fit;
  int safe_context = 0;        // largest context that fits (native if possible), <= model max
  double decode_tok_s = 0;     // one sequence, averaged over the generated tokens
  double prefill_tok_s = 0;    // prompt tokens/s
  double ttft_ms = 0;          // prefill time + fixed start cost
  RangeEstimate range;
  ServingEstimate serving;
  PlacementEstimate placement;
  uint32_t problems = 0;       // Problem bits
  Backend backend = Backend::kAuto;           // resolved
  Parallelism parallelism = Parallelism::kLayer;  // resolved
  int runtime_family = -1;     // index into constants().runtime_families()
  // Workload after defaults.
  int context = 0, prompt_tokens = 0, gen_tokens = 0, batch = 1;
  KvCacheType kv_cache = KvCacheType::kF16;  // the KV cache element type estimated
  double bpw = 0;              // effective bits per weight used
  double kv_bytes_per_token = 0;    // allocated per token of context (at full context)
  double decode_bytes_per_token_gb = 0;  // weights + KV read per generated token (avg context)
  bool runnable() const { return (problems & kBlockingProblems) == 0; }
  bool runs_natively() const { return runnable() && IsNative(fit.kind); }
  // Whether a smaller KV cache could make it run natively: it has a KV cache, does not fit,
  // and its weights alone fit beside the runtime overhead (native needs weights + KV within
  // usable - overhead, whatever the cache type).
  bool smaller_kv_could_fit() const {
    return memory.kv_gb > 0 && !IsNative(fit.kind) &&
           memory.weights_gb <= memory.usable_gb - memory.overhead_gb;
  }
};

// Diffusion (image / video generation).
struct DiffusionInput {
  const Setup* setup = nullptr;
  const DiffusionModel* model = nullptr;
  int width = 0, height = 0;   // 0: the model's default
  int steps = 0;               // 0: the model's default
  int frames = 0;              // video: 0 = the model's default; images: ignored
  // Denoiser bits per weight (16 BF16/FP16, 8 FP8, 8.5 GGUF Q8_0, 4.5 GGUF Q4_0). 0: the
  // highest precision whose denoiser stays on the GPU: 16, else FP8 (CUDA) or Q8_0 (other
  // backends), else Q4_0; resident without help before resident with the text encoders parked
  // in host RAM; if none, the 8-bit denoiser streamed from host RAM each step.
  double weight_bits = 0;
  Backend backend = Backend::kAuto;
};

struct DiffusionEstimate {
  double weights_gb = 0;        // denoiser + text encoders (16-bit) + VAE
  double activations_gb = 0;    // at the resolution / frames, one pass
  double overhead_gb = 0;
  // Peak accelerator memory: max(denoiser + activations, text encoders) + VAE + overhead (the
  // text encoders run once per prompt and are freed before sampling).
  double total_gb = 0;
  double usable_gb = 0;
  // offload: the text encoders wait in host RAM and are moved in for the prompt (denoiser
  // resident), or, with denoiser_streamed, the denoiser is streamed over PCIe every step.
  FitKind fit = FitKind::kNoFit;
  bool denoiser_streamed = false;
  double weight_bits = 0;           // denoiser precision used
  absl::string_view precision;      // its name: "BF16" | "FP8" | "Q8_0" | "Q4_0" | "custom"
  int denoiser_passes = 0;          // per step: 2 with classifier-free guidance, else 1
  double latent_tokens = 0;         // per pass: image (+ reference image) + joint text tokens
  double tflop_per_step = 0;        // all passes of one step
  double step_ms = 0;
  double seconds_per_image = 0;   // whole generation (all frames for video) incl. VAE
  double seconds_per_frame = 0;   // video: seconds_per_image / frames; images: = per image
  double low_s = 0, high_s = 0;   // range of seconds_per_image
  int width = 0, height = 0, steps = 0, frames = 0;
};

class Estimator {
 public:
  // Reads engine/estimator/estimator.yaml from `source`. Every problem goes to `diags` (file:line:col);
  // returns nullptr if there was any error.
  static std::unique_ptr<Estimator> Load(const FileSource& source, Diagnostics* diags);
  // The same from text (tests).
  static std::unique_ptr<Estimator> FromYaml(absl::string_view content, absl::string_view file,
                                             Diagnostics* diags);

  // The fast path: fills `*out` completely. Never allocates, never throws, never produces NaN
  // or infinity; blocking problems leave speeds at 0 but memory and fit are still filled where
  // they can be.
  void Run(const EstimateInput& in, Estimate* out) const;

  // The names of `in` resolved (see ResolvedNames); `in` needs a setup with a first GPU.
  ResolvedNames ResolveNames(const EstimateInput& in) const;

  // Run in two steps, for callers that estimate one sizing at several prompt / generation
  // lengths: Finish(in, sizing) after Size(in', &sizing) fills exactly what Run(in) would, when
  // `in` and `in'` differ at most in prompt_tokens and gen_tokens (and their pointees are the
  // same objects, unchanged). Neither allocates.
  void Size(const EstimateInput& in, Sizing* out) const;
  // What Size(in, out) fills, worked out from `like`, a Sizing made (by Size or SizeLike) of an
  // input that differs from `in` at most in context, prompt_tokens, gen_tokens, batch and
  // kv_cache, and in the setup when that is another count of the same one Gpu
  // (SameGpuOtherCount; host, link and parallelism may differ too): the model's shape,
  // the resolved constants and names are `like`'s, and its safe context too when the GPU
  // count, the batch run and the KV cache type are the same (the safe context does not depend
  // on the context asked for); the rest is worked out again (for another GPU count, the
  // parallelism and its problems too). For callers that size one candidate at many contexts
  // and GPU counts (a ranker over workloads and modes; scale-out). `out` must not be `like`.
  // Does not allocate.
  void SizeLike(const EstimateInput& in, const Sizing& like, Sizing* out) const;
  void Finish(const EstimateInput& in, const Sizing& sizing, Estimate* out) const;
  // Finish(in, sizing, &e)'s e.decode_tok_s alone (prefill, serving and the range are not
  // worked out): for callers that read only the batch-1 decode speed. Does not allocate.
  double FinishDecodeTokS(const EstimateInput& in, const Sizing& sizing) const;

  // Same numbers as Run, plus the basis: formulas with their inputs, the constants used (value,
  // source, selecting case), the inputs that were defaults, and why the range is what it is.
  void Explain(const EstimateInput& in, Estimate* out, Basis* basis) const;

  // Diffusion: memory, fit, precision and time per image / frame (engine/diffusion.cc). Fills
  // `*out` completely; all numbers finite and >= 0; speeds 0 for a no-fit or invalid input.
  void RunDiffusion(const DiffusionInput& in, DiffusionEstimate* out) const;

  // ---- Helpers for the ranker ----

  // The runtime fitrank suggests for this setup and quant: the quant's first listed runtime
  // that runs on the setup's platform, preferring llama.cpp-family runtimes for GGUF on one
  // machine, MLX on Apple for MLX quants, vLLM for tensor-parallel formats. nullptr if none.
  const Runtime* DefaultRuntime(const Catalog& catalog, const Setup& setup,
                                const Quant* quant) const;
  // The backend `runtime` uses on `gpu` (CUDA on NVIDIA, ROCm or Vulkan on AMD, Metal on
  // Apple, SYCL on Intel, CPU for CPU entries). runtime may be null (llama.cpp-like).
  Backend DefaultBackend(const Runtime* runtime, const Gpu& gpu) const;
  // Whether (setup, quant, runtime) can run at all: Problem bits among kBlockingProblems that
  // do not depend on the model (quant loadable, precision, platform). 0 = can run.
  uint32_t CheckCombination(const Setup& setup, const Quant* quant, const Runtime* runtime,
                            Backend backend = Backend::kAuto) const;
  // Accelerator memory one GPU of `gpu` lets a model use, GB (VRAM minus reserve; Apple at the
  // working-set share; APUs at their GPU share), for `runtime` (vLLM claims a share).
  double UsableMemoryGb(const Gpu& gpu, const Runtime* runtime = nullptr,
                        Backend backend = Backend::kAuto) const;
  // The KV cache type `runtime` can fall back to when an f16 cache does not fit natively
  // (runtime.kv_cache_quant: q8_0 for llama.cpp-family runtimes), or kF16 if none. Null
  // runtime: none.
  KvCacheType FallbackKvCache(const Runtime* runtime) const;
  // KV cache bytes per token of context at `context` tokens (sliding layers capped at the
  // window), for one sequence.
  double KvBytesPerToken(const Model& model, int context, KvCacheType type) const;

  const Constants& constants() const { return constants_; }

 private:
  void RunImpl(const EstimateInput& in, Estimate* out, internal::Tracer* trace) const;
  // The two halves of RunImpl on one working state (`c` set up by SizeImpl).
  bool SizeImpl(const EstimateInput& in, Estimate* out, internal::Ctx* c) const;
  // The working state Finish starts from: `sizing`'s, with `in`'s lengths.
  void FinishState(const EstimateInput& in, const Sizing& sizing, internal::Ctx* c) const;
  void FinishImpl(internal::Ctx* c, Estimate* out) const;

  Constants constants_;
};

// The KV cache type a candidate runs with, as people do before they offload layers: f16,
// unless the f16 estimate does not run natively only for lack of room for its cache
// (Estimate::smaller_kv_could_fit) and the runtime's `fallback` (Estimator::FallbackKvCache)
// then runs natively. `estimate_at(type)` returns the estimate with that cache type; it is
// called only when the fallback is worth trying. One rule for the ranker and the reports.
template <typename EstimateAt>
KvCacheType ChooseKvCache(const Estimate& f16, KvCacheType fallback, EstimateAt&& estimate_at) {
  if (fallback == KvCacheType::kF16 || !f16.runnable() || !f16.smaller_kv_could_fit()) {
    return KvCacheType::kF16;
  }
  return estimate_at(fallback).runs_natively() ? fallback : KvCacheType::kF16;
}

// The part of an estimate that depends only on its input's setup, model, quant, bpw, runtime,
// backend, context, batch and KV cache type, not on prompt_tokens or gen_tokens: memory, fit,
// safe context, placement, problems and the resolved choices. Made by Estimator::Size and
// turned into a full Estimate by Estimator::Finish, any number of times, for any prompt and
// generation lengths (a ranker shares one across workloads and modes of the same context).
// Plain data (no pointers into the input); copyable.
struct Sizing {
  // As Run would fill it, except speeds, range and serving (all 0), but for
  // serving.max_concurrency: what the finished estimates will show (0 when they do not run).
  Estimate estimate;
  internal::SizingState state;  // the estimator's working state, for Finish
  bool valid = false;           // false: the input was invalid (estimate.problems says so)

  // True if no batch and no KV cache type runs this candidate natively on this setup at this
  // context: its weights alone exceed what the devices keep for weights and KV cache after
  // their reserves and overheads (SizingState::device_cap_gb, which neither changes). The fit
  // is native only when weights + KV fit in that (fit.cc), and the KV cache adds to the weights.
  bool weights_overflow() const {
    return valid && state.m.weights_bytes / 1e9 > state.device_cap_gb;
  }
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ESTIMATOR_ESTIMATOR_H_
