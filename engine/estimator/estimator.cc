// The estimator's entry points: loading the constants, resolving an input (runtime family,
// backend, parallelism, workload defaults, problems) and running the physics files in order.
#include "engine/estimator/estimator.h"

#include <algorithm>
#include <cmath>

#include "absl/base/attributes.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/estimator/basis.h"
#include "engine/estimator/internal/context.h"

namespace fitrank {
namespace {

constexpr char kConstantsPath[] = "engine/estimator/estimator.yaml";

// Backend of a catalog platform string ("CUDA", "ROCm/HIP", "Metal/MLX"), allocation-free.
Backend BackendOfPlatform(absl::string_view p) {
  if (p.empty()) return Backend::kAuto;
  // Only the prefixes that can match the first letter are tried (this runs per estimate).
  switch (absl::ascii_tolower(static_cast<unsigned char>(p[0]))) {
    case 'c': case 'r': case 'h': case 'm': case 'v': case 's': case 'o': break;
    default: return Backend::kAuto;
  }
  if (absl::StartsWithIgnoreCase(p, "cuda")) return Backend::kCuda;
  if (absl::StartsWithIgnoreCase(p, "rocm") || absl::StartsWithIgnoreCase(p, "hip")) return Backend::kRocm;
  if (absl::StartsWithIgnoreCase(p, "metal") || absl::StartsWithIgnoreCase(p, "mlx")) return Backend::kMetal;
  if (absl::StartsWithIgnoreCase(p, "vulkan")) return Backend::kVulkan;
  if (absl::StartsWithIgnoreCase(p, "sycl") || absl::StartsWithIgnoreCase(p, "oneapi")) return Backend::kSycl;
  if (absl::StartsWithIgnoreCase(p, "cpu")) return Backend::kCpu;
  return Backend::kAuto;
}

bool HasPlatform(const std::vector<std::string>& platforms, Backend b) {
  for (const std::string& p : platforms) {
    if (BackendOfPlatform(p) == b) return true;
  }
  return false;
}

bool Contains(const std::vector<std::string>& v, absl::string_view x) {
  for (const std::string& s : v) {
    if (absl::EqualsIgnoreCase(s, x)) return true;
  }
  return false;
}

bool GpuRunsBackend(const Gpu& g, Backend b) {
  if (b == Backend::kCpu) return true;
  if (g.platforms.empty()) return true;  // unknown: do not refuse
  return HasPlatform(g.platforms, b);
}

}  // namespace

std::unique_ptr<Estimator> Estimator::Load(const FileSource& source, Diagnostics* diags) {
  auto text = source.Read(kConstantsPath);
  if (!text.ok()) {
    diags->Error("missing-file", Location{source.DisplayName(kConstantsPath), 0, 0},
                 absl::StrCat("cannot read the estimator constants: ", text.status().message()));
    return nullptr;
  }
  return FromYaml(*text, source.DisplayName(kConstantsPath), diags);
}

std::unique_ptr<Estimator> Estimator::FromYaml(absl::string_view content, absl::string_view file,
                                               Diagnostics* diags) {
  auto est = std::unique_ptr<Estimator>(new Estimator());
  if (!est->constants_.Parse(content, file, diags)) return nullptr;
  return est;
}

Backend Estimator::DefaultBackend(const Runtime* runtime, const Gpu& gpu) const {
  Backend order[4] = {Backend::kAuto, Backend::kAuto, Backend::kAuto, Backend::kAuto};
  if (gpu.segment == Segment::kCpu || gpu.vendor == "CPU") return Backend::kCpu;
  if (gpu.vendor == "Apple") {
    order[0] = Backend::kMetal;
  } else if (gpu.vendor == "NVIDIA") {
    order[0] = Backend::kCuda;
    order[1] = Backend::kVulkan;
  } else if (gpu.vendor == "AMD") {
    order[0] = Backend::kRocm;
    order[1] = Backend::kVulkan;
  } else if (gpu.vendor == "Intel") {
    order[0] = Backend::kSycl;
    order[1] = Backend::kVulkan;
  } else {
    order[0] = Backend::kVulkan;
  }
  for (Backend b : order) {
    if (b == Backend::kAuto) break;
    if (!GpuRunsBackend(gpu, b)) continue;
    if (runtime != nullptr && !runtime->platforms.empty() && !HasPlatform(runtime->platforms, b)) continue;
    return b;
  }
  return order[0];  // nothing matches: CheckCombination reports the platform problem
}

uint32_t Estimator::CheckCombination(const Setup& setup, const Quant* quant,
                                     const Runtime* runtime, Backend backend) const {
  uint32_t p = 0;
  if (setup.devices.empty() || setup.devices[0].gpu == nullptr) return kProblemInvalidInput;
  const Gpu& g0 = *setup.devices[0].gpu;
  if (backend == Backend::kAuto) backend = DefaultBackend(runtime, g0);
  if (runtime != nullptr && quant != nullptr) {
    const bool listed_by_quant = Contains(quant->runtimes, runtime->id);
    const bool listed_by_runtime = Contains(runtime->quant_families, quant->family);
    if (!listed_by_quant && !listed_by_runtime &&
        !(quant->runtimes.empty() && runtime->quant_families.empty())) {
      p |= kProblemQuantNotLoadable;
    }
  }
  for (const DeviceGroup& d : setup.devices) {
    if (quant != nullptr && !quant->requires_precision.empty() &&
        !Contains(d.gpu->precisions, quant->requires_precision)) {
      p |= kProblemPrecisionUnsupported;
    }
    if (!GpuRunsBackend(*d.gpu, backend)) p |= kProblemRuntimeNotOnPlatform;
  }
  if (runtime != nullptr && !runtime->platforms.empty() && backend != Backend::kCpu &&
      !HasPlatform(runtime->platforms, backend)) {
    p |= kProblemRuntimeNotOnPlatform;
  }
  return p;
}

double Estimator::UsableMemoryGb(const Gpu& gpu, const Runtime* runtime, Backend backend) const {
  internal::Ctx c;
  c.k = &constants_;
  c.runtime = runtime != nullptr ? constants_.RuntimeFamilyOf(runtime->id) : constants_.FamilyIndex("llama.cpp");
  c.key.runtime = static_cast<int8_t>(c.runtime);
  c.key.backend = static_cast<int8_t>(backend == Backend::kAuto ? DefaultBackend(runtime, gpu) : backend);
  return internal::UsableGb(c, gpu);
}

KvCacheType Estimator::FallbackKvCache(const Runtime* runtime) const {
  if (runtime == nullptr) return KvCacheType::kF16;
  ConstantKey key;
  key.runtime = static_cast<int8_t>(constants_.RuntimeFamilyOf(runtime->id));
  return constants_.Get(K::kKvCacheQuant, key) >= 0.5 ? KvCacheType::kQ8_0 : KvCacheType::kF16;
}

const Runtime* Estimator::DefaultRuntime(const Catalog& catalog, const Setup& setup,
                                         const Quant* quant) const {
  if (setup.devices.empty()) return nullptr;
  const bool multi = setup.device_count > 1;
  const bool want_tensor = multi && !setup.parallelism_defaulted &&
                           setup.parallelism == Parallelism::kTensor;
  const Runtime* first_ok = nullptr;
  auto ok = [&](const Runtime& r) {
    if (CheckCombination(setup, quant, &r) != 0) return false;
    if (want_tensor && !Contains(r.parallelism, "tensor")) return false;
    return true;
  };
  // The quant's own list is in preference order; otherwise the catalog's order.
  if (quant != nullptr) {
    for (const std::string& id : quant->runtimes) {
      const Runtime* r = catalog.RuntimeById(id);
      if (r != nullptr && ok(*r)) return r;
    }
  }
  for (const Runtime& r : catalog.runtimes()) {
    if (ok(r)) {
      if (first_ok == nullptr) first_ok = &r;
    }
  }
  return first_ok;
}

std::vector<std::string> DescribeProblems(uint32_t p, const EstimateInput& in) {
  std::vector<std::string> out;
  const std::string quant = in.quant != nullptr ? in.quant->id : "this quantization";
  const std::string runtime = in.runtime != nullptr ? (in.runtime->name.empty() ? in.runtime->id : in.runtime->name) : "the runtime";
  std::string gpu = in.setup != nullptr && !in.setup->devices.empty() && in.setup->devices[0].gpu
                        ? in.setup->devices[0].gpu->name : "this GPU";
  if (p & kProblemInvalidInput) out.push_back("the estimate needs a setup, a model with layers, hidden size and parameters, and a positive bits per weight");
  if (p & kProblemQuantNotLoadable) {
    std::string fams = in.runtime != nullptr ? absl::StrJoin(in.runtime->quant_families, ", ") : "";
    out.push_back(absl::StrCat(quant, " cannot be loaded by ", runtime,
                               fams.empty() ? "" : absl::StrCat(" (it loads ", fams, ")")));
  }
  if (p & kProblemPrecisionUnsupported) {
    out.push_back(absl::StrCat(quant, " needs ", in.quant ? in.quant->requires_precision : "a precision",
                               " in hardware, which ", gpu, " does not have"));
  }
  if (p & kProblemRuntimeNotOnPlatform) {
    std::string plats = in.runtime != nullptr ? absl::StrJoin(in.runtime->platforms, ", ") : "";
    const std::string with =
        in.backend != Backend::kAuto ? absl::StrCat(" with ", BackendName(in.backend)) : "";
    out.push_back(absl::StrCat(runtime, " does not run on ", gpu, with,
                               plats.empty() ? "" : absl::StrCat(" (it runs on ", plats, ")")));
  }
  if (p & kProblemNoTensorParallel) out.push_back(absl::StrCat(runtime, " cannot split layers across GPUs in tensor-parallel mode; use --parallel layer"));
  if (p & kProblemMixedTensorParallel) out.push_back("tensor parallelism needs identical GPUs; a mixed rig splits layers (--parallel layer)");
  if (p & kProblemTensorParallelHeads) {
    int n = in.setup != nullptr ? in.setup->device_count : 0;
    out.push_back(absl::StrCat("tensor parallel degree ", n, " does not divide the model's ",
                               in.model ? in.model->attention_heads : 0, " attention heads / ",
                               in.model ? in.model->kv_heads : 0, " KV heads"));
  }
  if (p & kProblemContextBeyondModel) out.push_back(absl::StrCat("the context is longer than the model's maximum (", in.model ? in.model->max_context : 0, " tokens)"));
  if (p & kProblemNoOffload) out.push_back(absl::StrCat(runtime, " cannot offload layers to host RAM, so a model larger than GPU memory does not run"));
  if (p & kProblemUnmeasuredBackend) out.push_back("no measurements for this backend: the range is wider");
  return out;
}

void Estimator::Run(const EstimateInput& in, Estimate* out) const { RunImpl(in, out, nullptr); }

void Estimator::Explain(const EstimateInput& in, Estimate* out, Basis* basis) const {
  *basis = Basis{};
  internal::Tracer tracer(basis);
  RunImpl(in, out, &tracer);
  basis->problems = DescribeProblems(out->problems, in);
}

void Estimator::RunImpl(const EstimateInput& in, Estimate* out, internal::Tracer* t) const {
  internal::Ctx c;
  c.t = t;
  if (SizeImpl(in, out, &c)) FinishImpl(&c, out);
}

ResolvedNames Estimator::ResolveNames(const EstimateInput& in) const {
  ResolvedNames n;
  if (in.setup == nullptr || in.setup->devices.empty() || in.setup->devices[0].gpu == nullptr) {
    n.problems = kProblemInvalidInput;
    return n;
  }
  const Gpu& g0 = *in.setup->devices[0].gpu;
  const double bpw = in.bpw > 0 ? in.bpw : (in.quant != nullptr ? in.quant->bpw : 0);
  n.quant_family = in.quant != nullptr ? QuantFamilyOf(in.quant->family)
                                       : (bpw >= 15.5 ? QuantFamily::kFloat : QuantFamily::kOther);
  n.runtime_family = in.runtime != nullptr ? constants_.RuntimeFamilyOf(in.runtime->id)
                                           : constants_.FamilyIndex("llama.cpp");
  n.backend = in.backend != Backend::kAuto ? in.backend : DefaultBackend(in.runtime, g0);
  n.memory = MemoryKindOf(g0);
  n.problems = CheckCombination(*in.setup, in.quant, in.runtime, n.backend);
  n.runtime_without_tensor = in.runtime != nullptr && !in.runtime->parallelism.empty() &&
                             !Contains(in.runtime->parallelism, "tensor");
  return n;
}

void Estimator::Size(const EstimateInput& in, Sizing* out) const {
  internal::Ctx c;
  out->valid = SizeImpl(in, &out->estimate, &c);
  out->state.CopyStateFrom(c);
}

void Estimator::FinishState(const EstimateInput& in, const Sizing& sizing,
                            internal::Ctx* cp) const {
  internal::Ctx& c = *cp;
  c.StartFrom(sizing.state, constants_, in);
  // The lengths of this input, with the defaults SizeImpl applies.
  c.prompt = in.prompt_tokens > 0 ? in.prompt_tokens
                                  : std::min(static_cast<int>(c.C(K::kDefaultPrompt)), c.context);
  c.gen = in.gen_tokens > 0 ? in.gen_tokens : static_cast<int>(c.C(K::kDefaultGen));
}

void Estimator::Finish(const EstimateInput& in, const Sizing& sizing, Estimate* out) const {
  *out = sizing.estimate;
  if (!sizing.valid) return;
  internal::Ctx c;
  FinishState(in, sizing, &c);
  out->prompt_tokens = c.prompt;
  out->gen_tokens = c.gen;
  FinishImpl(&c, out);
}

double Estimator::FinishDecodeTokS(const EstimateInput& in, const Sizing& sizing) const {
  const Estimate& e = sizing.estimate;
  // As FinishImpl: no speed for an invalid input, a blocked one or a no-fit.
  if (!sizing.valid || !e.runnable() || e.fit.kind == FitKind::kNoFit) return 0;
  internal::Ctx c;
  FinishState(in, sizing, &c);
  return internal::DecodeTokS(c, e);
}

namespace {

// The input's names: its own (EstimateInput::names) if it carries them, else resolved into
// `own`.
const ResolvedNames& NamesOf(const Estimator& estimator, const EstimateInput& in,
                             ResolvedNames* own) {
  if (in.names != nullptr) return *in.names;
  *own = estimator.ResolveNames(in);
  return *own;
}

// What the setup's GPU count decides, into the state: the parallelism (the user's choice, else
// the runtime's habit), the all-reduce steps, and the problems that do not depend on the lengths
// or the batch (the names', the tensor-parallel layout's). Needs the constants resolved.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SetDeviceCount(const EstimateInput& in,
                                                       const ResolvedNames& names,
                                                       internal::Ctx* cp) {
  internal::Ctx& c = *cp;
  const Setup& s = *in.setup;
  c.device_count = s.device_count;
  c.allreduce_steps = internal::AllReduceSteps(s.device_count);
  c.par = Parallelism::kLayer;
  if (s.device_count > 1) {
    c.par = s.parallelism_defaulted
                ? (c.C(K::kTensorParallelDefault) >= 0.5 ? Parallelism::kTensor : Parallelism::kLayer)
                : s.parallelism;
  }
  c.shape_problems = names.problems;
  if (c.par == Parallelism::kTensor && s.device_count > 1) {
    if (s.mixed) c.shape_problems |= kProblemMixedTensorParallel;
    if (in.runtime != nullptr && names.runtime_without_tensor) {
      c.shape_problems |= kProblemNoTensorParallel;
    }
    if (!internal::TensorParallelDivides(*in.model, s.device_count)) {
      c.shape_problems |= kProblemTensorParallelHeads;
    }
  }
}

// The lengths and batch of `in`, with their defaults, into the state and the estimate.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SetLengths(const EstimateInput& in, internal::Ctx* cp,
                                                   Estimate* out) {
  internal::Ctx& c = *cp;
  Estimate& e = *out;
  const int model_max = c.model->max_context > 0 ? c.model->max_context : 0;
  const int def_ctx = static_cast<int>(c.C(K::kDefaultContext));
  c.context = in.context > 0 ? in.context : (model_max > 0 ? std::min(def_ctx, model_max) : def_ctx);
  c.prompt = in.prompt_tokens > 0 ? in.prompt_tokens
                                  : std::min(static_cast<int>(c.C(K::kDefaultPrompt)), c.context);
  c.gen = in.gen_tokens > 0 ? in.gen_tokens : static_cast<int>(c.C(K::kDefaultGen));
  c.batch = std::max(in.batch, 1);
  c.offered = c.batch;
  e.context = c.context;
  e.prompt_tokens = c.prompt;
  e.gen_tokens = c.gen;
  e.batch = c.batch;
}

