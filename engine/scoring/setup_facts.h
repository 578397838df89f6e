// The gpu.*, setup.* and price.* facts: one table, declared in every book that reads hardware
// (the scoring rules, rules/*.yaml; the GPU traits, engine/report/traits/gpu/; the compare
// decisions, engine/report/traits/compare/), so a fact has one name, one meaning, one unit and
// one doc wherever a rule reads it.
//
// Each row of the table (setup_facts.cc) is one fact, in the spirit of leveldb's options.h:
//
//   {"gpu.usable_gb", kNumber, "GB", "Memory models may use on one GPU (after the runtime's
//    reserve)", [](const SetupSubject& s) { return s.gpu_usable_gb; }},
//
// A number getter returns NaN for "unknown" (a GPU without a price, a TDP of 0 in the
// catalog): the fact is then unset, `known(fact)` is false and it reads as 0.
//
//   gpu.*    the setup's first GPU (the catalog record)
//   setup.*  the whole setup: every GPU of it, its links and host
//   price.*  what the setup costs: street price if known, else launch MSRP
//
// Renamed facts (price.usd, gpu.price_usd -> price.gpu_usd; gpu.price_basis -> price.basis)
// are registered with each schema, so a user's rule that still uses an old name gets a
// "did you mean" hint pointing at the new one.
//
// Thread safety: the table is immutable; a SetupFacts is immutable after construction.
#ifndef FITRANK_ENGINE_SCORING_SETUP_FACTS_H_
#define FITRANK_ENGINE_SCORING_SETUP_FACTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/setup.h"
#include "rules/compiled_rules.h"
#include "rules/facts.h"

namespace fitrank {

// What one GPU costs: the catalog's street price if known, else its launch MSRP; 0 if neither.
// `basis` (optional) gets "street 2026-03", "MSRP" or "" (unknown).
double GpuPriceUsd(const Catalog& catalog, const Gpu& gpu, std::string* basis = nullptr);

// FP8 / FP4 in hardware: a rate in the catalog, or the precision listed.
bool HasFp8(const Gpu& gpu);
bool HasFp4(const Gpu& gpu);
// A PCIe card (form factor pcie-*): fits an ordinary workstation or server.
bool IsPcieCard(const Gpu& gpu);

// The name of `gpu`'s GPU-to-GPU link ("NVLink 4"); its catalog id if the catalog has no name.
std::string InterconnectName(const Catalog& catalog, const Gpu& gpu);

// What a setup costs, from GpuPriceUsd per GPU.
struct SetupPrice {
  double gpu_usd = 0;             // one GPU of the first group; 0 unknown
  double setup_usd = 0;           // every GPU of the setup (unknown ones count 0)
  double cloud_usd_per_hour = 0;  // every GPU of the setup, 0 if unknown
  bool known = false;             // every GPU has a price
  std::string basis;              // of gpu_usd: "street 2026-03", "MSRP" or ""
};
SetupPrice PriceOfSetup(const Catalog& catalog, const Setup& setup);

// Everything the table's getters read: a setup and what the catalog and the estimator say
// about it. Points at `setup` and the catalog, which must outlive it.
struct SetupSubject {
  SetupSubject(const Catalog& catalog, const Estimator& estimator, const Setup& setup);

  const Setup* setup = nullptr;
  const Gpu* gpu = nullptr;               // the first GPU
  std::string interconnect_name;          // of the first GPU: "NVLink 4", "PCIe 4.0 x16"
  double gpu_usable_gb = 0;               // memory models may use on the first GPU
  double setup_memory_gb = 0;             // every GPU's memory, spec sheet
  double setup_usable_gb = 0;             // every GPU's usable memory
  SetupPrice price;
  // Runtime names (catalog order) whose platforms include one of the first GPU's, CPU aside;
  // and the other runtimes.
  std::vector<std::string> runtimes, other_runtimes;
};

// One fact of the table. Exactly the getter of `type` is set.
struct SetupFactRow {
  absl::string_view name;  // "gpu.memory_gb"
  rules::Type type;
  absl::string_view unit;  // "GB", "" if none
  absl::string_view doc;   // one line: `rules schema`, lint hints, explain
  double (*number)(const SetupSubject&) = nullptr;  // NaN: unknown (unset)
  bool (*boolean)(const SetupSubject&) = nullptr;
  absl::string_view (*text)(const SetupSubject&) = nullptr;
  absl::Span<const std::string> (*list)(const SetupSubject&) = nullptr;
};
// Every gpu.*, setup.* and price.* fact, in declaration (and `rules schema`) order.
absl::Span<const SetupFactRow> SetupFactTable();

// A fact name retired for one of the table's, kept for the hint.
struct RenamedFact {
  absl::string_view old_name;  // "price.usd"
  absl::string_view new_name;  // "price.gpu_usd"
};
absl::Span<const RenamedFact> RenamedSetupFacts();

// The table declared in one schema, with handles to fill it.
class SetupFacts {
 public:
  // Declares every row of SetupFactTable() in `schema` and registers RenamedSetupFacts().
  explicit SetupFacts(rules::FactSchema* schema);

  // Sets (or, for unknown numbers, unsets) every fact of the table, or if `rows` is not null
  // those whose rows[i] (table order) is not 0, leaving the others as they were. Allocates
  // nothing; the strings and lists point into `subject`, which must outlive the evaluation.
  void Fill(const SetupSubject& subject, rules::FactValues* values,
            const uint8_t* rows = nullptr) const;
  // 1 for each row (table order) whose fact a book's scoring reads
  // (rules::CompiledRules::ReadsToScore), else 0: Fill's `rows`.
  std::vector<uint8_t> RowsReadBy(const rules::CompiledRules& book) const;

 private:
  struct Handle {
    int32_t slot = -1;
    int32_t index = -1;
  };
  std::vector<Handle> handles_;  // one per row
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_SETUP_FACTS_H_
