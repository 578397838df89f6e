#include "engine/estimator/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/numbers.h"
#include "base/text.h"

namespace fitrank {
namespace {

// The largest batch a row may give: the estimator's range (`estimate --batch`).
constexpr int kMaxBatch = 4096;

const char* const kColumns[] = {"gpu",           "gpu_count",  "model",          "params_b",
                                "active_params_b", "quant",    "runtime",        "batch",
                                "prompt_tokens", "gen_tokens", "decode_tok_s",   "prefill_tok_s",
                                "source"};

// Text before the first '(' and the text inside the parentheses.
std::pair<std::string, std::string> SplitParens(absl::string_view s) {
  size_t open = s.find('(');
  if (open == absl::string_view::npos) return {std::string(absl::StripAsciiWhitespace(s)), ""};
  size_t close = s.find(')', open);
  std::string inner(s.substr(open + 1, close == absl::string_view::npos ? absl::string_view::npos : close - open - 1));
  return {std::string(absl::StripAsciiWhitespace(s.substr(0, open))), inner};
}

std::string StripVendor(absl::string_view s) {
  for (absl::string_view v : {"NVIDIA ", "AMD ", "Apple ", "Intel "}) {
    if (absl::StartsWith(s, v)) return std::string(s.substr(v.size()));
  }
  return std::string(s);
}

const Gpu* MapGpu(const Catalog& catalog, absl::string_view text, std::vector<std::string>* notes) {
  auto [base, inner] = SplitParens(text);
  std::vector<std::string> extra;
  for (absl::string_view w : absl::StrSplit(inner, absl::ByAnyChar(" ,/"), absl::SkipEmpty())) {
    std::string lw = absl::AsciiStrToLower(w);
    if (lw == "pcie" || lw == "sxm" || lw == "sxm4" || lw == "sxm5" ||
        (absl::EndsWith(lw, "gb") && std::isdigit(static_cast<unsigned char>(lw[0])))) {
      extra.push_back(std::string(w));
    }
  }
  std::vector<std::string> queries = {std::string(text), base, StripVendor(base)};
  if (!extra.empty()) {
    queries.insert(queries.begin() + 1, absl::StrCat(StripVendor(base), " ", absl::StrJoin(extra, " ")));
  }
  for (const std::string& q : queries) {
    Lookup<Gpu> r = catalog.FindGpu(q);
    if (r.found != nullptr) return r.found;
    if (!r.ambiguous.empty()) {
      // Memory variants of one chip (same bandwidth and compute): take the largest.
      const Gpu* best = r.ambiguous[0];
      bool variants = true;
      for (const Gpu* g : r.ambiguous) {
        if (g->bandwidth_gbps != best->bandwidth_gbps || g->fp16_tflops != best->fp16_tflops) variants = false;
        if (g->memory_gb > best->memory_gb) best = g;
      }
      if (variants) {
        notes->push_back(absl::StrCat("GPU `", text, "`: memory variant ", best->name, " (largest)"));
        return best;
      }
    }
  }
  return nullptr;
}

Model SynthesizeModel(const MeasuredRow& row) {
  Model m;
  m.id = absl::StrCat("estimated:", row.model);
  m.name = row.model;
  m.params_b = row.params_b;
  const bool moe = row.active_params_b > 0 && row.active_params_b < 0.9 * row.params_b;
  m.active_params_b = row.active_params_b > 0 ? row.active_params_b : row.params_b;
  // Dense Llama-like shape of the active size: layers = hidden/128, 12 L H^2 = params.
  const double p = m.active_params_b * 1e9;
  int hidden = static_cast<int>(std::lround(std::cbrt(p * 128.0 / 12.0) / 128.0)) * 128;
  hidden = std::max(hidden, 512);
  m.hidden_size = hidden;
  m.layers = std::max(hidden / 128, 4);
  m.attention_heads = hidden / 128;
  m.kv_heads = std::min(8, m.attention_heads);
  m.head_dim = 128;
  m.max_context = 131072;
  if (moe) {
    m.experts = 64;
    m.experts_per_token = std::max(1, static_cast<int>(std::lround(64 * m.active_params_b / m.params_b)));
  }
  return m;
}

const Model* MapModel(const Catalog& catalog, const MeasuredRow& row, std::vector<std::string>* notes) {
  auto [base, inner] = SplitParens(row.model);
  std::vector<std::string> queries = {row.model, base};
  for (absl::string_view part : absl::StrSplit(base, '/')) queries.push_back(std::string(part));
  if (!inner.empty()) {
    std::string in = inner;
    absl::StrReplaceAll({{" finetune", ""}}, &in);
    queries.push_back(in);
  }
  for (const std::string& q : queries) {
    if (q.empty()) continue;
    Lookup<Model> r = catalog.FindModel(q);
    const Model* m = r.found;
    if (m == nullptr && !r.ambiguous.empty()) {
      // Variants (base/instruct) of the same size: any with matching parameters.
      for (const Model* c : r.ambiguous) {
        if (std::abs(c->params_b - row.params_b) <= 0.1 * row.params_b) {
          m = c;
          break;
        }
      }
    }
    if (m != nullptr && (row.params_b <= 0 || std::abs(m->params_b - row.params_b) <= 0.1 * row.params_b)) {
      if (q != row.model) notes->push_back(absl::StrCat("model `", row.model, "` as ", m->name));
      return m;
    }
  }
  return nullptr;
}

struct QuantMap {
  const Quant* quant = nullptr;
  double bpw = 0;
  std::string problem;  // why the quant text cannot be used as written
};

QuantMap MapQuant(const Catalog& catalog, absl::string_view text) {
  QuantMap out;
  auto [base, inner] = SplitParens(text);
  std::string first = std::string(base.substr(0, base.find(' ')));
  if (absl::StartsWithIgnoreCase(first, "EXL2-")) {
    std::string bits(absl::StripPrefix(first, "EXL2-"));
    if (absl::EndsWithIgnoreCase(bits, "bpw")) bits.resize(bits.size() - 3);
    double b = 0;
    // Decimal only and a plausible width (1-32 bits): "EXL2-infbpw" or "EXL2-1e300bpw" would
    // size weights at infinity, and SimpleAtod reads "nan" and hex. A width that is not one
    // leaves the row unmapped rather than estimated at some other width.
    if (ParseDecimal(bits, &b) == NumberParse::kOk && b >= 1 && b <= 32) {
      out.bpw = b;
    } else if (!bits.empty()) {
      out.problem = absl::StrCat("quant `", text, "`: `", bits,
                                 "` is not a width in bits per weight (1 to 32, decimal)");
      return out;
    }
    first = "EXL2";
  }
  for (const std::string& q : {std::string(text), base, first}) {
    Lookup<Quant> r = catalog.FindQuant(q);
    if (r.found != nullptr) {
      out.quant = r.found;
      return out;
    }
  }
  return out;
}

std::string GroupValue(absl::string_view key, absl::string_view v) { return absl::StrCat(key, "=", v); }

}  // namespace

bool ParseMeasurements(absl::string_view content, absl::string_view file,
                       std::vector<MeasuredRow>* rows, Diagnostics* diags) {
  const int before = diags->error_count();
  diags->AddSource(std::string(file), std::string(content));
  std::vector<absl::string_view> lines = absl::StrSplit(content, '\n');
  if (lines.empty() || absl::StripAsciiWhitespace(lines[0]).empty()) {
    diags->Error("empty-file", Location{std::string(file), 1, 1}, "the measurements file is empty",
                 "the first line names the columns: gpu, gpu_count, model, ...");
    return false;
  }
  std::vector<std::string> header = absl::StrSplit(absl::StripSuffix(lines[0], "\r"), '\t');
  std::map<std::string, int> col;
  for (size_t i = 0; i < header.size(); ++i) col[std::string(absl::StripAsciiWhitespace(header[i]))] = static_cast<int>(i);
  bool header_ok = true;
  for (const char* c : kColumns) {
    if (col.find(c) == col.end()) {
      diags->Error("missing-column", Location{std::string(file), 1, 1},
                   absl::StrCat("missing column `", c, "`"),
                   "columns: gpu, gpu_count, model, params_b, active_params_b, quant, runtime, batch, "
                   "prompt_tokens, gen_tokens, decode_tok_s, prefill_tok_s, source (tab-separated)");
      header_ok = false;
    }
  }
  if (!header_ok) return false;
  for (size_t ln = 1; ln < lines.size(); ++ln) {
    absl::string_view line = absl::StripSuffix(lines[ln], "\r");
    if (absl::StripAsciiWhitespace(line).empty() || absl::StartsWith(line, "#")) continue;
    std::vector<absl::string_view> cells = absl::StrSplit(line, '\t');
    std::vector<int> starts;  // 1-based column of each cell
    int pos = 1;
    for (absl::string_view c : cells) {
      starts.push_back(pos);
      pos += static_cast<int>(c.size()) + 1;
    }
    MeasuredRow r;
    r.line = static_cast<int>(ln) + 1;
    bool ok = true;
    auto cell = [&](const char* name) -> std::string {
      int i = col[name];
      return i < static_cast<int>(cells.size()) ? std::string(absl::StripAsciiWhitespace(cells[i])) : "";
    };
    auto where = [&](const char* name) {
      int i = col[name];
      return Location{std::string(file), r.line, i < static_cast<int>(starts.size()) ? starts[i] : pos};
    };
    auto num = [&](const char* name, double* out, bool required) {
      std::string v = cell(name);
      if (v.empty()) {
        if (required) {
          diags->Error("missing-value", where(name), absl::StrCat("`", name, "` is empty"));
          ok = false;
        }
        return;
      }
      double d = 0;
      if (ParseDecimal(v, &d) != NumberParse::kOk || d < 0) {
        diags->Error("bad-number", where(name), absl::StrCat("`", name, "` is not a non-negative number: `", v, "`"));
        ok = false;
        return;
      }
      *out = d;
    };
    r.gpu = cell("gpu");
    r.model = cell("model");
    r.quant = cell("quant");
    r.runtime = cell("runtime");
    r.source = cell("source");
    for (const char* req : {"gpu", "model", "quant", "runtime"}) {
      if (cell(req).empty()) {
        diags->Error("missing-value", where(req), absl::StrCat("`", req, "` is empty"));
        ok = false;
      }
    }
    double gc = 1, batch = 1, prompt = 0, gen = 0;
    num("gpu_count", &gc, true);
    num("params_b", &r.params_b, true);
    num("active_params_b", &r.active_params_b, false);
    num("batch", &batch, false);
    num("prompt_tokens", &prompt, false);
    num("gen_tokens", &gen, false);
    num("decode_tok_s", &r.decode_tok_s, false);
    num("prefill_tok_s", &r.prefill_tok_s, false);
    if (ok && (gc < 1 || gc > kMaxDevices || gc != std::floor(gc))) {
      diags->Error("bad-number", where("gpu_count"), "`gpu_count` must be a whole number from 1 to 64");
      ok = false;
    }
    if (ok && (batch > kMaxBatch || batch != std::floor(batch))) {
      diags->Error("bad-number", where("batch"),
                   absl::StrCat("`batch` must be a whole number from 1 to ", kMaxBatch));
      ok = false;
    }
    if (!ok) continue;
    r.gpu_count = static_cast<int>(gc);
    r.batch = std::max(1, static_cast<int>(batch));
    r.prompt_tokens = static_cast<int>(std::min(prompt, 1e7));
    r.gen_tokens = static_cast<int>(std::min(gen, 1e7));
    r.prefill_from_ttft = absl::StrContains(r.source, "prefill=prompt/TTFT");
    rows->push_back(std::move(r));
  }
  return diags->error_count() == before;
}

CalibrationStats ComputeStats(std::vector<double> apes) {
  CalibrationStats s;
  s.rows = static_cast<int>(apes.size());
  if (apes.empty()) return s;
  std::sort(apes.begin(), apes.end());
  const size_t n = apes.size();
  s.median_ape = n % 2 == 1 ? apes[n / 2] : (apes[n / 2 - 1] + apes[n / 2]) / 2;
  double sum = 0;
  int within = 0;
  for (double a : apes) {
    sum += a;
    if (a <= 25.0) ++within;
  }
  s.mean_ape = sum / n;
  s.within_25 = 100.0 * within / n;
  return s;
}

CalibrationReport RunCalibration(const Catalog& catalog, const Estimator& estimator,
                                 const std::vector<MeasuredRow>& rows) {
  CalibrationReport rep;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> groups;
  for (const MeasuredRow& row : rows) {
    CalibrationRow cr;
    cr.row = row;
    const Gpu* gpu = MapGpu(catalog, row.gpu, &cr.notes);
    auto [rt_name, rt_inner] = SplitParens(row.runtime);
    Lookup<Runtime> rt = catalog.FindRuntime(rt_name);
    QuantMap qm = MapQuant(catalog, row.quant);
    if (gpu == nullptr) cr.reason = absl::StrCat("unknown GPU `", row.gpu, "`");
    else if (rt.found == nullptr) cr.reason = absl::StrCat("unknown runtime `", row.runtime, "`");
    else if (!qm.problem.empty()) cr.reason = qm.problem;
    else if (qm.quant == nullptr) cr.reason = absl::StrCat("unknown quant `", row.quant, "`");
    if (!cr.reason.empty()) {
      ++rep.unmapped;
      rep.rows.push_back(std::move(cr));
      continue;
    }
    // A 16-bit checkpoint under a runtime with its own format name (MLC's q0f16 for F16).
    if (qm.quant->bits >= 16 && !rt.found->quant_families.empty()) {
      bool loads = false;
      for (const std::string& f : rt.found->quant_families) loads = loads || f == qm.quant->family;
      if (!loads) {
        for (const Quant& q : catalog.quants()) {
          bool fam = false;
          for (const std::string& f : rt.found->quant_families) fam = fam || f == q.family;
          if (fam && q.bits >= 16) {
            cr.notes.push_back(absl::StrCat("quant `", row.quant, "` as ", q.id, " (", rt.found->id, "'s 16-bit format)"));
            qm.quant = &q;
            break;
          }
        }
      }
    }
    Backend backend = Backend::kAuto;
    if (!rt_inner.empty()) {
      std::string first(rt_inner.substr(0, rt_inner.find_first_of(" ,")));
      if (!ParseBackend(first, &backend)) backend = Backend::kAuto;
    }
    // The run's options in the brackets: fa=1 / fa=0 (flash attention), b=N (llama-bench batch:
    // micro-batches of at most N tokens), sm=row / sm=layer (llama.cpp's split mode: row splits
    // every matrix across the GPUs, tensor parallelism in the estimator's terms). llama.cpp rows
    // that do not say fa=1 ran without it (llama-bench's default until 2025).
    FlashAttention flash = FlashAttention::kDefault;
    std::optional<Parallelism> split;
    int ubatch = 0;
    for (absl::string_view w : absl::StrSplit(rt_inner, absl::ByAnyChar(" ,"), absl::SkipEmpty())) {
      int n = 0;
      if (w == "fa=1") {
        flash = FlashAttention::kOn;
      } else if (w == "fa=0") {
        flash = FlashAttention::kOff;
      } else if (w == "sm=row") {
        split = Parallelism::kTensor;
      } else if (w == "sm=layer") {
        split = Parallelism::kLayer;
      } else if (absl::StartsWith(w, "b=") && absl::SimpleAtoi(w.substr(2), &n) && n > 0) {
        ubatch = n;
      }
    }
    if (flash == FlashAttention::kDefault && rt.found != nullptr &&
        estimator.constants().RuntimeFamilyOf(rt.found->id) ==
            estimator.constants().FamilyIndex("llama.cpp")) {
      flash = FlashAttention::kOff;
    }
    Model synth;
    const Model* model = MapModel(catalog, row, &cr.notes);
    if (model == nullptr) {
      if (!(row.params_b > 0)) {
        cr.reason = absl::StrCat("model `", row.model, "` not in the catalog and no params_b");
        ++rep.unmapped;
        rep.rows.push_back(std::move(cr));
        continue;
      }
      synth = SynthesizeModel(row);
      model = &synth;
      cr.notes.push_back(absl::StrCat("model `", row.model, "` synthesized from ", row.params_b, "B params"));
    }
    absl::StatusOr<Setup> setup = BuildSetup(estimator, {{gpu, row.gpu_count}}, SetupOptions{
        std::nullopt, std::nullopt, split, nullptr, &catalog.interconnects()});
    if (!setup.ok()) {
      cr.reason = std::string(setup.status().message());
      ++rep.unmapped;
      rep.rows.push_back(std::move(cr));
      continue;
    }
    EstimateInput in;
    in.setup = &*setup;
    in.model = model;
    in.quant = qm.quant;
    in.bpw = qm.bpw;
    in.runtime = rt.found;
    in.backend = backend;
    in.flash_attn = flash;
    if (ubatch > 0) in.ubatch = std::min(ubatch, 512);
    in.prompt_tokens = row.prompt_tokens;
    in.gen_tokens = row.gen_tokens;
    in.batch = row.batch;
    const int used = (row.prompt_tokens > 0 ? row.prompt_tokens : 512) + (row.gen_tokens > 0 ? row.gen_tokens : 256);
    in.context = std::max(used, 512);
    Estimate e;
    estimator.Run(in, &e);
    cr.gpu_id = gpu->id;
    cr.model_id = model->id;
    cr.quant_id = qm.quant->id;
    cr.runtime_id = rt.found->id;
    cr.backend = std::string(BackendName(e.backend));
    if (!e.runnable() || e.fit.kind == FitKind::kNoFit) {
      std::vector<std::string> why = DescribeProblems(e.problems & kBlockingProblems, in);
      cr.reason = e.runnable() ? absl::StrCat("does not fit (", e.memory.total_gb, " GB needed, ",
                                              e.memory.usable_gb, " GB usable)")
                               : absl::StrJoin(why, "; ");
      ++rep.unmapped;
      rep.rows.push_back(std::move(cr));
      continue;
    }
    cr.mapped = true;
    cr.decode_pred = e.decode_tok_s;
    cr.prefill_pred = row.prefill_from_ttft && e.ttft_ms > 0 ? row.prompt_tokens * 1000.0 / e.ttft_ms
                                                             : e.prefill_tok_s;
    if (row.decode_tok_s > 0) cr.decode_ape = std::abs(cr.decode_pred - row.decode_tok_s) / row.decode_tok_s * 100;
    if (row.prefill_tok_s > 0) cr.prefill_ape = std::abs(cr.prefill_pred - row.prefill_tok_s) / row.prefill_tok_s * 100;
    const int family = e.runtime_family;
    const std::string fam = family >= 0 ? estimator.constants().runtime_families()[family].family : rt.found->id;
    cr.groups = {"overall", GroupValue("vendor", gpu->vendor),
                 GroupValue("runtime", absl::StrCat(fam, "/", cr.backend)),
                 GroupValue("gpus", row.gpu_count > 1 ? "multi" : "single"),
                 GroupValue("model", model->experts > 1 && model->active_params_b < 0.95 * model->params_b ? "moe" : "dense")};
    for (const std::string& g : cr.groups) {
      if (cr.decode_ape >= 0) groups[g].first.push_back(cr.decode_ape);
      if (cr.prefill_ape >= 0) groups[g].second.push_back(cr.prefill_ape);
    }
    rep.rows.push_back(std::move(cr));
  }
  CalibrationGroup overall{"overall", ComputeStats(groups["overall"].first), ComputeStats(groups["overall"].second)};
  rep.groups.push_back(overall);
  for (auto& [name, v] : groups) {
    if (name == "overall") continue;
    rep.groups.push_back({name, ComputeStats(v.first), ComputeStats(v.second)});
  }
  return rep;
}

}  // namespace fitrank