// The rest of a sizing once the model's shape is known: a context beyond the model's, KV per
// token, fit, safe context, and the sequences that run at once.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SizeFit(internal::Ctx* cp, Estimate* out) {
  internal::Ctx& c = *cp;
  internal::Tracer* t = c.t;
  Estimate& e = *out;
  const int model_max = c.model->max_context > 0 ? c.model->max_context : 0;
  if (model_max > 0 && c.context > model_max) e.problems |= kProblemContextBeyondModel;
  e.kv_bytes_per_token = internal::SafeDiv(c.kv.Bytes(c.context), c.context);
  // Serving engines queue what their KV budget does not hold: size one sequence, run as many
  // as fit (and max_num_seqs allows), queue the rest.
  const bool queues = c.batch > 1 && c.C(K::kQueuesLoad) >= 0.5;
  if (queues) c.batch = 1;
  internal::ComputeFit(&c, &e);
  if (queues && e.runnable() && IsNative(e.fit.kind)) {
    const int running = std::max(1, std::min(c.offered, internal::MaxConcurrency(c, e)));
    if (running != c.batch) {
      c.batch = running;
      internal::ComputeFit(&c, &e);
    }
    if (t != nullptr && running < c.offered) {
      t->Note(absl::StrFormat("serving at load: %d of %d offered sequences run at once (KV budget "
                              "and max_num_seqs), %d wait in the queue",
                              running, c.offered, c.offered - running));
    }
  }
  // The sequences that fit, which the ranking reads before finishing (0: not worked out here).
  e.serving.max_concurrency = t == nullptr && e.runnable() && e.fit.kind != FitKind::kNoFit
                                  ? internal::MaxConcurrency(c, e)
                                  : 0;
}

}  // namespace

