// The facts rules are evaluated over: every name a rule may read, declared once with its type,
// unit and meaning (`fitrank rules schema` and `rules lint` show them), and the code that fills
// them for one candidate (a model at a quantization on a setup, for a workload and mode).
//
// Namespaces (the table in facts.cc declares each fact once: name, unit, doc, getter):
//   gpu.*       the setup's first GPU (specs from the catalog)
//   setup.*     the whole setup: GPU count, memory, host RAM, parallelism
//   model.*     the model, and how its capabilities meet the workload's
//   quant.*     the quantization, and the model's quality at it
//   fit.*       how the working set fits: kind, headroom, offload, usable context
//   memory.*    what the working set needs against what the setup offers, GB
//   perf.*      decode, prefill, TTFT, per-user and aggregate speed, the runtime
//   workload.*  the workload's shape and targets, already scaled by the mode
//   mode.*      the operating mode: concurrency, serving
//   price.*     what the setup costs
//   quality.*   the model's quality per workload and its long-context figures (catalog/QUALITY.md)
// gpu.*, setup.* and price.* are one table shared with the report traits
// (engine/scoring/setup_facts.h); the others are this file's table.
// `workload.id` and `mode.id` are built into every schema (rules/facts.h).
//
// Filling is layered so that a sweep sets each fact only when it can change: FillSetup once
// per setup, FillWorkload once per (workload, mode), FillModel once per model and workload,
// FillEarly once a candidate is sized and FillSpeeds once it is finished. Every layer sets (or
// unsets) all of its facts, so a record is never Clear()ed and filling never allocates.
// Strings set here point into the catalog, the profiles or a ModelWorkloadText, which must
// outlive the evaluation.
#ifndef FITRANK_ENGINE_SCORING_FACTS_H_
#define FITRANK_ENGINE_SCORING_FACTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/types.h"
#include "profiles/profiles.h"
#include "engine/scoring/setup_facts.h"
#include "rules/facts.h"

namespace fitrank::rules {
class CompiledRules;
}  // namespace fitrank::rules

namespace fitrank {

struct Setup;
struct Estimate;

// A workload as a candidate sees it: the profile's shape scaled by the mode.
struct WorkloadShape {
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
  int context_tokens = 0;          // workload context x mode.context_scale
  int min_context_tokens = 0;
  int prompt_tokens = 0;
  int output_tokens = 0;
  double decode_target_tok_s = 0;  // x mode.decode_target_scale
  double decode_min_tok_s = 0;
  double ttft_target_ms = 0;       // x mode.ttft_target_scale
  double ttft_max_ms = 0;
  int concurrency = 1;
  // The model quality figure this workload reads (QualityMemberFor of its id).
  WorkloadQuality WorkloadQualities::*quality = &WorkloadQualities::chat;
};
WorkloadShape ShapeFor(const Workload& workload, const Mode& mode);

// What the early facts (Facts::FillEarly) read of a WorkloadShape, and all they may read: two
// fields that no mode scales but the context (mode.context_scale), so that queries of one
// workload with the same estimates fill the same early facts (Evaluator::SameBound relies on
// it). A getter of an early fact cannot reach the rest of the shape.
struct EarlyShape {
  int context_tokens = 0;
  WorkloadQuality WorkloadQualities::*quality = &WorkloadQualities::chat;
  bool operator==(const EarlyShape&) const = default;
};
inline EarlyShape EarlyShapeOf(const WorkloadShape& shape) {
  return {shape.context_tokens, shape.quality};
}

// Texts derived from a model and a workload, kept alive for the facts that point at them.
struct ModelWorkloadText {
  std::string required_missing;  // "tools" / "tools, code": workload.requires the model lacks
  std::string preferred_present; // "code": workload.prefers the model has
  int required_missing_count = 0;
  double preferred_share = 1;    // share of workload.prefers the model has (1 if none)
  WorkloadQuality WorkloadQualities::*quality = &WorkloadQualities::chat;  // the workload's figure
};
// Capabilities are named with the profiles' phrases ("tool calling").
ModelWorkloadText DescribeCapabilities(const Model& model, const Workload& workload,
                                       const Profiles& profiles);

// The decode speed each user sees: batch-1 decode for one user; with several concurrent users
// (serving modes) the aggregate throughput shared among all of them, so users that have to
// queue for a slot count as slower, not as served.
double UserTokS(const Estimate& e, const WorkloadShape& shape);

// True for models built to think before answering (kind reasoning / hybrid-reasoning, or the
// `reasoning` capability).
bool IsThinkingModel(const Model& model);

// The workload's quality figure as ranked: the score lowered by `z` of its uncertainty
// (measured: standard error; estimated: leave-one-out RMS), never below 0, times what the quant
// keeps (`retention`, 0-1). 0-100. `z` is GradeScale::quality_ranking_z (profiles/grades.yaml,
// where its reasons are). This is the only place a figure is lowered for its uncertainty.
double EffectiveQuality(const WorkloadQuality& q, double retention, double z);

// Every fact a scoring rule reads: the setup table (gpu.*, setup.*, price.*) and this file's
// table, one row per fact (facts.cc), in the spirit of leveldb's options.h:
//
//   Fact<CandidateSubject>("fit.headroom_pct", "%", "Free share of usable accelerator memory
//                          (native fits)", [](const CandidateSubject& s) { ... });
//
// A row's layer is the subject its getter reads, which is when it is filled: FillWorkload
// (the workload and mode: context facts), FillModel (context), FillEarly (the candidate once
// sized: early facts, FactDecl::early) and FillSpeeds (the rest). The model's own facts and
// its quantization's (subjects ModelItemSubject, QuantSubject) are item facts too
// (FactDecl::item: the same whatever the setup, workload and mode). Its type is its getter's:
// a number, a bool, a string or a string list. Built once; immutable afterwards.
class Facts {
 public:
  // Declares every fact in `schema` (which must be fresh apart from the built-ins).
  // quant.workload_quality is filled lowered by `quality_ranking_z` (the profiles'
  // GradeScale::quality_ranking_z; a Facts that only declares may leave the default).
  explicit Facts(rules::FactSchema* schema,
                 double quality_ranking_z = GradeScale().quality_ranking_z);

