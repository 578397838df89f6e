#include "engine/estimator/constants.h"

#include "catalog/vocabulary.h"

#include <atomic>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/text.h"
#include "base/yaml_reader.h"

namespace fitrank {
namespace {

constexpr double kBig = 1e9;

// The table of constants: name, unit and accepted range. Values live in estimator.yaml.
const ConstantSpec kSpecs[] = {
    {K::kReserveGb, "memory.reserve_gb", "GB", 0, 64},
    {K::kSecondaryReserveGb, "memory.secondary_reserve_gb", "GB", 0, 64},
    {K::kRuntimeContextGb, "memory.runtime_context_gb", "GB", 0, 16},
    {K::kActivationBytesPerHidden, "memory.activation_bytes_per_hidden", "bytes", 0, 4096},
    {K::kUbatchTokens, "memory.ubatch_tokens", "tokens", 1, 65536},
    {K::kRuntimeMemoryShare, "memory.runtime_memory_share", "fraction", 0.05, 1},
    {K::kAppleShareSmall, "memory.apple_share_small", "fraction", 0.05, 1},
    {K::kAppleShareLarge, "memory.apple_share_large", "fraction", 0.05, 1},
    {K::kAppleShareThresholdGb, "memory.apple_share_threshold_gb", "GB", 0, 4096},
    {K::kApuShare, "memory.apu_share", "fraction", 0.05, 1},
    {K::kHostOsReserveGb, "memory.host_os_reserve_gb", "GB", 0, 1024},
    {K::kEmbeddingBpw, "memory.embedding_bpw", "bits", 0, 32},
    {K::kOutputBpw, "memory.output_bpw", "bits", 0, 32},
    {K::kMoeDenseBpw, "memory.moe_dense_bpw", "bits", 0, 32},
    {K::kTightHeadroomPct, "fit.tight_headroom_pct", "percent", 0, 100},
    {K::kHostRamGb, "host.ram_gb", "GB", 0, 1e5},
    {K::kHostBandwidthGbps, "host.bandwidth_gbps", "GB/s", 0, 1e5},
    {K::kHostTflops, "host.tflops", "TFLOPS", 0, 1e4},
    {K::kHostBwEfficiency, "host.bw_efficiency", "fraction", 0.01, 1},
    {K::kUnifiedCpuBwShare, "host.unified_cpu_bw_share", "fraction", 0.01, 1},
    {K::kDecodeBwEfficiency, "decode.bw_efficiency", "fraction", 0.01, 1},
    {K::kDecodeLayerUs, "decode.layer_overhead_us", "us", 0, 1e5},
    {K::kDecodeLayerWorkUsTflops, "decode.layer_work_us_tflops", "us*TFLOPS", 0, 1e7},
    {K::kDecodeTokenMs, "decode.token_overhead_ms", "ms", 0, 1e4},
    {K::kDequantOpsPerWeight, "decode.dequant_ops_per_weight", "ops", 0, 1000},
    {K::kDecodeVectorEfficiency, "decode.vector_efficiency", "fraction", 0.001, 1},
    {K::kLayerSplitBoundaryUs, "decode.layer_split_boundary_us", "us", 0, 1e5},
    {K::kTpLinkLatencyUs, "tp.link_latency_us", "us", 0, 1e5},
    {K::kTpAllreduceOverheadUs, "tp.allreduce_overhead_us", "us", 0, 1e5},
    {K::kTpSyncsPerLayer, "tp.syncs_per_layer", "syncs", 1, 32},
    {K::kTpGatherToMain, "tp.gather_to_main", "0|1", 0, 1},
    {K::kPrefillEfficiency, "prefill.matmul_efficiency", "fraction", 0.001, 1},
    {K::kPrefillFp32Accumulate, "prefill.fp32_accumulate", "0|1", 0, 1},
    {K::kPrefillQuantEfficiency, "prefill.quant_efficiency", "factor", 0.01, 2},
    {K::kGemmHalfTokens, "prefill.gemm_half_tokens", "tokens", 0, 1e5},
    {K::kPrefillStartMs, "prefill.start_ms", "ms", 0, 1e5},
    {K::kPrefillTflopsPerWatt, "prefill.tflops_per_watt", "TFLOPS/W", 0, 100},
    {K::kPrefillLowPrecisionMatmul, "prefill.low_precision_matmul", "0|1", 0, 1},
    {K::kPrefillLowPrecisionShare, "prefill.low_precision_share", "fraction", 0.01, 1},
    {K::kPrefillDp4a, "prefill.dp4a", "0|1", 0, 1},
    {K::kHostOffload, "runtime.host_offload", "0|1", 0, 1},
    {K::kTensorParallelDefault, "runtime.tensor_parallel_default", "0|1", 0, 1},
    {K::kServingMaxSequences, "runtime.serving_max_sequences", "sequences", 1, 1e5},
    {K::kKvCacheQuant, "runtime.kv_cache_quant", "0|1", 0, 1},
    {K::kQueuesLoad, "runtime.queues_load", "0|1", 0, 1},
    {K::kFlashAttention, "runtime.flash_attention", "0|1", 0, 1},
    {K::kScorePasses, "prefill.attention_score_passes", "passes", 0, 100},
    {K::kDiffusionEfficiency, "diffusion.compute_efficiency", "fraction", 0.001, 1},
    {K::kDiffusionStepOverheadMs, "diffusion.step_overhead_ms", "ms", 0, 1e5},
    {K::kDiffusionActivationBytes, "diffusion.activation_bytes_per_token_hidden", "bytes", 0, 1e4},
    {K::kDiffusionVaeGflopsPerMpx, "diffusion.vae_gflops_per_mpixel", "GFLOP", 0, 1e7},
    {K::kDiffusionFp8Matmul, "diffusion.fp8_matmul", "0|1", 0, 1},
    {K::kRangeBase, "range.base", "fraction", 0, 5},
    {K::kRangePrefill, "range.prefill", "fraction", 0, 5},
    {K::kRangeOffload, "range.offload", "fraction", 0, 5},
    {K::kRangeTensorPcie, "range.tensor_parallel_pcie", "fraction", 0, 5},
    {K::kRangeEstimatedInput, "range.estimated_input", "fraction", 0, 5},
    {K::kRangeMixedRig, "range.mixed_rig", "fraction", 0, 5},
    {K::kDefaultContext, "workload.default_context", "tokens", 1, kBig},
    {K::kDefaultPrompt, "workload.default_prompt", "tokens", 1, kBig},
    {K::kDefaultGen, "workload.default_gen", "tokens", 1, kBig},
};
static_assert(sizeof(kSpecs) / sizeof(kSpecs[0]) == kConstantCount,
              "every constant needs a spec");

struct FamilyName {
  QuantFamily f;
  const char* name;
};
const FamilyName kQuantFamilies[] = {
    {QuantFamily::kGgufLegacy, "gguf-legacy"}, {QuantFamily::kGgufK, "gguf-k"},
    {QuantFamily::kGgufIq, "gguf-iq"},         {QuantFamily::kFloat, "float"},
    {QuantFamily::kFp8, "fp8"},                {QuantFamily::kFp4, "fp4"},
    {QuantFamily::kGptq, "gptq"},              {QuantFamily::kAwq, "awq"},
    {QuantFamily::kExl2, "exl2"},              {QuantFamily::kMlc, "mlc"},
    {QuantFamily::kMlx, "mlx"},                {QuantFamily::kOther, "other"},
};

const char* const kSizes[] = {"small", "medium", "large"};

std::vector<std::string> Names(const char* const* names, int n) {
  return std::vector<std::string>(names, names + n);
}

}  // namespace

const ConstantSpec& SpecOf(K id) { return kSpecs[static_cast<int>(id)]; }

QuantFamily QuantFamilyOf(absl::string_view f) {
  // Allocation-free: called on the estimator's fast path.
  for (const FamilyName& n : kQuantFamilies) {
    if (absl::EqualsIgnoreCase(f, n.name)) return n.f;
  }
  if (absl::EqualsIgnoreCase(f, "gguf") || absl::EqualsIgnoreCase(f, "k-quant")) return QuantFamily::kGgufK;
  if (absl::EqualsIgnoreCase(f, "bf16") || absl::EqualsIgnoreCase(f, "f16") ||
      absl::EqualsIgnoreCase(f, "fp16")) {
    return QuantFamily::kFloat;
  }
  if (absl::EqualsIgnoreCase(f, "mxfp4") || absl::EqualsIgnoreCase(f, "nvfp4")) return QuantFamily::kFp4;
  return QuantFamily::kOther;
}

bool SameNormalizedName(absl::string_view a, absl::string_view normalized) {
  // NormalizeName(a) == normalized, without allocating.
  size_t j = 0;
  for (char ch : a) {
    if (ch == ' ' || ch == '_' || ch == '-') continue;
    if (j >= normalized.size() || absl::ascii_tolower(static_cast<unsigned char>(ch)) != normalized[j]) {
      return false;
    }
    ++j;
  }
  return j == normalized.size();
}

absl::string_view QuantFamilyName(QuantFamily f) {
  return kQuantFamilies[static_cast<int>(f)].name;
}

SizeClass SizeClassOf(double params_b) {
  if (params_b < 4) return SizeClass::kSmall;
  if (params_b < 40) return SizeClass::kMedium;
  return SizeClass::kLarge;
}

int Constants::RuntimeFamilyOf(absl::string_view runtime_id) const {
  for (size_t i = 0; i < families_.size(); ++i) {
    for (const std::string& id : families_[i].ids) {
      if (SameNormalizedName(runtime_id, id)) return static_cast<int>(i);
    }
  }
  return -1;
}

int Constants::FamilyIndex(absl::string_view family) const {
  for (size_t i = 0; i < families_.size(); ++i) {
    if (families_[i].family == family) return static_cast<int>(i);
  }
  return -1;
}

bool Constants::Slots(const ConstantKey& key, std::array<int, kKeyFields>* slot) const {
  const int8_t v[kKeyFields] = {key.backend, key.runtime, key.quant, key.memory,
                                key.segment, key.moe,     key.size};
  for (int f = 0; f < kKeyFields; ++f) {
    if (v[f] < -1 || v[f] + 1 >= cardinality_[f]) return false;
    (*slot)[f] = v[f] + 1;
  }
  return true;
}

double Constants::Lookup(K id, const ConstantKey& key) const {
  std::array<int, kKeyFields> slot;
  if (!Slots(key, &slot)) return Get(id, key);
  const Table& t = tables_[static_cast<int>(id)];
  int index = 0;
  for (int i = 0; i < t.fields; ++i) index += t.stride[i] * slot[t.field[i]];
  return t.values[index];
}

void Constants::Resolve(const ConstantKey& key, ResolvedConstants* out) const {
  std::array<int, kKeyFields> slot;
  if (!Slots(key, &slot)) {
    for (int i = 0; i < kConstantCount; ++i) out->value[i] = Get(K(i), key);
    return;
  }
  // Per thread, the last resolutions by (tables, key), direct-mapped: a sweep or a ranking
  // resolves the same few keys (one GPU, a few runtimes and quant families, the models' size
  // classes) hundreds of thousands of times, and a lookup of every constant costs ~15x a copy.
  struct Entry {
    uint64_t tables = 0;  // tables_id_ of the Constants that filled it; 0: empty
    uint64_t key = 0;
    ResolvedConstants value;
  };
  static constexpr int kEntries = 64;
  thread_local std::array<Entry, kEntries> recent;
  uint64_t packed = 0;
  for (int f = 0; f < kKeyFields; ++f) packed = packed << 8 | static_cast<uint64_t>(slot[f]);
  Entry& e = recent[(packed * 0x9E3779B97F4A7C15ull) >> 58];  // top 6 bits: kEntries = 64
  if (e.tables == tables_id_ && e.key == packed) {
    *out = e.value;
    return;
  }
  ResolveUncached(slot, out);
  e.tables = tables_id_;
  e.key = packed;
  e.value = *out;
}

void Constants::ResolveUncached(const std::array<int, kKeyFields>& slot,
                                ResolvedConstants* out) const {
  for (int c = 0; c < kConstantCount; ++c) {
    const Table& t = tables_[c];
    int index = 0;
    for (int i = 0; i < t.fields; ++i) index += t.stride[i] * slot[t.field[i]];
    out->value[c] = t.values[index];
  }
}

void Constants::BuildTables() {
  static std::atomic<uint64_t> next_tables_id{1};
  tables_id_ = next_tables_id.fetch_add(1);
  cardinality_ = {kBackendCount + 1,
                  static_cast<int>(families_.size()) + 1,
                  kQuantFamilyCount + 1,
                  kMemoryKindCount + 1,
                  static_cast<int>(SegmentNames().size()) + 1,
                  2 + 1,
                  3 + 1};
  for (int c = 0; c < kConstantCount; ++c) {
    Table& t = tables_[c];
    t = Table{};
    bool used[kKeyFields] = {};
    for (const ConstantCase& cs : constants_[c].cases) {
      const int8_t v[kKeyFields] = {cs.key.backend, cs.key.runtime, cs.key.quant, cs.key.memory,
                                    cs.key.segment, cs.key.moe,     cs.key.size};
      for (int f = 0; f < kKeyFields; ++f) used[f] = used[f] || v[f] >= 0;
    }
    int size = 1;
    for (int f = 0; f < kKeyFields; ++f) {
      if (!used[f]) continue;
      t.field[t.fields] = static_cast<int8_t>(f);
      t.stride[t.fields] = size;
      ++t.fields;
      size *= cardinality_[f];
    }
    // Fill every combination through Get itself, so a lookup returns exactly what Get would.
    t.values.resize(size);
    for (int index = 0; index < size; ++index) {
      int8_t v[kKeyFields] = {-1, -1, -1, -1, -1, -1, -1};
      int rest = index;
      for (int i = t.fields - 1; i >= 0; --i) {
        v[t.field[i]] = static_cast<int8_t>(rest / t.stride[i] - 1);
        rest %= t.stride[i];
      }
      ConstantKey key;
      key.backend = v[0];
      key.runtime = v[1];
      key.quant = v[2];
      key.memory = v[3];
      key.segment = v[4];
      key.moe = v[5];
      key.size = v[6];
      t.values[index] = Get(K(c), key);
    }
  }
}

bool Constants::Parse(absl::string_view content, absl::string_view file, Diagnostics* diags) {
  const int errors_before = diags->error_count();
  std::unique_ptr<YamlTree> tree = ParseYaml(content, file, diags);
  if (tree == nullptr) return false;
  MapReader top(tree->root(), std::string(file), diags, "the estimator constants file",
                "engine/estimator/CALIBRATION.md");
  if (!top.ok()) return false;
  std::string schema;
  if (top.Required("schema", &schema) && schema != "fitrank.estimator/v1") {
    diags->Error("bad-schema", top.WhereOf("schema"),
                 absl::StrCat("unknown schema `", schema, "`"),
                 "this fitrank reads `fitrank.estimator/v1`");
  }

  // sources: key -> text
  std::map<std::string, std::string, std::less<>> sources;
  YamlNode src = top.Child("sources");
  if (src.IsDefined()) {
    if (!src.IsMap()) {
      diags->Error("wrong-type", src.Where(file), "`sources` must be a map of key: text");
    } else {
      for (size_t i = 0; i < src.size(); ++i) {
        if (!src.Value(i).IsScalar()) {
          diags->Error("wrong-type", src.Value(i).Where(file), "a source must be text");
          continue;
        }
        sources[std::string(src.Key(i).Scalar())] = std::string(src.Value(i).Scalar());
      }
    }
  }
  auto resolve_source = [&](const std::string& s) -> std::string {
    auto it = sources.find(s);
    return it != sources.end() ? it->second : s;
  };

  // runtimes: families
  families_.clear();
  YamlNode rts = top.Child("runtimes");
  if (!rts.IsDefined() || !rts.IsSequence()) {
    diags->Error("missing-field", top.WhereOf("runtimes"),
                 "`runtimes` must list the runtime families (family, ids)");
  } else {
    for (YamlNode n : rts) {
      MapReader r(n, std::string(file), diags, "a runtime family");
      RuntimeFamily fam;
      r.Required("family", &fam.family);
      std::vector<std::string> ids;
      r.Optional("ids", &ids);
      ids.push_back(fam.family);
      for (std::string& id : ids) fam.ids.push_back(NormalizeName(id));
      r.CheckUnknownKeys();
      if (FamilyIndex(fam.family) >= 0) {
        diags->Error("duplicate-id", r.Where(),
                     absl::StrCat("runtime family `", fam.family, "` listed twice"));
      }
      families_.push_back(std::move(fam));
    }
  }
  std::vector<std::string> family_names;
  for (const RuntimeFamily& f : families_) family_names.push_back(f.family);

  std::vector<std::string> backend_names, quant_names, memory_names;
  for (int b = 1; b < kBackendCount; ++b) backend_names.emplace_back(BackendName(Backend(b)));
  for (const FamilyName& n : kQuantFamilies) quant_names.emplace_back(n.name);
  for (int m = 0; m < kMemoryKindCount; ++m) memory_names.emplace_back(MemoryKindName(MemoryKind(m)));
  const std::vector<std::string>& segment_names = SegmentNames();
  std::vector<std::string> size_names = Names(kSizes, 3);

  // constants
  std::vector<bool> seen(kConstantCount, false);
  std::vector<std::string> all_names;
  for (const ConstantSpec& s : kSpecs) all_names.emplace_back(s.name);
  YamlNode cs = top.Child("constants");
  if (!cs.IsDefined() || !cs.IsMap()) {
    diags->Error("missing-field", top.WhereOf("constants"), "`constants` must be a map of name: {...}");
  } else {
    for (size_t entry = 0; entry < cs.size(); ++entry) {
      const YamlNode key = cs.Key(entry), value = cs.Value(entry);
      std::string name(key.Scalar());
      // The shipped file lists the constants in spec order: the search starts at this entry.
      int idx = -1;
      for (int i = 0; i < kConstantCount && idx < 0; ++i) {
        const int at = (static_cast<int>(entry) + i) % kConstantCount;
        if (name == kSpecs[at].name) idx = at;
      }
      if (idx < 0) {
        diags->Error("unknown-constant", key.Where(file),
                     absl::StrCat("unknown constant `", name, "`"),
                     DidYouMean(ClosestMatches(name, all_names)));
        continue;
      }
      if (seen[idx]) {
        diags->Error("duplicate-id", key.Where(file),
                     absl::StrCat("constant `", name, "` defined twice"));
        continue;
      }
      seen[idx] = true;
      const ConstantSpec& spec = kSpecs[idx];
      Constant c;
      c.id = spec.id;
      c.where = value.Where(file);
      MapReader r(value, std::string(file), diags, absl::StrCat("constant `", name, "`"));
      std::string unit, source;
      r.Optional("unit", &unit);
      r.Optional("doc", &c.doc);
      if (r.Required("source", &source)) c.source = resolve_source(source);
      r.Required("value", &c.value, spec.min, spec.max);
      YamlNode cases = r.Child("cases");
      if (cases.IsDefined()) {
        if (!cases.IsSequence()) {
          diags->Error("wrong-type", cases.Where(file), "`cases` must be a list of maps");
        } else {
          for (YamlNode cn : cases) {
            MapReader cr(cn, std::string(file), diags, absl::StrCat("a case of `", name, "`"));
            ConstantCase cc;
            cc.where = cr.Where();
            std::vector<std::string> label;
            auto pick = [&](absl::string_view key, const std::vector<std::string>& allowed,
                            int8_t* slot) {
              std::string v;
              if (!cr.Has(key)) {
                cr.Known(key);
                return;
              }
              if (cr.Enum(key, allowed, &v, false)) {
                for (size_t i = 0; i < allowed.size(); ++i) {
                  if (allowed[i] == v) *slot = static_cast<int8_t>(i);
                }
                ++cc.specificity;
                label.push_back(absl::StrCat(key, "=", v));
              }
            };
            pick("backend", backend_names, &cc.key.backend);
            if (cc.key.backend >= 0) cc.key.backend += 1;  // Backend enum starts at kAuto
            pick("runtime", family_names, &cc.key.runtime);
            pick("quant", quant_names, &cc.key.quant);
            pick("memory", memory_names, &cc.key.memory);
            pick("segment", segment_names, &cc.key.segment);
            pick("size", size_names, &cc.key.size);
            if (cr.Has("moe")) {
              bool moe = false;
              if (cr.Optional("moe", &moe)) {
                cc.key.moe = moe ? 1 : 0;
                ++cc.specificity;
                label.push_back(moe ? "moe" : "dense");
              }
            } else {
              cr.Known("moe");
            }
            cr.Required("value", &cc.value, spec.min, spec.max);
            std::string csrc;
            if (cr.Optional("source", &csrc)) cc.source = resolve_source(csrc);
            if (cc.source.empty()) cc.source = c.source;
            std::string note;
            cr.Optional("note", &note);
            cr.CheckUnknownKeys();
            if (cc.specificity == 0) {
              diags->Error("empty-case", cc.where,
                           absl::StrCat("a case of `", name, "` selects nothing"),
                           "give backend, runtime, quant, memory, segment, moe or size");
            }
            cc.label = absl::StrJoin(label, ", ");
            c.cases.push_back(std::move(cc));
          }
        }
      }
      r.CheckUnknownKeys();
      constants_[idx] = std::move(c);
    }
  }
  for (int i = 0; i < kConstantCount; ++i) {
    if (!seen[i]) {
      diags->Error("missing-constant", top.WhereOf("constants"),
                   absl::StrCat("constant `", kSpecs[i].name, "` is not defined"),
                   absl::StrCat("add `", kSpecs[i].name, ": {value: ..., source: ...}`"));
    }
  }
  top.CheckUnknownKeys();
  if (diags->error_count() != errors_before) return false;
  BuildTables();
  return true;
}

}  // namespace fitrank
