// Report sentences written as rules: the GPU page's strengths and considerations and the
// comparison's "pick X if ..." decision list. Analysts tune them in YAML, never in C++:
//
//   engine/report/traits/gpu/*.yaml      facts about one GPU setup (GpuTraitFacts below); rule sets
//                                 `strength` and `consideration` (one set per file)
//   engine/report/traits/compare/*.yaml  facts about one GPU among the compared ones (DecisionFacts);
//                                 rule set `decision`
//
// The files use the scoring rules' language unchanged (rules/rule_file.h, rules/README.md):
// `when` is the condition, `say` the sentence with facts interpolated ("{gpu.memory_gb:.0f}
// GB"), `modes` restricts a rule to operating modes; `score`, `cap` and `gate` mean nothing
// here (lint accepts them; reports ignore them). A rule's sentence is reported when it fires,
// in book order, with the rule id next to it (the JSON's `strength_rules` etc.), so every
// sentence can be traced to the line that wrote it. A decision rule tagged `fallback` is used
// only when no other decision rule fired for that GPU.
//
// Load order, as for the scoring rules (rules/rule_book.h): the shipped files of each
// directory (embedded; a --data DIR overlays them file by file), sorted by name, then the
// local rules directory's `traits/gpu/*.yaml` and `traits/compare/*.yaml` (--rules DIR or
// $FITRANK_RULES), which add rules and override or disable shipped ones by id. A file whose
// `set` is not one of its book's kinds is an error (its sentences would go nowhere).
//
// Thread safety: a loaded ReportTraits is immutable; every method may run concurrently.
#ifndef FITRANK_ENGINE_REPORT_TRAITS_H_
#define FITRANK_ENGINE_REPORT_TRAITS_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/types.h"
#include "engine/scoring/setup_facts.h"
#include "profiles/profiles.h"
#include "rules/compiled_rules.h"
#include "rules/facts.h"
#include "rules/rule_book.h"

