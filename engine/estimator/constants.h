// The estimator's calibration constants, read from engine/estimator/estimator.yaml.
//
// Every number the estimator uses that is not a physical fact of the catalog (bandwidth, FLOPS,
// layers, ...) is a named constant here, and its value lives in the YAML file with its source.
// A constant has a default `value` and optional `cases` that override it for a selection of
// backend, runtime family, quant family, memory kind, GPU segment, MoE-ness and model size
// class; the most specific matching case wins (ties: the first listed). Constants never depend
// on a GPU's or model's name.
//
// YAML shape (engine/estimator/estimator.yaml documents every constant):
//
//   schema: fitrank.estimator/v1
//   sources: { key: "text", ... }
//   runtimes:                       # runtime families; catalog runtime ids map onto them
//     - family: llama.cpp
//       ids: [llama.cpp, ollama, lm-studio]
//   constants:
//     decode.bw_efficiency:
//       unit: fraction
//       doc: "share of peak memory bandwidth batch-1 decode kernels reach"
//       source: xdai-2024           # a key of `sources` or free text
//       value: 0.85
//       cases:
//         - {memory: hbm, value: 0.55, source: xdai-2024}
//
// Thread safety: a loaded Constants object is immutable and may be shared across threads.
#ifndef FITRANK_ENGINE_ESTIMATOR_CONSTANTS_H_
#define FITRANK_ENGINE_ESTIMATOR_CONSTANTS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "catalog/types.h"
#include "engine/estimator/setup.h"

