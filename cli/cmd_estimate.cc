// `fitrank estimate`: the raw estimator numbers for one model / quant / setup / workload, with
// their basis.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/commands.h"
#include "cli/input_file.h"
#include "cli/model_file.h"
#include "cli/render_text.h"
#include "cli/resolve.h"
#include "cli/setup_flags.h"
#include "engine/estimator/basis.h"
#include "engine/estimator/estimator.h"
#include "catalog/hf_config.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

// JSON numbers: finite, rounded to what the estimate can claim.
double J(double v, int decimals = 2) {
  if (!std::isfinite(v)) return 0;
  const double p = std::pow(10.0, decimals);
  return std::round(v * p) / p;
}

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
    const std::string text =
        ReadInputFile(ctx, path, "give the path of a Hugging Face config.json");
    absl::StatusOr<Model> m = ModelFromHfConfig(text, path);
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
  Estimate e;
  Basis basis;
  est.Explain(in, &e, &basis);
  for (auto it = defaults.rbegin(); it != defaults.rend(); ++it) basis.defaults.insert(basis.defaults.begin(), *it);
  if (!e.runnable()) {
    *ctx.err << "fitrank estimate: error: " << model->name << " at "
             << (quant ? quant->id : absl::StrFormat("%.2f bpw", in.bpw)) << " with " << runtime->id
             << " on " << setup.label << " cannot run:\n";
    for (const std::string& p : basis.problems) *ctx.err << "  " << p << "\n";
    return 2;
  }

  const std::string quant_name = quant ? quant->id : absl::StrFormat("%.2f bpw", in.bpw);
  if (ctx.format == OutputFormat::kCsv) {
    // One row: the estimate's numbers, raw, units in the headers.
    TextTable t({"model_id", "quant", "bpw", "runtime", "gpu_count", "parallelism", "context",
                 "kv_cache", "weights_gb", "kv_gb", "overhead_gb", "total_gb", "usable_gb",
                 "fit", "offload_pct", "decode_tok_s", "decode_low_tok_s", "decode_high_tok_s",
                 "prefill_tok_s", "ttft_ms", "safe_context"});
    t.Add({model->id, quant_name, CsvNumber(e.bpw, 3), runtime->id,
           absl::StrCat(setup.device_count), std::string(ParallelismName(e.parallelism)),
           absl::StrCat(e.context), std::string(KvCacheTypeName(e.kv_cache)),
           CsvNumber(e.memory.weights_gb, 2), CsvNumber(e.memory.kv_gb, 2),
           CsvNumber(e.memory.overhead_gb, 2), CsvNumber(e.memory.total_gb, 2),
           CsvNumber(e.memory.usable_gb, 2), std::string(FitKindName(e.fit.kind)),
           CsvNumber(e.fit.offload_pct, 1), CsvNumber(e.decode_tok_s, 1),
           CsvNumber(e.range.decode_low, 1), CsvNumber(e.range.decode_high, 1),
           CsvNumber(e.prefill_tok_s, 0), CsvNumber(e.ttft_ms, 0),
           absl::StrCat(e.safe_context)});
    t.PrintCsv(*ctx.out);
    return 0;
  }
  if (ctx.format == OutputFormat::kMarkdown || ctx.format == OutputFormat::kJsonl) {
    throw UsageError("`estimate` prints a table, JSON (--json) or CSV (--format csv)",
                     "use --format table, json or csv");
  }
  if (ctx.format == OutputFormat::kJson) {
    nlohmann::json j;
    j["model"] = model->name;
    j["model_id"] = model->id;
    j["quant"] = quant_name;
    j["bpw"] = J(e.bpw, 3);
    j["runtime"] = runtime->id;
    j["backend"] = std::string(BackendName(e.backend));
    j["setup"] = {{"label", setup.label},
                  {"gpu_count", setup.device_count},
                  {"parallelism", std::string(ParallelismName(e.parallelism))},
                  {"host_ram_gb", J(setup.host_ram_gb, 1)},
                  {"host_bandwidth_gbps", J(setup.host_bandwidth_gbps, 1)}};
    j["workload"] = {{"context", e.context}, {"prompt_tokens", e.prompt_tokens},
                     {"gen_tokens", e.gen_tokens}, {"batch", e.batch},
                     {"kv_cache", std::string(KvCacheTypeName(in.kv_cache))}};
    j["decode_tok_s"] = J(e.decode_tok_s, 1);
    j["prefill_tok_s"] = J(e.prefill_tok_s, 1);
    j["ttft_ms"] = J(e.ttft_ms, 1);
    j["memory"] = {{"weights_gb", J(e.memory.weights_gb)}, {"kv_gb", J(e.memory.kv_gb)},
                   {"overhead_gb", J(e.memory.overhead_gb)}, {"total_gb", J(e.memory.total_gb)},
                   {"usable_gb", J(e.memory.usable_gb)}};
    j["fit"] = {{"kind", std::string(FitKindName(e.fit.kind))},
                {"headroom_pct", J(e.fit.headroom_pct, 1)},
                {"offload_pct", J(e.fit.offload_pct, 1)},
                {"host_ram_gb", J(e.fit.host_ram_gb)}};
    j["safe_context"] = e.safe_context;
    j["kv_bytes_per_token"] = J(e.kv_bytes_per_token, 1);
    j["range"] = {{"decode_low", J(e.range.decode_low, 1)}, {"decode_high", J(e.range.decode_high, 1)},
                  {"prefill_low", J(e.range.prefill_low, 1)}, {"prefill_high", J(e.range.prefill_high, 1)},
                  {"ttft_low_ms", J(e.range.ttft_low_ms, 1)}, {"ttft_high_ms", J(e.range.ttft_high_ms, 1)}};
    j["serving"] = {{"max_concurrency", e.serving.max_concurrency},
                    {"concurrency", e.serving.concurrency},
                    {"aggregate_tok_s", J(e.serving.aggregate_tok_s, 1)},
                    {"per_user_tok_s", J(e.serving.per_user_tok_s, 1)},
                    {"queued", e.serving.queued}};
    j["problems"] = basis.problems;
    nlohmann::json b;
    BasisToJson(basis, &b);
    j["basis"] = std::move(b);
    *ctx.out << j.dump(2) << "\n";
    return 0;
  }

  std::ostream& o = *ctx.out;
  o << model->name << " · " << quant_name << " (" << absl::StrFormat("%.2f", e.bpw) << " bpw) · "
    << runtime->id << " on " << BackendName(e.backend) << " · " << setup.label;
  if (setup.device_count > 1) o << " (" << ParallelismName(e.parallelism) << " split)";
  o << "\n\n";
  auto row = [&](absl::string_view k, const std::string& v) {
    o << "  " << k << std::string(k.size() < 16 ? 16 - k.size() : 1, ' ') << v << "\n";
  };
  row("fit", absl::StrFormat("%s (headroom %.1f%%, offload %.1f%%, host RAM %.1f GB)",
                             FitKindName(e.fit.kind), e.fit.headroom_pct, e.fit.offload_pct,
                             e.fit.host_ram_gb));
  row("memory", absl::StrFormat("%.2f GB of %.2f GB usable = weights %.2f + KV %.2f + overhead %.2f",
                                e.memory.total_gb, e.memory.usable_gb, e.memory.weights_gb,
                                e.memory.kv_gb, e.memory.overhead_gb));
  row("decode", absl::StrFormat("%.1f tok/s (range %.1f - %.1f)", e.decode_tok_s,
                                e.range.decode_low, e.range.decode_high));
  row("prefill", absl::StrFormat("%.0f tok/s (range %.0f - %.0f)", e.prefill_tok_s,
                                 e.range.prefill_low, e.range.prefill_high));
  row("TTFT", absl::StrFormat("%.0f ms for %d prompt tokens", e.ttft_ms, e.prompt_tokens));
  row("safe context", absl::StrFormat("%d tokens", e.safe_context));
  row("workload", absl::StrFormat("context %d, prompt %d, generate %d, batch %d, KV %s", e.context,
                                  e.prompt_tokens, e.gen_tokens, e.batch, KvCacheTypeName(in.kv_cache)));
  row("serving", absl::StrFormat("up to %d sequences; at %d: %.1f tok/s total, %.1f per user%s",
                                 e.serving.max_concurrency, e.serving.concurrency,
                                 e.serving.aggregate_tok_s, e.serving.per_user_tok_s,
                                 e.serving.queued > 0
                                     ? absl::StrFormat(" (%d more queued)", e.serving.queued)
                                     : ""));
  o << "\nBasis:\n";
  for (const std::string& l : basis.Lines()) o << "  " << l << "\n";
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