bool Estimator::SizeImpl(const EstimateInput& in, Estimate* out, internal::Ctx* cp) const {
  using internal::Ctx;
  internal::Tracer* t = cp->t;
  Ctx& c = *cp;
  *out = Estimate{};
  Estimate& e = *out;
  const Setup* s = in.setup;
  const Model* md = in.model;
  const double bpw = in.bpw > 0 ? in.bpw : (in.quant != nullptr ? in.quant->bpw : 0);
  if (s == nullptr || md == nullptr || s->devices.empty() || s->devices[0].gpu == nullptr ||
      md->layers <= 0 || md->hidden_size <= 0 || !(md->params_b > 0) || !(bpw > 0) ||
      !std::isfinite(bpw) || !std::isfinite(md->params_b)) {
    e.problems = kProblemInvalidInput;
    return false;
  }
  c.k = &constants_;
  c.in = &in;
  c.setup = s;
  c.model = md;
  const Gpu& g0 = *s->devices[0].gpu;
  ResolvedNames own_names;
  const ResolvedNames& names = NamesOf(*this, in, &own_names);
  c.quant = names.quant_family;
  c.runtime = names.runtime_family;
  c.backend = names.backend;
  c.key.backend = static_cast<int8_t>(c.backend);
  c.key.runtime = static_cast<int8_t>(c.runtime);
  c.key.quant = static_cast<int8_t>(c.quant);
  c.key.size = static_cast<int8_t>(SizeClassOf(md->params_b));
  c.key.moe = md->experts > 1 && md->active_params_b > 0 && md->active_params_b < 0.95 * md->params_b;
  c.key.memory = static_cast<int8_t>(names.memory);
  c.key.segment = static_cast<int8_t>(g0.segment);
  c.ResolveConstants();
  if (t == nullptr) {
    c.sustained0_tflops = internal::SustainedMatrixTflops(c, g0);
    c.sustained0_known = true;
  }
  c.kv_elem = KvBytesPerElement(in.kv_cache);
  c.kv = internal::KvShapeOf(*md, c.kv_elem);
  e.backend = c.backend;
  e.runtime_family = c.runtime;
  e.bpw = bpw;
  SetDeviceCount(in, names, &c);
  e.parallelism = c.par;

  // Workload, with defaults.
  SetLengths(in, &c, &e);
  c.ubatch = in.ubatch > 0 ? in.ubatch : std::max(1.0, c.C(K::kUbatchTokens));
  c.flash_attn = in.flash_attn == FlashAttention::kDefault ? c.C(K::kFlashAttention) >= 0.5
                                                           : in.flash_attn == FlashAttention::kOn;
  e.kv_cache = in.kv_cache;
  if (t != nullptr) {
    if (in.context <= 0) t->Default(absl::StrCat("context: ", c.context, " tokens (default, capped at the model maximum)"));
    if (in.prompt_tokens <= 0) t->Default(absl::StrCat("prompt: ", c.prompt, " tokens (default)"));
    if (in.gen_tokens <= 0) t->Default(absl::StrCat("generated: ", c.gen, " tokens (default)"));
    if (in.runtime == nullptr) t->Default("runtime: llama.cpp-like (none given)");
    if (in.backend == Backend::kAuto) t->Default(absl::StrCat("backend: ", BackendName(c.backend), " (the runtime's default on ", g0.name, ")"));
    if (in.ubatch <= 0) t->Default(absl::StrCat("ubatch: ", c.ubatch, " tokens (the runtime's default)"));
    if (in.flash_attn == FlashAttention::kDefault) {
      t->Default(absl::StrCat("flash attention: ", c.flash_attn ? "on" : "off", " (the runtime's default)"));
    }
    t->Note(absl::StrFormat("units: GB = 1e9 bytes throughout; memory sold as GB is GiB, so %s's "
                            "%.0f GB hold %.0f x 2^30 bytes = %.2f GB",
                            g0.name, g0.memory_gb, g0.memory_gb, CapacityGb(g0)));
    if (s->host_defaulted) {
      t->Default(absl::StrFormat("host: %s, %.0f GB RAM at %.0f GB/s", s->host_profile,
                                 s->host_ram_gb, s->host_bandwidth_gbps));
    }
    if (s->device_count > 1 && s->parallelism_defaulted) {
      t->Default(absl::StrCat("parallelism: ", ParallelismName(c.par), " (the runtime's default)"));
    }
    if (in.bpw > 0 && in.quant != nullptr) t->Note(absl::StrFormat("bits per weight overridden: %.2f (quant lists %.2f)", in.bpw, in.quant->bpw));
  }

  // Problems that stop the estimate.
  e.problems |= c.shape_problems;

  internal::ComputeShape(&c, bpw);
  SizeFit(&c, &e);
  return true;
}