namespace fitrank {

struct ReportEnv;
struct GpuReport;
struct CompareReport;

// One sentence from a fired rule.
struct RuleSentence {
  std::string rule_id;  // "gpu.memory-high"
  std::string kind;     // the rule's set: "strength", "consideration", "decision"
  std::string text;
};

// Facts of one GPU setup, for engine/report/traits/gpu/*.yaml. Units are in the names; every fact's
// doc is shown by lint hints and `fitrank rules schema`-style listings.
struct GpuTraitFacts {
  explicit GpuTraitFacts(rules::FactSchema* schema);
  // gpu.*, setup.*, price.*: the shared table (engine/scoring/setup_facts.h), of the page's
  // whole setup (gpu.* is its first GPU)
  SetupFacts setup;
  // catalog.*: where the GPU ranks among the catalog's GPUs (CPU hosts excluded)
  rules::NumberFact catalog_memory_rank_pct, catalog_bandwidth_rank_pct;
  // models.*: catalog LLMs that fit natively on one GPU (the scaling table's first row)
  rules::NumberFact models_native, models_total;
  rules::StringFact models_count_quant;
  // top.*: the buying advice's "runs N of the top M models well"
  rules::NumberFact top_count, top_runs_well, top_native, top_native_slow,
      top_decode_target_tok_s;
  rules::StringFact top_min_grade, top_workload;
  // diffusion.*
  rules::NumberFact diffusion_native, diffusion_runnable, diffusion_total;
  // scale.*: the largest row of the multi-GPU table (unset with a single row)
  rules::NumberFact scale_max_gpus, scale_memory_gb, scale_models_fit, scale_models_total;
  rules::StringFact scale_link;
  // cap.*: the capability matrix's LLM rows (chat ~8B, coding ~30B, large ~70B)
  struct CapRow {
    rules::StringFact model, status, quant;
    rules::NumberFact decode_tok_s, memory_gb;
  };
  CapRow cap_chat, cap_coding, cap_large;
};

// Facts of one GPU among those compared, for engine/report/traits/compare/*.yaml. `others.*`
// summarise the other GPUs of the comparison; a min/max over prices (costs, TDPs) covers the
// others whose value is known and is unset when none is.
struct DecisionFacts {
  explicit DecisionFacts(rules::FactSchema* schema);
  // gpu.*, setup.*, price.*: the shared table (engine/scoring/setup_facts.h), of one GPU
  SetupFacts setup;
  rules::NumberFact gpu_usd_per_mtok_owned, gpu_models_fit;
  rules::NumberFact others_max_interconnect_gbps, others_unpriced_count;
  rules::StringFact others_unpriced;  // names of the others whose price is unknown
  rules::NumberFact others_max_usable_gb, others_max_bandwidth_gbps, others_min_price_usd,
      others_min_usd_per_mtok_owned, others_min_tdp_w, others_max_models_fit;
  rules::BoolFact others_any_fp8, others_any_fp4, others_any_pcie;
  // only.*: what this GPU has and none of the others
  rules::NumberFact only_models_count, only_platform_count, only_runtime_count;
  rules::StringFact only_models;  // "A, B, C and 4 more"
  rules::StringListFact only_platforms, only_runtimes;
  // ref.*: the largest reference model (report policy) every compared GPU runs natively
  rules::StringFact ref_model;
  rules::NumberFact ref_decode_tok_s, ref_others_max_decode_tok_s;
};

// One rule book of the reports: where its files are and what it may contain.
struct TraitBookSpec {
  std::string name;              // "gpu traits", "compare decisions"
  std::string shipped_dir;       // "engine/report/traits/gpu"
  std::string local_dir;         // "traits/gpu", inside the local rules directory
  std::vector<std::string> kinds;  // the allowed rule sets, in report order
  // A fresh schema with every fact of the book declared.
  std::shared_ptr<rules::FactSchema> (*make_schema)();
};
// The GPU traits book and the compare decisions book, in that order.
const std::vector<TraitBookSpec>& TraitBooks();

// Errors (code `unknown-kind`) for every file of `files` whose set is not one of `kinds`.
void CheckTraitKinds(const std::vector<rules::RuleFile>& files,
                     const std::vector<std::string>& kinds, const std::string& book,
                     Diagnostics* diags);

class ReportTraits {
 public:
  // Reads, merges and compiles both books (shipped, then `local` if not null). Problems go to
  // `diags` (warnings too if `warnings`); not OK if there was any error.
  static absl::StatusOr<std::unique_ptr<ReportTraits>> Load(const FileSource& shipped,
                                                            const FileSource* local,
                                                            const Profiles& profiles,
                                                            bool warnings, Diagnostics* diags);

  // The sentences of the GPU page written by the gpu book, from every block of `report`
  // already built (specs, capability matrix, diffusion, scaling, the buying advice's counts).
  // Each fired rule gives one sentence, in book order; `limiter` is the first rule of its set
  // that fires (its rule id names the limit: `limiter.memory` -> "memory").
  struct GpuSentences {
    std::vector<RuleSentence> strengths, considerations, red_flags;
    std::optional<RuleSentence> limiter;
  };
  // `setup` is the page's setup (the report was built for it).
  GpuSentences GpuTraits(const ReportEnv& env, const Setup& setup, const GpuReport& report) const;

  // The decision sentences of GPU `i` of a comparison whose other blocks are built.
  // `setup` is one GPU i; `only_native_models` are the catalog models only GPU i runs natively.
  std::vector<RuleSentence> Decisions(const ReportEnv& env, const CompareReport& report,
                                      const std::vector<const Gpu*>& gpus, size_t i,
                                      const Setup& setup,
                                      const std::vector<std::string>& only_native_models) const;

  const rules::CompiledRules& gpu_book() const { return *gpu_book_; }
  const rules::CompiledRules& compare_book() const { return *compare_book_; }

 private:
  ReportTraits() = default;
  std::shared_ptr<rules::FactSchema> gpu_schema_, compare_schema_;
  std::unique_ptr<GpuTraitFacts> gpu_facts_;
  std::unique_ptr<DecisionFacts> compare_facts_;
  std::shared_ptr<const rules::CompiledRules> gpu_book_, compare_book_;
  int mode_count_ = 0;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_TRAITS_H_
