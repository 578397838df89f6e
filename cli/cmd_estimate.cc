// `fitrank estimate`: the raw estimator numbers for one model / quant / setup / workload, with
// their basis.
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/render_reports.h"
#include "cli/resolve.h"
#include "cli/setup_flags.h"
#include "base/file_source.h"
#include "engine/estimator/estimator.h"
#include "catalog/hf_config.h"
#include "engine/report/estimate.h"

namespace fitrank::cli {
namespace {

const Quant* DefaultQuant(const Catalog& catalog, const Estimator& est, const Setup& setup,
                          const Runtime* runtime) {
  const Quant* q4 = catalog.QuantById("Q4_K_M");
  if (q4 != nullptr && (runtime == nullptr || est.CheckCombination(setup, q4, runtime) == 0)) return q4;
  // The runtime does not load GGUF: its 4-bit-ish format closest to 4.5 bpw.
  const Quant* best = nullptr;
  for (const Quant& q : catalog.quants()) {
    if (est.CheckCombination(setup, &q, runtime) != 0) continue;
    if (best == nullptr || std::abs(q.bpw - 4.5) < std::abs(best->bpw - 4.5)) best = &q;
  }
  return best;
}

int RunEstimate(Context& ctx) {
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "name the model with --model NAME (quoted when it has spaces)");
  }
  const Catalog& catalog = LoadCatalog(ctx);
  const Estimator& est = LoadEstimator(ctx);
  ParsedSetup ps = ParseSetupFlags(ctx, catalog, est);
  const Setup& setup = ps.setup;

  // Model: a catalog name, a config.json or a GGUF file.
  const bool has_model = ctx.args.Has("model"), has_config = ctx.args.Has("model-config");
  const bool has_gguf = ctx.args.Has("model-gguf");
  const int sources = int{has_model} + int{has_config} + int{has_gguf};
  if (sources != 1) {
    throw UsageError(sources > 1 ? "give one of --model, --model-config, --model-gguf" : "no model given",
                     "add --model NAME, --model-config path/to/config.json or --model-gguf file.gguf");
  }
  Model from_config;
  const Model* model = nullptr;
  FileModel file;
  if (has_gguf) {
    file = LoadGgufModel(catalog, *ctx.args.Get("model-gguf"));
    model = file.model;
  } else if (has_model) {
    model = &ResolveModel(catalog, *ctx.args.Get("model"));
  } else {
    const std::string path = *ctx.args.Get("model-config");
    // Through the one file interface (base/file_source.h): a regular file of at most
    // --max-file-mb, named as the user gave it.
    const DiskSource files("", ctx.max_file_bytes);
    absl::StatusOr<std::string> text = files.Read(path);
    if (!text.ok()) {
      throw UsageError(std::string(text.status().message()),
                       absl::IsResourceExhausted(text.status())
                           ? ""
                           : "give the path of a Hugging Face config.json");
    }
    absl::StatusOr<Model> m = ModelFromHfConfig(*text, files.DisplayName(path));
    if (!m.ok()) throw UsageError(std::string(m.status().message()));
    from_config = std::move(*m);
    model = &from_config;
  }

