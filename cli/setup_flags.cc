#include "cli/setup_flags.h"

#include <map>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "cli/detect.h"
#include "cli/detect_setup.h"
#include "cli/resolve.h"

namespace fitrank::cli {

std::vector<FlagSpec> SetupFlagSpecs(bool runtime) {
  std::vector<FlagSpec> f = {
      {"gpu", "NAME",
       "a GPU; repeat for a mixed rig (--gpu 4090 --gpu 3090); `auto` or none: the detected GPUs",
       true},
      {"gpus", "N", "N of that GPU (1-64)"},
      {"ram", "GB", "host RAM for offload, as sold (64 = 64 GiB; default: typical for the GPU class)"},
      {"parallel", "MODE", "layer | tensor (default: the runtime's)"},
  };
  for (FlagSpec& d : DetectedSetupFlagSpecs()) f.push_back(std::move(d));
  if (runtime) f.push_back({"runtime", "R", "llama.cpp, ollama, vllm, exllamav2, mlx, ... (default: best for the quant)"});
  return f;
}

std::vector<FlagSpec> EstimateFlagSpecs() {
  return {
      {"kv-cache", "T", "KV cache type: f16 | q8_0 | q4_0 (llama.cpp family) | fp8 (vLLM, SGLang, TensorRT-LLM)"},
      {"max-num-seqs", "N", "sequences a serving engine runs at once (vLLM --max-num-seqs; default: the runtime's)"},
      {"backend", "B", "cuda | rocm | vulkan | metal | sycl | cpu (default: the runtime's on this GPU)"},
      {"flash-attn", "on|off", "flash attention (default: the runtime's, on in current builds)"},
      {"ubatch", "N", "micro-batch tokens for prompt processing (llama.cpp -ub; default: the runtime's)"},
  };
}

void ParseEstimateFlags(Context& ctx, const Estimator& estimator, const Runtime* runtime,
                        EstimateInput* in) {
  const int family = runtime != nullptr ? estimator.constants().RuntimeFamilyOf(runtime->id) : -1;
  const std::string family_name =
      family >= 0 ? estimator.constants().runtime_families()[family].family : std::string();
  const std::string runtime_name = runtime != nullptr ? runtime->id : std::string("this runtime");
  if (std::optional<std::string> kv = ctx.args.Get("kv-cache")) {
    if (!ParseKvCacheType(*kv, &in->kv_cache)) {
      throw UsageError(absl::StrCat("unknown --kv-cache `", *kv, "`"), "use f16, q8_0, q4_0 or fp8");
    }
    const bool serving = family_name == "vllm" || family_name == "sglang" || family_name == "tensorrt-llm";
    if (in->kv_cache == KvCacheType::kFp8 && !serving) {
      throw UsageError(absl::StrCat("--kv-cache fp8 is a serving-engine cache (vLLM, SGLang, "
                                    "TensorRT-LLM); ", runtime_name, " does not have it"),
                       estimator.FallbackKvCache(runtime) != KvCacheType::kF16
                           ? "use --kv-cache q8_0, or --runtime vllm"
                           : "use --runtime vllm, or --kv-cache f16");
    }
    if ((in->kv_cache == KvCacheType::kQ8_0 || in->kv_cache == KvCacheType::kQ4_0) && serving) {
      throw UsageError(absl::StrCat("--kv-cache ", *kv, " is a llama.cpp cache type; ", runtime_name,
                                    " quantizes its cache to fp8"),
                       "use --kv-cache fp8");
    }
  }
  in->max_num_seqs = ctx.args.GetInt("max-num-seqs", 1, 65536, "sequences").value_or(0);
  in->ubatch = ctx.args.GetInt("ubatch", 1, 65536, "tokens").value_or(0);
  if (std::optional<std::string> b = ctx.args.Get("backend")) {
    Backend backend = Backend::kAuto;
    if (!ParseBackend(*b, &backend) || backend == Backend::kAuto) {
      throw UsageError(absl::StrCat("unknown --backend `", *b, "`"),
                       "use cuda, rocm, vulkan, metal, sycl or cpu");
    }
    in->backend = backend;
  }
  if (std::optional<std::string> fa = ctx.args.Get("flash-attn")) {
    const std::string v = absl::AsciiStrToLower(*fa);
    if (v == "on" || v == "1" || v == "true") {
      in->flash_attn = FlashAttention::kOn;
    } else if (v == "off" || v == "0" || v == "false") {
      in->flash_attn = FlashAttention::kOff;
    } else {
      throw UsageError(absl::StrCat("unknown --flash-attn `", *fa, "`"), "use on or off");
    }
  }
}

ParsedSetup ParseSetupFlags(Context& ctx, const Catalog& catalog, const Estimator& estimator,
                            std::vector<std::string> extra_gpus) {
  std::vector<std::string> names = std::move(extra_gpus);
  for (const std::string& n : ctx.args.GetAll("gpu")) names.push_back(n);
  const bool detect = names.empty() || (names.size() == 1 && names[0] == "auto");
  if (!detect && ctx.args.Has("free-memory")) {
    throw UsageError("--free-memory needs the detected setup", "drop --gpu, or use --gpu auto");
  }
  std::vector<DeviceGroup> devices;
  SetupOptions options;
  if (detect) {
    const Detection d = Detect(DetectOptionsFromFlags(ctx));
    DetectedSetup ds = BuildDetectedSetup(catalog, d, ctx.args.Has("free-memory"));
    if (ds.devices.empty()) {
      throw UsageError(names.empty() ? "no GPU given, and none detected on this machine"
                                     : "--gpu auto: no GPU detected on this machine",
                       "add --gpu NAME, e.g. --gpu \"RTX 4090\"; `fitrank detect` shows what was found");
    }
    devices = std::move(ds.devices);
    options.host_ram_gb = ds.host_ram_gb;
    // The first line says which setup this is; machine-readable output keeps stdout clean.
    std::ostream& o = ctx.format == OutputFormat::kTable ? *ctx.out : *ctx.err;
    o << "Using the detected setup: " << ds.summary << " (--gpu NAME to choose another)\n";
  }
  for (const std::string& n : detect ? std::vector<std::string>{} : names) {
    const Gpu& g = ResolveGpu(catalog, n);
    bool merged = false;
    for (DeviceGroup& d : devices) {
      if (d.gpu == &g) {
        ++d.count;
        merged = true;
      }
    }
    if (!merged) devices.push_back({&g, 1});
  }
  if (std::optional<int> n = ctx.args.GetInt("gpus", 1, kMaxDevices, "GPUs")) {
    if (devices.size() != 1 || devices[0].count != 1) {
      throw UsageError("--gpus needs exactly one --gpu",
                       "for a mixed rig repeat --gpu once per card instead");
    }
    devices[0].count = *n;
  }
  options.interconnects = &catalog.interconnects();
  if (std::optional<double> ram = ctx.args.GetDouble("ram", 1, 65536, "GB")) options.host_ram_gb = *ram;
  if (std::optional<std::string> p = ctx.args.Get("parallel")) {
    if (*p == "layer") options.parallelism = Parallelism::kLayer;
    else if (*p == "tensor") options.parallelism = Parallelism::kTensor;
    else throw UsageError(absl::StrCat("unknown --parallel `", *p, "`"), "use `layer` or `tensor`");
  }
  absl::StatusOr<Setup> setup = BuildSetup(estimator, std::move(devices), options);
  if (!setup.ok()) throw UsageError(std::string(setup.status().message()));
  ParsedSetup out{std::move(*setup), nullptr};
  if (std::optional<std::string> r = ctx.args.Get("runtime")) {
    out.runtime = &ResolveRuntime(catalog, *r);
  }
  return out;
}

const Estimator& LoadEstimator(Context& ctx) {
  if (ctx.engine != nullptr) return ctx.engine->estimator();
  static std::mutex mu;
  static auto* cache = new std::map<const FileSource*, std::unique_ptr<Estimator>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find(ctx.data.get());
  if (it != cache->end()) return *it->second;
  Diagnostics diags;
  std::unique_ptr<Estimator> est = Estimator::Load(*ctx.data, &diags);
  if (!est || diags.HasErrors()) {
    *ctx.err << diags.Render();
    throw ExitNow(2);
  }
  const Estimator& ref = *est;
  (*cache)[ctx.data.get()] = std::move(est);
  return ref;
}

}  // namespace fitrank::cli