void Estimator::SizeLike(const EstimateInput& in, const Sizing& like, Sizing* out) const {
  if (!like.valid) {
    Size(in, out);
    return;
  }
  internal::Ctx c;
  c.StartFrom(like.state, constants_, in);
  // As SizeImpl: what does not depend on the lengths, the batch and the GPU count is `like`'s.
  const bool same_count = in.setup->device_count == like.state.device_count;
  if (!same_count) {
    ResolvedNames own_names;
    SetDeviceCount(in, NamesOf(*this, in, &own_names), &c);
    c.devices.known = false;  // the further cards and the overheads depend on the count
  }
  const Estimate& l = like.estimate;
  Estimate& e = out->estimate;
  e = Estimate{};
  e.backend = l.backend;
  e.runtime_family = l.runtime_family;
  e.bpw = l.bpw;
  e.parallelism = c.par;
  e.problems = c.shape_problems;
  e.kv_cache = in.kv_cache;
  if (in.kv_cache != l.kv_cache) {
    c.kv_elem = KvBytesPerElement(in.kv_cache);
    c.kv = internal::KvShapeOf(*in.model, c.kv_elem);
  } else if (same_count) {
    // The safe context depends on the batch, not on the context asked for (fit.cc).
    c.known_safe_batch = like.state.batch;
    c.known_safe_context = l.safe_context;
  }
  SetLengths(in, &c, &e);
  SizeFit(&c, &e);
  out->valid = true;
  out->state.CopyStateFrom(c, /*with_constants=*/false);
  out->state.CopyConstantsFrom(like.state);
}