  // gpu.*, setup.*, price.*: the shared table (engine/scoring/setup_facts.h).
  void FillSetup(const SetupSubject& subject, rules::FactValues* v,
                 const uint8_t* rows = nullptr) const {
    setup.Fill(subject, v, rows != nullptr ? rows + handles_.size() : nullptr);
  }
  // Which rows a book's scoring reads (rules::CompiledRules::ReadsToScore), by row: this
  // file's table, then the setup table's: the Fill functions, given it as `rows`, fill only
  // those, and leave the others as they were. A ranking needs no more; explain (which renders
  // `say`) fills every row.
  std::vector<uint8_t> RowsReadBy(const rules::CompiledRules& book) const;

  // workload.*, mode.*: the workload as the mode scales it.
  void FillWorkload(const WorkloadShape& shape, rules::FactValues* v,
                    const uint8_t* rows = nullptr) const;
  // model.*, quality.*. `age_months`: model.age_months, the months from the model's release
  // to the newest in the catalog (MonthsSince of their Model::release_month,
  // catalog/release_month.h): relative to the catalog, so that a catalog gives the same
  // scores any day it is run.
  void FillModel(const Model& model, const ModelWorkloadText& text, double age_months,
                 rules::FactValues* v, const uint8_t* rows = nullptr) const;
  // The early facts (FactDecl::early): every candidate fact but the speeds (perf.* other
  // than perf.runtime, perf.serving_runtime and perf.runnable), which are all that
  // Estimator::Finish adds to a sizing: `e` may be a Sizing's estimate. FillCandidate is
  // FillEarly and the speeds. Of the workload it reads only `shape` (EarlyShape says why).
  void FillEarly(const Model& model, const Quant& quant, const Runtime* runtime,
                 bool serving_runtime, const Gpu& gpu, int gpus_used, const Estimate& e,
                 const EarlyShape& shape, rules::FactValues* v,
                 const uint8_t* rows = nullptr) const;
  // The speeds: the candidate facts FillEarly leaves out.
  void FillSpeeds(const Estimate& estimate, const WorkloadShape& shape, rules::FactValues* v,
                  const uint8_t* rows = nullptr) const;
  // The candidate's quantization, runtime and estimate. `gpus_used` is the GPU count the
  // estimate assumed (scale-out tries several). `runtime` may be null (none runs it).
  void FillCandidate(const Model& model, const Quant& quant, const Runtime* runtime,
                     bool serving_runtime, const Gpu& gpu, int gpus_used,
                     const Estimate& estimate, const WorkloadShape& shape,
                     rules::FactValues* v, const uint8_t* rows = nullptr) const;

  // gpu.*, setup.*, price.*
  SetupFacts setup;

 private:
  struct Handle {
    int32_t slot = -1;
    int32_t index = -1;
  };
  // Fills the rows whose getter reads a `Subject`.
  template <typename Subject>
  void FillLayer(const Subject& subject, rules::FactValues* v, const uint8_t* rows) const;
  template <bool all, typename Subject>  // FillLayer: every row, or those `rows` marks
  void FillRows(const Subject& subject, rules::FactValues::Writer* w, const uint8_t* rows) const;

  std::vector<Handle> handles_;  // one per row of the table, in its order
  double quality_ranking_z_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_FACTS_H_
