#include "engine/report/traits.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/text.h"
#include "catalog/vocabulary.h"
#include "engine/scoring/evaluate.h"
#include "engine/report/compare.h"
#include "engine/report/env.h"
#include "engine/report/gpu.h"

namespace fitrank {

GpuTraitFacts::GpuTraitFacts(rules::FactSchema* s) : setup(s) {
  catalog_memory_rank_pct = s->Number(
      "catalog.memory_rank_pct", "share of the catalog's GPUs with less memory", "%");
  catalog_bandwidth_rank_pct = s->Number(
      "catalog.bandwidth_rank_pct", "share of the catalog's GPUs with less bandwidth", "%");
  models_native = s->Number("models.native", "catalog LLMs that fit natively on one GPU");
  models_total = s->Number("models.total", "catalog LLMs counted");
  models_count_quant = s->String("models.count_quant", "the quantization the counts assume");
  top_count = s->Number("top.count", "the top models by quality the buying advice counts");
  top_runs_well = s->Number("top.runs_well", "of those, graded at least top.min_grade");
  top_native = s->Number("top.native", "of those, fitting natively at models.count_quant");
  top_native_slow = s->Number(
      "top.native_slow", "of those fitting natively, decoding below top.decode_target_tok_s");
  top_decode_target_tok_s = s->Number(
      "top.decode_target_tok_s", "the decode speed target of top.workload in the mode", "tok/s");
  top_min_grade = s->String("top.min_grade", "grade that counts as running well");
  top_workload = s->String("top.workload", "workload the top models are graded for");
  diffusion_native = s->Number("diffusion.native", "diffusion models that run natively");
  diffusion_runnable = s->Number("diffusion.runnable", "diffusion models that run (with offload)");
  diffusion_total = s->Number("diffusion.total", "diffusion models in the catalog");
  scale_max_gpus = s->Number("scale.max_gpus", "GPUs in the multi-GPU table's last row");
  scale_memory_gb = s->Number("scale.memory_gb", "usable memory of that many GPUs", "GB");
  scale_models_fit = s->Number("scale.models_fit", "catalog LLMs that fit natively on them");
  scale_models_total = s->Number("scale.models_total", "catalog LLMs counted");
  scale_link = s->String("scale.link", "the link the GPUs talk over (\"PCIe\" if none)");
  auto row = [s](const std::string& name, const std::string& what) {
    CapRow r;
    r.model = s->String(absl::StrCat("cap.", name, "_model"), absl::StrCat(what, ": model"));
    r.status = s->String(absl::StrCat("cap.", name, "_status"),
                         absl::StrCat(what, ": native | offload | no | unknown"));
    r.quant = s->String(absl::StrCat("cap.", name, "_quant"), absl::StrCat(what, ": quantization"));
    r.decode_tok_s = s->Number(absl::StrCat("cap.", name, "_decode_tok_s"),
                               absl::StrCat(what, ": decode speed"), "tok/s");
    r.memory_gb = s->Number(absl::StrCat("cap.", name, "_memory_gb"),
                            absl::StrCat(what, ": memory needed"), "GB");
    return r;
  };
  cap_chat = row("chat", "capability matrix, LLM chat (~8B)");
  cap_coding = row("coding", "capability matrix, LLM coding (~30B)");
  cap_large = row("large", "capability matrix, LLM large (~70B)");
}

DecisionFacts::DecisionFacts(rules::FactSchema* s) : setup(s) {
  others_max_interconnect_gbps = s->Number("others.max_interconnect_gbps",
                                           "fastest GPU-to-GPU link of the others (0: PCIe)", "GB/s");
  others_unpriced_count = s->Number("others.unpriced_count", "other GPUs whose price is unknown");
  others_unpriced = s->String("others.unpriced", "their names, joined with \", \"");
  gpu_usd_per_mtok_owned = s->Number(
      "gpu.usd_per_mtok_owned", "owned cost per million generated tokens (unset: unknown)", "USD");
  gpu_models_fit = s->Number("gpu.models_fit", "catalog LLMs that fit natively");
  others_max_usable_gb = s->Number("others.max_usable_gb", "most usable memory of the others", "GB");
  others_max_bandwidth_gbps =
      s->Number("others.max_bandwidth_gbps", "highest bandwidth of the others", "GB/s");
  others_min_price_usd =
      s->Number("others.min_price_usd", "cheapest known price of the others", "USD");
  others_min_usd_per_mtok_owned = s->Number(
      "others.min_usd_per_mtok_owned", "lowest known owned cost per million tokens", "USD");
  others_min_tdp_w = s->Number("others.min_tdp_w", "lowest known board power of the others", "W");
  others_max_models_fit = s->Number("others.max_models_fit", "most models fitting on another");
  others_any_fp8 = s->Bool("others.any_fp8", "another GPU has FP8 in hardware");
  others_any_fp4 = s->Bool("others.any_fp4", "another GPU has FP4 in hardware");
  others_any_pcie = s->Bool("others.any_pcie", "another GPU is a PCIe card");
  only_models_count = s->Number("only.models_count", "catalog models only this GPU runs natively");
  only_models = s->String("only.models", "their names, the first three then \"and N more\"");
  only_platforms = s->StringList("only.platforms", "platforms only this GPU has (Vulkan aside)");
  only_runtimes = s->StringList("only.runtimes", "runtimes that run only on those platforms");
  only_runtime_count = s->Number("only.runtime_count", "how many such runtimes");
  only_platform_count = s->Number("only.platform_count", "how many such platforms");
  ref_model = s->String("ref.model", "largest reference model every compared GPU runs natively");
  ref_decode_tok_s = s->Number("ref.decode_tok_s", "this GPU's decode speed on it", "tok/s");
  ref_others_max_decode_tok_s =
      s->Number("ref.others_max_decode_tok_s", "the fastest other GPU's decode on it", "tok/s");
}

namespace {

std::shared_ptr<rules::FactSchema> GpuSchema() {
  auto s = std::make_shared<rules::FactSchema>();
  GpuTraitFacts facts(s.get());
  return s;
}

std::shared_ptr<rules::FactSchema> CompareSchema() {
  auto s = std::make_shared<rules::FactSchema>();
  DecisionFacts facts(s.get());
  return s;
}

// Share (0-100) of catalog GPUs, CPU hosts excluded, with a value below `v`.
template <class F>
double RankPct(const Catalog& c, F value, double v) {
  int below = 0, all = 0;
  for (const Gpu& g : c.gpus()) {
    if (g.segment == Segment::kCpu) continue;
    ++all;
    below += value(g) < v;
  }
  return all ? 100.0 * below / all : 0;
}

bool Has(const std::vector<std::string>& v, absl::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string NameList(const std::vector<std::string>& names, size_t max) {
  std::vector<std::string> v(names.begin(), names.begin() + std::min(max, names.size()));
  std::string s = absl::StrJoin(v, ", ");
  if (names.size() > max) absl::StrAppend(&s, " and ", names.size() - max, " more");
  return s;
}

absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> LoadBook(
    const TraitBookSpec& spec, std::shared_ptr<rules::FactSchema> schema,
    const FileSource& shipped, const FileSource* local, const rules::Vocabulary& vocab,
    bool warnings, Diagnostics* diags) {
  rules::RuleSources src;
  src.shipped = &shipped;
  src.shipped_dir = spec.shipped_dir;
  src.local = local;
  src.local_dir = spec.local_dir;
  rules::CompileOptions options;
  options.vocab = vocab;
  options.vocab.sets = spec.kinds;
  options.warnings = warnings;
  const int errors_before = diags->error_count();
  absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> compiled = rules::LoadRules(
      src, std::move(schema), options, diags, [&](const std::vector<rules::RuleFile>& files) {
        CheckTraitKinds(files, spec.kinds, spec.name, diags);
      });
  if (absl::IsInvalidArgument(compiled.status())) {
    const int errors = diags->error_count() - errors_before;
    return absl::InvalidArgumentError(
        absl::StrCat(errors, errors == 1 ? " error" : " errors", " in the ", spec.name, " rules"));
  }
  return compiled;
}

// Renders the fired rules of `book` for `facts` into sentences, book order.
std::vector<RuleSentence> Fired(const rules::CompiledRules& book, const rules::FactValues& facts,
                                int mode_index) {
  rules::EvalResult result;
  book.Evaluate(facts, -1, mode_index, &result);
  std::vector<RuleSentence> out;
  // A rule tagged `fallback` speaks only when no other rule of its set fired.
  std::set<std::string> sets_fired;
  for (int i = 0; i < book.rule_count(); ++i) {
    const rules::RuleInfo& info = book.rules()[i];
    if (result.fired[i] && !Has(info.tags, "fallback")) sets_fired.insert(info.set);
  }
  for (int i = 0; i < book.rule_count(); ++i) {
    if (!result.fired[i]) continue;
    const rules::RuleInfo& info = book.rules()[i];
    if (Has(info.tags, "fallback") && sets_fired.count(info.set)) continue;
    std::string text = book.Say(i, facts, -1, mode_index, result.contribution[i]);
    if (text.empty()) continue;
    out.push_back({info.id, info.set, std::move(text)});
  }
  return out;
}

void SetKnown(rules::FactValues* v, rules::NumberFact f, double x) {
  if (x > 0) v->Set(f, x);
}

}  // namespace

const std::vector<TraitBookSpec>& TraitBooks() {
  static const auto* kBooks = new std::vector<TraitBookSpec>{
      {"gpu traits", "engine/report/traits/gpu", "traits/gpu",
       {"strength", "consideration", "red-flag", "limiter"}, GpuSchema},
      {"compare decisions", "engine/report/traits/compare", "traits/compare", {"decision"},
       CompareSchema},
  };
  return *kBooks;
}

void CheckTraitKinds(const std::vector<rules::RuleFile>& files,
                     const std::vector<std::string>& kinds, const std::string& book,
                     Diagnostics* diags) {
  for (const rules::RuleFile& f : files) {
    if (!f.parsed || f.rules.empty() || Has(kinds, f.set)) continue;
    std::string hint = DidYouMean(ClosestMatches(f.set, kinds, 1));
    if (hint.empty()) hint = absl::StrCat("one of ", QuotedList(kinds));
    diags->Error("unknown-kind", f.set_where,
                 absl::StrCat("the ", book, " rules have no set `", f.set,
                              "`: its sentences would appear nowhere"),
                 hint);
  }
}

absl::StatusOr<std::unique_ptr<ReportTraits>> ReportTraits::Load(const FileSource& shipped,
                                                                 const FileSource* local,
                                                                 const Profiles& profiles,
                                                                 bool warnings,
                                                                 Diagnostics* diags) {
  std::unique_ptr<ReportTraits> t(new ReportTraits());
  rules::Vocabulary vocab = VocabularyOf(profiles);
  t->mode_count_ = static_cast<int>(vocab.modes.size());
  t->gpu_schema_ = std::make_shared<rules::FactSchema>();
  t->gpu_facts_ = std::make_unique<GpuTraitFacts>(t->gpu_schema_.get());
  t->compare_schema_ = std::make_shared<rules::FactSchema>();
  t->compare_facts_ = std::make_unique<DecisionFacts>(t->compare_schema_.get());
  const std::vector<TraitBookSpec>& books = TraitBooks();
  absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> gpu =
      LoadBook(books[0], t->gpu_schema_, shipped, local, vocab, warnings, diags);
  absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> cmp =
      LoadBook(books[1], t->compare_schema_, shipped, local, vocab, warnings, diags);
  if (!gpu.ok()) return gpu.status();
  if (!cmp.ok()) return cmp.status();
  t->gpu_book_ = *std::move(gpu);
  t->compare_book_ = *std::move(cmp);
  return t;
}

ReportTraits::GpuSentences ReportTraits::GpuTraits(const ReportEnv& env, const Setup& setup,
                                                   const GpuReport& r) const {
  const GpuTraitFacts& f = *gpu_facts_;
  const Gpu& g = r.specs.gpu;
  const Catalog& c = *env.catalog;
  rules::FactValues v(*gpu_schema_);
  const SetupSubject subject(c, *env.estimator, setup);
  f.setup.Fill(subject, &v);
  v.Set(f.catalog_memory_rank_pct,
        RankPct(c, [](const Gpu& x) { return x.memory_gb; }, g.memory_gb));
  v.Set(f.catalog_bandwidth_rank_pct,
        RankPct(c, [](const Gpu& x) { return x.bandwidth_gbps; }, g.bandwidth_gbps));
  if (!r.multi_gpu.rows.empty()) {
    v.Set(f.models_native, r.multi_gpu.rows[0].models_fit);
    v.Set(f.models_total, r.multi_gpu.rows[0].models_total);
  }
  v.Set(f.models_count_quant, env.policy->count_quant->id);
  const BuyingAdvice& b = r.buying_advice;
  v.Set(f.top_count, b.top_n);
  v.Set(f.top_runs_well, b.runs_well);
  v.Set(f.top_native, b.top_native);
  v.Set(f.top_native_slow, b.top_native_slow);
  v.Set(f.top_decode_target_tok_s, b.decode_target_tok_s);
  v.Set(f.top_min_grade, env.policy->top_models_min_grade->letter);
  v.Set(f.top_workload, env.policy->top_models_workload->id);
  v.Set(f.diffusion_native, r.diffusion.native);
  v.Set(f.diffusion_runnable, r.diffusion.runnable);
  v.Set(f.diffusion_total, r.diffusion.total);
  std::string link = r.multi_gpu.interconnect.empty() ? "PCIe" : r.multi_gpu.interconnect;
  if (r.multi_gpu.rows.size() > 1) {
    const ScalingRow& last = r.multi_gpu.rows.back();
    v.Set(f.scale_max_gpus, last.gpu_count);
    v.Set(f.scale_memory_gb, last.memory_gb);
    v.Set(f.scale_models_fit, last.models_fit);
    v.Set(f.scale_models_total, last.models_total);
    v.Set(f.scale_link, link);
  }
  auto fill_row = [&](const std::string& id, const GpuTraitFacts::CapRow& fr) {
    for (const CapabilityRow& row : r.capability_matrix) {
      if (row.id != id || row.status == RunStatus::kUnknown) continue;
      v.Set(fr.model, row.model);
      v.Set(fr.status, RunStatusName(row.status));
      v.Set(fr.quant, row.quant);
      v.Set(fr.decode_tok_s, row.decode_tok_s);
      v.Set(fr.memory_gb, row.memory_gb);
    }
  };
  fill_row("llm-chat", f.cap_chat);
  fill_row("llm-coding", f.cap_coding);
  fill_row("llm-large", f.cap_large);

  const int mode = env.profiles->IndexOf(*r.mode);
  GpuSentences out;
  for (RuleSentence& s : Fired(*gpu_book_, v, mode)) {
    if (s.kind == "strength") {
      out.strengths.push_back(std::move(s));
    } else if (s.kind == "consideration") {
      out.considerations.push_back(std::move(s));
    } else if (s.kind == "red-flag") {
      out.red_flags.push_back(std::move(s));
    } else if (s.kind == "limiter" && !out.limiter) {
      out.limiter = std::move(s);
    }
  }
  return out;
}

std::vector<RuleSentence> ReportTraits::Decisions(
    const ReportEnv& env, const CompareReport& r, const std::vector<const Gpu*>& gpus, size_t i,
    const Setup& setup, const std::vector<std::string>& only_native_models) const {
  const DecisionFacts& f = *compare_facts_;
  const Gpu& g = *gpus[i];
  rules::FactValues v(*compare_schema_);
  const SetupSubject subject(*env.catalog, *env.estimator, setup);
  f.setup.Fill(subject, &v);
  if (i < r.cost.size()) SetKnown(&v, f.gpu_usd_per_mtok_owned, r.cost[i].usd_per_mtok_owned);
  v.Set(f.gpu_models_fit, r.gpus[i].models_fit);
  double max_link = 0;
  std::vector<std::string> unpriced;
  double max_usable = 0, max_bw = 0, min_price = 0, min_mtok = 0, min_tdp = 0, max_fit = 0;
  bool any_fp8 = false, any_fp4 = false, any_pcie = false;
  auto lower = [](double* acc, double x) {
    if (x > 0 && (*acc == 0 || x < *acc)) *acc = x;
  };
  for (size_t j = 0; j < gpus.size(); ++j) {
    if (j == i) continue;
    max_usable = std::max(max_usable, r.gpus[j].specs.usable_gb);
    max_bw = std::max(max_bw, gpus[j]->bandwidth_gbps);
    max_link = std::max(max_link, gpus[j]->interconnect_gbps);
    max_fit = std::max<double>(max_fit, r.gpus[j].models_fit);
    lower(&min_price, r.gpus[j].price_usd);
    if (r.gpus[j].price_usd <= 0) unpriced.push_back(gpus[j]->name);
    if (j < r.cost.size()) lower(&min_mtok, r.cost[j].usd_per_mtok_owned);
    lower(&min_tdp, gpus[j]->tdp_w);
    any_fp8 |= HasFp8(*gpus[j]);
    any_fp4 |= HasFp4(*gpus[j]);
    any_pcie |= IsPcieCard(*gpus[j]);
  }
  v.Set(f.others_max_usable_gb, max_usable);
  v.Set(f.others_max_bandwidth_gbps, max_bw);
  v.Set(f.others_max_interconnect_gbps, max_link);
  v.Set(f.others_unpriced_count, static_cast<double>(unpriced.size()));
  const std::string unpriced_names = absl::StrJoin(unpriced, ", ");
  v.Set(f.others_unpriced, unpriced_names);
  v.Set(f.others_max_models_fit, max_fit);
  SetKnown(&v, f.others_min_price_usd, min_price);
  SetKnown(&v, f.others_min_usd_per_mtok_owned, min_mtok);
  SetKnown(&v, f.others_min_tdp_w, min_tdp);
  v.Set(f.others_any_fp8, any_fp8);
  v.Set(f.others_any_fp4, any_fp4);
  v.Set(f.others_any_pcie, any_pcie);

  v.Set(f.only_models_count, static_cast<double>(only_native_models.size()));
  const std::string only_models = NameList(only_native_models, 3);
  v.Set(f.only_models, only_models);
  // Platforms only this GPU has (Vulkan runs nearly everywhere: it never decides), and the
  // runtimes that need one of them.
  std::set<std::string> mine(g.platforms.begin(), g.platforms.end());
  for (size_t j = 0; j < gpus.size(); ++j) {
    if (j == i) continue;
    for (const std::string& p : gpus[j]->platforms) mine.erase(p);
  }
  mine.erase("Vulkan");
  const std::vector<std::string> only_platforms(mine.begin(), mine.end());
  std::vector<std::string> only_runtimes;
  if (!mine.empty()) {
    for (const Runtime& rt : env.catalog->runtimes()) {
      bool needs = true, mine_runs = false;
      for (const std::string& p : rt.platforms) {
        bool other_has = false;
        for (size_t j = 0; j < gpus.size(); ++j) other_has |= j != i && Has(gpus[j]->platforms, p);
        if (other_has || p == "CPU") needs = false;
        mine_runs |= mine.count(p) > 0;
      }
      if (needs && mine_runs) only_runtimes.push_back(rt.name);
    }
  }
  v.Set(f.only_platforms, absl::MakeConstSpan(only_platforms));
  v.Set(f.only_runtimes, absl::MakeConstSpan(only_runtimes));
  v.Set(f.only_runtime_count, static_cast<double>(only_runtimes.size()));
  v.Set(f.only_platform_count, static_cast<double>(only_platforms.size()));
  // The largest reference model every GPU runs natively.
  for (auto it = r.reference_models.rbegin(); it != r.reference_models.rend(); ++it) {
    bool all = true;
    for (const RefModelCell& cell : it->cells) all &= IsNative(cell.fit);
    if (!all || i >= it->cells.size()) continue;
    double other = 0;
    for (size_t j = 0; j < it->cells.size(); ++j) {
      if (j != i) other = std::max(other, it->cells[j].decode_tok_s);
    }
    v.Set(f.ref_model, it->model->name);
    v.Set(f.ref_decode_tok_s, it->cells[i].decode_tok_s);
    SetKnown(&v, f.ref_others_max_decode_tok_s, other);
    break;
  }
  const int mode = env.profiles->IndexOf(*r.mode);
  return Fired(*compare_book_, v, mode);
}

}  // namespace fitrank
