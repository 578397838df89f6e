#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/render_json.h"
#include "cli/render_reports.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

// JSON numbers: finite, rounded to what the estimate can claim (always written as decimals,
// unlike JNum: `estimate --json` predates it and its consumers parse these as floats).
double J(double v, int decimals = 2) {
  if (!std::isfinite(v)) return 0;
  const double p = std::pow(10.0, decimals);
  return std::round(v * p) / p;
}

// "Q4_K_M", or "4.65 bpw" for weights given in bits per weight.
std::string QuantLabel(const EstimateReport& r) {
  return !r.quant.empty() ? r.quant : absl::StrFormat("%.2f bpw", r.requested_bpw);
}

// One row: the estimate's numbers, raw, units in the headers (CSV and markdown).
TextTable EstimateRow(const EstimateReport& r) {
  const Estimate& e = r.estimate;
  TextTable t({"model_id", "quant", "bpw", "runtime", "gpu_count", "parallelism", "context",
               "kv_cache", "weights_gb", "kv_gb", "overhead_gb", "total_gb", "usable_gb",
               "fit", "offload_pct", "decode_tok_s", "decode_low_tok_s", "decode_high_tok_s",
               "prefill_tok_s", "ttft_ms", "safe_context"});
  t.Add({r.model_id, QuantLabel(r), CsvNumber(e.bpw, 3), r.runtime, absl::StrCat(r.gpu_count),
         std::string(ParallelismName(e.parallelism)), absl::StrCat(e.context),
         std::string(KvCacheTypeName(e.kv_cache)), CsvNumber(e.memory.weights_gb, 2),
         CsvNumber(e.memory.kv_gb, 2), CsvNumber(e.memory.overhead_gb, 2),
         CsvNumber(e.memory.total_gb, 2), CsvNumber(e.memory.usable_gb, 2),
         std::string(FitKindName(e.fit.kind)), CsvNumber(e.fit.offload_pct, 1),
         CsvNumber(e.decode_tok_s, 1), CsvNumber(e.range.decode_low, 1),
         CsvNumber(e.range.decode_high, 1), CsvNumber(e.prefill_tok_s, 0),
         CsvNumber(e.ttft_ms, 0), absl::StrCat(e.safe_context)});
  return t;
}

// "Qwen3 32B · Q4_K_M (4.85 bpw) · llama.cpp on CUDA · 2x GeForce RTX 3090 (layer split)"
std::string Title(const EstimateReport& r) {
  const Estimate& e = r.estimate;
  std::string title = absl::StrCat(r.model, " · ", QuantLabel(r), " (",
                                   absl::StrFormat("%.2f", e.bpw), " bpw) · ", r.runtime, " on ",
                                   BackendName(e.backend), " · ", r.setup_label);
  if (r.gpu_count > 1) absl::StrAppend(&title, " (", ParallelismName(e.parallelism), " split)");
  return title;
}

}  // namespace

nlohmann::json EstimateJson(const EstimateReport& r) {
  const Estimate& e = r.estimate;
  nlohmann::json j;
  j["schema_version"] = kReportSchemaVersion;
  j["model"] = r.model;
  j["model_id"] = r.model_id;
  j["quant"] = QuantLabel(r);
  j["bpw"] = J(e.bpw, 3);
  j["runtime"] = r.runtime;
  j["backend"] = std::string(BackendName(e.backend));
  j["setup"] = {{"label", r.setup_label},
                {"gpu_count", r.gpu_count},
                {"parallelism", std::string(ParallelismName(e.parallelism))},
                {"host_ram_gb", J(r.host_ram_gb, 1)},
                {"host_bandwidth_gbps", J(r.host_bandwidth_gbps, 1)}};
  j["workload"] = {{"context", e.context}, {"prompt_tokens", e.prompt_tokens},
                   {"gen_tokens", e.gen_tokens}, {"batch", e.batch},
                   {"kv_cache", std::string(KvCacheTypeName(r.kv_cache))}};
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
  j["problems"] = r.basis.problems;
  nlohmann::json b;
  BasisToJson(r.basis, &b);
  j["basis"] = std::move(b);
  return j;
}

void RenderEstimate(const EstimateReport& r, OutputFormat f, const Style& s, std::ostream& o) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    const nlohmann::json j = EstimateJson(r);
    o << (f == OutputFormat::kJsonl ? j.dump() : j.dump(2)) << "\n";
    return;
  }
  if (f == OutputFormat::kCsv) {
    EstimateRow(r).PrintCsv(o);
    return;
  }
  if (f == OutputFormat::kMarkdown) {
    o << "## " << Title(r) << "\n\n";
    EstimateRow(r).PrintMarkdown(o);
    o << "\n### Basis\n\n";
    for (const std::string& l : r.basis.Lines()) o << "- " << l << "\n";
    return;
  }
  const Estimate& e = r.estimate;
  o << Title(r) << "\n\n";
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
                                  e.prompt_tokens, e.gen_tokens, e.batch,
                                  KvCacheTypeName(r.kv_cache)));
  row("serving", absl::StrFormat("up to %d sequences; at %d: %.1f tok/s total, %.1f per user%s",
                                 e.serving.max_concurrency, e.serving.concurrency,
                                 e.serving.aggregate_tok_s, e.serving.per_user_tok_s,
                                 e.serving.queued > 0
                                     ? absl::StrFormat(" (%d more queued)", e.serving.queued)
                                     : ""));
  o << "\nBasis:\n";
  for (const std::string& l : r.basis.Lines()) o << "  " << l << "\n";
}

}  // namespace fitrank::cli