void Estimator::FinishImpl(internal::Ctx* cp, Estimate* out) const {
  using internal::Ctx;
  Ctx& c = *cp;
  internal::Tracer* t = c.t;
  Estimate& e = *out;
  const EstimateInput& in = *c.in;
  const Setup* s = c.setup;
  const Model* md = c.model;
  const bool runs = e.runnable() && e.fit.kind != FitKind::kNoFit;
  if (runs) {
    internal::ComputeDecode(&c, &e);
    internal::ComputePrefill(&c, &e);
    internal::ComputeServing(&c, &e);
  }

  // Range: independent relative uncertainties added in quadrature.
  const double base = c.C(K::kRangeBase);
  const double off = e.fit.kind == FitKind::kOffload ? c.C(K::kRangeOffload) : 0;
  const bool tp_pcie = c.par == Parallelism::kTensor && s->device_count > 1 && s->link_latency_us <= 0;
  const double tp = tp_pcie ? c.C(K::kRangeTensorPcie) : 0;
  const bool estimated = !c.m.vocab_known || absl::StartsWith(md->id, "estimated:") ||
                         (in.quant == nullptr);
  const double est = estimated ? c.C(K::kRangeEstimatedInput) : 0;
  const double mixed = s->mixed ? c.C(K::kRangeMixedRig) : 0;
  const double u = std::sqrt(base * base + off * off + tp * tp + est * est + mixed * mixed);
  const double pbase = c.C(K::kRangePrefill);
  const double up = std::sqrt(pbase * pbase + off * off + tp * tp + est * est + mixed * mixed);
  RangeEstimate& r = e.range;
  r.relative = u;
  r.decode_low = e.decode_tok_s / (1 + u);
  r.decode_high = e.decode_tok_s * (1 + u);
  r.prefill_low = e.prefill_tok_s / (1 + up);
  r.prefill_high = e.prefill_tok_s * (1 + up);
  r.ttft_low_ms = e.ttft_ms / (1 + up);
  r.ttft_high_ms = e.ttft_ms * (1 + up);
  if (t != nullptr) {
    std::vector<std::string> why = {absl::StrFormat("base %.0f%% for %s on %s", base * 100,
                                                    c.runtime >= 0 ? constants_.runtime_families()[c.runtime].family : std::string("this runtime"),
                                                    BackendName(c.backend))};
    if (off > 0) why.push_back(absl::StrFormat("offload %.0f%%", off * 100));
    if (tp > 0) why.push_back(absl::StrFormat("tensor parallel over PCIe %.0f%%", tp * 100));
    if (est > 0) why.push_back(absl::StrFormat("estimated inputs %.0f%%", est * 100));
    if (mixed > 0) why.push_back(absl::StrFormat("mixed rig %.0f%%", mixed * 100));
    t->basis()->range = absl::StrFormat("decode +-%.0f%% (%s, added in quadrature); prefill/TTFT +-%.0f%%",
                                        u * 100, absl::StrJoin(why, ", "), up * 100);
    if (!runs) t->Note(e.runnable() ? "does not fit: speeds are 0" : "cannot run: speeds are 0");
  }
}

}  // namespace fitrank