namespace fitrank {

// Quantization families, from Quant::family.
enum class QuantFamily : uint8_t {
  kGgufLegacy,  // Q4_0, Q5_0, Q8_0 ... simple block formats
  kGgufK,       // K-quants (Q2_K ... Q6_K, unsloth UD-*_XL)
  kGgufIq,      // IQ-quants (importance-matrix lattice formats)
  kFloat,       // F32, F16, BF16
  kFp8,
  kFp4,         // FP4 / NVFP4 / MXFP4
  kGptq,
  kAwq,
  kExl2,
  kMlc,         // MLC q4f16_1 and friends
  kMlx,         // MLX group quantization
  kOther,
};
inline constexpr int kQuantFamilyCount = 12;
QuantFamily QuantFamilyOf(absl::string_view family);  // unknown text -> kOther
absl::string_view QuantFamilyName(QuantFamily f);     // the catalog spelling

// NormalizeName(a) == normalized (lower-case, no spaces/underscores/hyphens), allocation-free.
bool SameNormalizedName(absl::string_view a, absl::string_view normalized);

// Model size classes, by total parameters: small < 4B <= medium < 40B <= large.
enum class SizeClass : uint8_t { kSmall, kMedium, kLarge };
SizeClass SizeClassOf(double params_b);

// The names of every constant. The YAML must define each exactly once.
enum class K : uint16_t {
  // memory
  kReserveGb,                 // GB kept free on the first discrete GPU (driver, display)
  kSecondaryReserveGb,        // GB kept free on each further GPU of a rig
  kRuntimeContextGb,          // GB the runtime's device context takes per GPU
  kActivationBytesPerHidden,  // compute-buffer bytes per ubatch token per hidden unit
  kUbatchTokens,              // tokens per micro-batch (prefill chunk)
  kRuntimeMemoryShare,        // share of device memory the runtime claims (vLLM 0.9)
  kAppleShareSmall,           // Apple GPU working-set share of RAM up to the threshold
  kAppleShareLarge,           // ... above it
  kAppleShareThresholdGb,
  kApuShare,                  // APU GPU share when the catalog gives none
  kHostOsReserveGb,           // host RAM kept for the OS and applications
  kEmbeddingBpw,              // bits per input-embedding weight (0 = the quant's bpw)
  kOutputBpw,                 // bits per output-head weight (0 = the quant's bpw)
  kMoeDenseBpw,               // MoE: bits of the non-expert weights (0 = the quant's bpw)
  kTightHeadroomPct,          // below this free share a native fit is "tight"
  // host profiles
  kHostRamGb,
  kHostBandwidthGbps,
  kHostTflops,
  kHostBwEfficiency,          // share of host bandwidth CPU decode reaches
  kUnifiedCpuBwShare,         // share of unified bandwidth the CPU side reaches
  // decode
  kDecodeBwEfficiency,
  kDecodeLayerUs,             // per-layer fixed cost, host side (launch, sync)
  kDecodeLayerWorkUsTflops,   // per-layer fixed GPU-side cost, microseconds x FP32 TFLOPS
  kDecodeTokenMs,             // per-token fixed cost (sampling, output, scheduling)
  kDequantOpsPerWeight,       // vector ops per weight to dequantize and multiply
  kDecodeVectorEfficiency,    // share of FP32 vector rate dequant math reaches
  kLayerSplitBoundaryUs,      // per GPU boundary per token in a layer split
  // tensor parallel
  kTpLinkLatencyUs,           // all-reduce step latency when the link gives none
  kTpAllreduceOverheadUs,     // per all-reduce launch/sync cost in the runtime
  kTpSyncsPerLayer,           // activation exchanges per layer under tensor parallelism
  kTpGatherToMain,            // 1: exchanges go through the main GPU, one peer at a time
  // prefill
  kPrefillEfficiency,         // share of the dense matrix peak prefill reaches
  kPrefillFp32Accumulate,     // 1: the runtime's GEMMs accumulate in FP32
  kPrefillQuantEfficiency,    // multiplier on prefill efficiency for quantized weights
  kGemmHalfTokens,            // rows (tokens) at which a GEMM reaches half its efficiency
  kPrefillStartMs,            // fixed time to first token (tokenize, schedule)
  kPrefillTflopsPerWatt,      // dense 16-bit TFLOPS a board sustains per watt of TDP
  kPrefillLowPrecisionMatmul, // 1: FP8/FP4 weights run FP8/FP4 GEMMs (0: dequantized to 16 bits)
  kPrefillLowPrecisionShare,  // share of the FP8/FP4 peak those GEMMs reach
  kPrefillDp4a,               // 1: GGUF GEMMs use int8 dot products on GPUs without fast FP16
  // runtime behaviour
  kHostOffload,               // 1: the runtime can keep layers in host RAM
  kTensorParallelDefault,     // 1: multi-GPU defaults to tensor parallel
  kServingMaxSequences,       // concurrent sequences the runtime schedules at most
  kKvCacheQuant,              // 1: the runtime can keep the KV cache at q8_0 when f16 is too big
  kQueuesLoad,                // 1: offered sequences beyond the KV budget wait in a queue
  kFlashAttention,            // 1: the runtime uses flash attention by default
  kScorePasses,               // without flash attention: passes over the f32 score matrix
  // diffusion
  kDiffusionEfficiency,       // share of the FP16 peak a denoiser step reaches
  kDiffusionStepOverheadMs,
  kDiffusionActivationBytes,  // activation bytes per latent token per hidden unit
  kDiffusionVaeGflopsPerMpx,  // VAE decode work per output megapixel
  kDiffusionFp8Matmul,        // 1: FP8 denoiser weights run FP8 matmuls where the GPU has them
  // ranges (relative uncertainty, 0.15 = +-15%)
  kRangeBase,
  kRangePrefill,              // prefill/TTFT relative uncertainty (replaces range.base)
  kRangeOffload,
  kRangeTensorPcie,
  kRangeEstimatedInput,
  kRangeMixedRig,
  // workload defaults
  kDefaultContext,
  kDefaultPrompt,
  kDefaultGen,
  kCount,
};
inline constexpr int kConstantCount = static_cast<int>(K::kCount);

struct ConstantSpec {
  K id;
  const char* name;  // "decode.bw_efficiency"
  const char* unit;  // "fraction", "us", "GB", ...
  double min, max;   // accepted range
};
const ConstantSpec& SpecOf(K id);

// What a constant is selected by. -1 in a case means "any".
struct ConstantKey {
  int8_t backend = -1;     // Backend
  int8_t runtime = -1;     // runtime family index into Constants::runtime_families()
  int8_t quant = -1;       // QuantFamily
  int8_t memory = -1;      // MemoryKind
  int8_t segment = -1;     // Segment
  int8_t moe = -1;         // 0 dense, 1 MoE
  int8_t size = -1;        // SizeClass
};

struct ConstantCase {
  ConstantKey key;
  int specificity = 0;     // number of fields set
  double value = 0;
  std::string source;      // resolved text
  std::string label;       // "memory=hbm, runtime=llama.cpp"
  Location where;
};

struct Constant {
  K id = K::kCount;
  double value = 0;
  std::string source;
  std::string doc;
  std::vector<ConstantCase> cases;
  Location where;
};

// Every constant's value for one ConstantKey, as Constants::Get would return it: resolved at
// once by Constants::Resolve so that an estimate reads its constants from a plain array. Left
// uninitialized until Resolve fills it (an estimate makes several on its stack).
struct ResolvedConstants {
  std::array<double, kConstantCount> value;
  double operator[](K id) const { return value[static_cast<int>(id)]; }
};

struct RuntimeFamily {
  std::string family;             // "llama.cpp"
  std::vector<std::string> ids;   // catalog runtime ids (normalised) in this family
};

class Constants {
 public:
  // Parses `content` (display name `file`). Reports every problem to `diags` with
  // file:line:col; returns false if there was any error (the object is then unusable).
  bool Parse(absl::string_view content, absl::string_view file, Diagnostics* diags);