  // Quant / bpw.
  std::vector<std::string> defaults;
  const Quant* quant = nullptr;
  std::optional<double> bpw = ctx.args.GetDouble("bpw", 1, 32, "bits per weight");
  if (std::optional<std::string> q = ctx.args.Get("quant")) {
    quant = &ResolveQuant(catalog, *q);
  } else if (has_gguf && !bpw) {
    // The file's own recipe, sized exactly from its tensors.
    quant = file.quant;
    if (quant == nullptr) bpw = file.bpw;
    defaults.push_back(absl::StrCat("quant: ", quant ? quant->id : absl::StrFormat("%.2f bpw", file.bpw),
                                    " (the GGUF file's", file.file_type.empty() ? "" : " " + file.file_type,
                                    ", weights sized from its tensors)"));
  } else if (!bpw) {
    quant = DefaultQuant(catalog, est, setup, ps.runtime);
    if (quant == nullptr) throw UsageError("no quantization the runtime can load", "give --quant");
    defaults.push_back(absl::StrCat("quant: ", quant->id, " (default)"));
  }
  const Runtime* runtime = ps.runtime;
  if (runtime == nullptr && has_gguf && quant == nullptr) {
    // A GGUF recipe the catalog does not list: the file is llama.cpp's format.
    runtime = catalog.RuntimeById("llama.cpp");
    if (runtime != nullptr) defaults.push_back("runtime: llama.cpp (the GGUF file's runtime)");
  }
  if (runtime == nullptr) {
    runtime = est.DefaultRuntime(catalog, setup, quant);
    if (runtime == nullptr) {
      throw UsageError(absl::StrCat("no runtime in the catalog runs ", quant ? quant->id : "these weights",
                                    " on ", setup.label));
    }
    defaults.push_back(absl::StrCat("runtime: ", runtime->id, " (the quant's first runtime that runs here)"));
  }

  EstimateInput in;
  in.setup = &setup;
  in.model = model;
  in.quant = quant;
  in.bpw = bpw.value_or(0);
  in.runtime = runtime;
  in.context = ctx.args.GetInt("context", 1, 10'000'000, "tokens").value_or(0);
  in.prompt_tokens = ctx.args.GetInt("prompt", 1, 10'000'000, "tokens").value_or(0);
  in.gen_tokens = ctx.args.GetInt("gen", 1, 10'000'000, "tokens").value_or(0);
  in.batch = ctx.args.GetInt("batch", 1, 1'000'000, "sequences").value_or(1);
  ParseEstimateFlags(ctx, est, runtime, &in);
  const EstimateReport report = BuildEstimateReport(est, in, defaults);
  if (!report.runnable()) {
    *ctx.err << "fitrank estimate: error: " << model->name << " at "
             << (quant ? quant->id : absl::StrFormat("%.2f bpw", in.bpw)) << " with " << runtime->id
             << " on " << setup.label << " cannot run:\n";
    for (const std::string& p : report.basis.problems) *ctx.err << "  " << p << "\n";
    return 2;
  }
  RenderEstimate(report, ctx.format, Style{ctx.color}, *ctx.out);
  return 0;
}

}  // namespace

Command EstimateCommand() {
  std::vector<FlagSpec> flags = SetupFlagSpecs(true);
  std::vector<FlagSpec> more = {
      {"model", "NAME", "a catalog model"},
      {"model-config", "PATH", "a Hugging Face config.json (local file)"},
      {"model-gguf", "PATH", "a GGUF file: layout and exact weight bytes from its header"},
      {"quant", "Q", "quantization (default Q4_K_M or the runtime's 4-bit format)"},
      {"bpw", "X", "bits per weight, overriding the quant's (e.g. EXL2 4.65)"},
      {"context", "N", "context tokens allocated per sequence"},
      {"prompt", "N", "prompt tokens"},
      {"gen", "N", "generated tokens"},
      {"batch", "N", "concurrent sequences offered (serving engines queue what does not fit)"},
  };
  flags.insert(flags.end(), more.begin(), more.end());
  std::vector<FlagSpec> engine = EstimateFlagSpecs();
  flags.insert(flags.end(), engine.begin(), engine.end());
  return {"estimate",
          "raw estimator numbers (memory, fit, decode, prefill, TTFT) with their basis",
          "fitrank estimate --gpu NAME [--gpu NAME ...] [--gpus N] (--model NAME | --model-config "
          "PATH | --model-gguf PATH) [--quant Q | --bpw X] [--runtime R] [--parallel layer|tensor] "
          "[--context N] [--prompt N] [--gen N] [--batch N] [--kv-cache f16|q8_0|q4_0|fp8] "
          "[--max-num-seqs N] [--backend cuda|rocm|vulkan|metal|sycl|cpu] [--flash-attn on|off] "
          "[--ubatch N] [--ram GB] [--json]",
          flags, RunEstimate};
}

}  // namespace fitrank::cli