  // The value for `key`; `matched` (optional) receives the case used (nullptr: the default).
  // Allocation-free.
  double Get(K id, const ConstantKey& key, const ConstantCase** matched = nullptr) const {
    const Constant& c = constants_[static_cast<int>(id)];
    const ConstantCase* best = nullptr;
    for (const ConstantCase& cs : c.cases) {
      const ConstantKey& k = cs.key;
      if ((k.backend >= 0 && k.backend != key.backend) ||
          (k.runtime >= 0 && k.runtime != key.runtime) ||
          (k.quant >= 0 && k.quant != key.quant) || (k.memory >= 0 && k.memory != key.memory) ||
          (k.segment >= 0 && k.segment != key.segment) || (k.moe >= 0 && k.moe != key.moe) ||
          (k.size >= 0 && k.size != key.size)) {
        continue;
      }
      if (best == nullptr || cs.specificity > best->specificity) best = &cs;
    }
    if (matched != nullptr) *matched = best;
    return best != nullptr ? best->value : c.value;
  }
  // Get(id, key, nullptr) by a table lookup (built by Parse: every combination of the fields
  // the constant's cases select by). Any key field may be -1 or in its enum's range; a key
  // outside that falls back to Get. Allocation-free.
  double Lookup(K id, const ConstantKey& key) const;
  // out->value[i] = Get(K(i), key) for every constant. Allocation-free. The last keys resolved
  // on the calling thread are kept (a small table per thread, for any Constants: an estimate
  // resolves one key per sizing and a ranking sees few distinct keys), so a repeated key
  // costs a copy; thread-safe, the values are the same either way.
  void Resolve(const ConstantKey& key, ResolvedConstants* out) const;

  // The default value (no case).
  double Default(K id) const { return constants_[static_cast<int>(id)].value; }
  const Constant& constant(K id) const { return constants_[static_cast<int>(id)]; }

  // Runtime family index of a catalog runtime id (normalised match), or -1.
  int RuntimeFamilyOf(absl::string_view runtime_id) const;
  const std::vector<RuntimeFamily>& runtime_families() const { return families_; }
  // Index of a family by its name, or -1.
  int FamilyIndex(absl::string_view family) const;

 private:
  // The fields of ConstantKey, in declaration order, for the lookup tables.
  static constexpr int kKeyFields = 7;
  // One constant's values over the key fields its cases use: index = sum over those fields of
  // stride x (field value + 1), a field value of -1 ("any") having slot 0.
  struct Table {
    int fields = 0;                          // fields used
    std::array<int8_t, kKeyFields> field{};  // which (index into the key's fields)
    std::array<int32_t, kKeyFields> stride{};
    std::vector<double> values;
  };
  void BuildTables();
  // Resolve without the per-thread table.
  void ResolveUncached(const std::array<int, kKeyFields>& slot, ResolvedConstants* out) const;
  // The key's fields, each + 1 (slot), into `slot`; false if one is out of range.
  bool Slots(const ConstantKey& key, std::array<int, kKeyFields>* slot) const;

  std::array<Constant, kConstantCount> constants_;
  std::vector<RuntimeFamily> families_;
  std::array<int, kKeyFields> cardinality_{};  // values each key field takes, -1 included
  std::array<Table, kConstantCount> tables_;
  // Names the tables for Resolve's per-thread table: set anew by every BuildTables (unique in
  // the process), so a table entry is never taken for another Constants' or older tables'.
  uint64_t tables_id_ = 0;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ESTIMATOR_CONSTANTS_H_
