// The facts rules are evaluated over: every name a rule may read, declared once with its type,
// unit and meaning (`fitrank rules schema` and `rules lint` show them), and the code that fills
// them for one candidate (a model at a quantization on a setup, for a workload and mode).
//
// Namespaces:
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
// (engine/scoring/setup_facts.h); the others are declared here.
// `workload.id` and `mode.id` are built into every schema (rules/facts.h).
//
// Filling is layered so that a sweep sets each fact only when it can change: FillSetup once
// per setup, FillWorkload once per (workload, mode), FillModel once per model and workload,
// FillCandidate per quantization. Every layer sets (or unsets) all of its facts, so a record is
// never Clear()ed and filling never allocates. Strings set here point into the catalog, the
// profiles or a ModelWorkloadText, which must outlive the evaluation.
#ifndef FITRANK_ENGINE_SCORING_FACTS_H_
#define FITRANK_ENGINE_SCORING_FACTS_H_

#include <memory>
#include <string>

#include "catalog/types.h"
#include "profiles/profiles.h"
#include "engine/scoring/setup_facts.h"
#include "rules/facts.h"

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

// Typed handles to every declared fact. Build once with Declare(); immutable afterwards.
class Facts {
 public:
  // Declares every fact in `schema` (which must be fresh apart from the built-ins).
  // quant.workload_quality is filled lowered by `quality_ranking_z` (the profiles'
  // GradeScale::quality_ranking_z; a Facts that only declares may leave the default).
  explicit Facts(rules::FactSchema* schema,
                 double quality_ranking_z = GradeScale().quality_ranking_z);

  // gpu.*, setup.*, price.*: the shared table (engine/scoring/setup_facts.h).
  void FillSetup(const SetupSubject& subject, rules::FactValues* v) const {
    setup.Fill(subject, v);
  }
  void FillWorkload(const WorkloadShape& shape, rules::FactValues* v) const;
  // `age_months`: model.age_months, the months from the model's release to the newest in the
  // catalog (MonthsSince of their Model::release_month, catalog/release_month.h): relative to
  // the catalog, so that a catalog gives the same scores any day it is run.
  void FillModel(const Model& model, const ModelWorkloadText& text, double age_months,
                 rules::FactValues* v) const;
  // The early facts (FactDecl::early): every candidate fact but the speeds (perf.* other
  // than perf.runtime, perf.serving_runtime and perf.runnable), which are all that
  // Estimator::Finish adds to a sizing: `e` may be a Sizing's estimate. FillCandidate is
  // FillEarly and the speeds.
  void FillEarly(const Model& model, const Quant& quant, const Runtime* runtime,
                 bool serving_runtime, const Gpu& gpu, int gpus_used, const Estimate& e,
                 const WorkloadShape& shape, rules::FactValues* v) const;
  // The speeds: the candidate facts FillEarly leaves out.
  void FillSpeeds(const Estimate& estimate, const WorkloadShape& shape,
                  rules::FactValues* v) const;
  // The candidate's quantization, runtime and estimate. `gpus_used` is the GPU count the
  // estimate assumed (scale-out tries several). `runtime` may be null (none runs it).
  void FillCandidate(const Model& model, const Quant& quant, const Runtime* runtime,
                     bool serving_runtime, const Gpu& gpu, int gpus_used,
                     const Estimate& estimate, const WorkloadShape& shape,
                     rules::FactValues* v) const;

  // gpu.*, setup.*, price.*
  SetupFacts setup;
  // model.*
  rules::StringFact model_id, model_name, model_family, model_org, model_kind, model_modality,
      model_license, model_release_date, model_required_missing_text, model_preferred_text;
  rules::NumberFact model_params_b, model_active_params_b, model_max_context, model_max_context_k,
      model_age_months,
      model_quality_score, model_quality_coding, model_quality_math, model_required_missing,
      model_preferred_share;
  rules::BoolFact model_moe, model_thinking, model_ollama, model_gguf_repo, model_quality_estimated,
      model_quality_coding_estimated, model_quality_math_estimated;
  rules::StringListFact model_capabilities;
  // quant.*
  rules::StringFact quant_id, quant_family, quant_requires_precision;
  rules::NumberFact quant_bits, quant_bpw, quant_quality_retention, quant_retention_pct,
      quant_effective_quality;
  rules::BoolFact quant_hw_native, quant_release;
  // fit.*
  rules::StringFact fit_kind, fit_kv_cache;
  rules::BoolFact fit_native, fit_runs;
  rules::NumberFact fit_headroom_pct, fit_offload_pct, fit_host_ram_gb, fit_safe_context,
      fit_context, fit_context_k, fit_context_ratio, fit_gpus;
  // memory.*
  rules::NumberFact memory_required_gb, memory_usable_gb, memory_weights_gb, memory_kv_gb,
      memory_over_gb;
  // perf.*
  rules::NumberFact perf_decode_tok_s, perf_user_tok_s, perf_decode_ratio, perf_prefill_tok_s,
      perf_ttft_ms, perf_ttft_s, perf_ttft_ratio, perf_answer_s, perf_aggregate_tok_s,
      perf_max_concurrency, perf_concurrency;
  rules::StringFact perf_runtime;
  rules::BoolFact perf_serving_runtime, perf_runnable;
  // workload.*
  rules::StringFact workload_name, workload_phrase;
  rules::NumberFact workload_context_tokens, workload_context_k, workload_min_context_tokens,
      workload_min_context_k, workload_prompt_tokens,
      workload_output_tokens, workload_decode_target_tok_s, workload_decode_min_tok_s,
      workload_ttft_target_ms, workload_ttft_max_ms;
  rules::StringListFact workload_requires, workload_prefers;
  // mode.*
  rules::StringFact mode_name;
  rules::NumberFact mode_concurrency;
  rules::BoolFact mode_serving;
  // quality.* (FillModel); quant.workload_quality (FillCandidate)
  rules::NumberFact quality_chat, quality_coding, quality_agentic, quality_rag, quality_reasoning,
      quality_workload, quality_workload_uncertainty,
      quality_ruler_32k, quality_ruler_64k, quality_ruler_128k, quality_effective_context,
      quality_effective_context_k;
  rules::BoolFact quality_chat_estimated, quality_coding_estimated, quality_agentic_estimated,
      quality_rag_estimated, quality_reasoning_estimated, quality_workload_estimated,
      quality_long_context_estimated;
  rules::StringFact quality_workload_source, quality_long_context_source;
  // fit.effective_* (FillCandidate): the usable context that the model also uses well
  rules::NumberFact fit_effective_context, fit_effective_context_k, fit_effective_context_ratio,
      quant_workload_quality;

 private:
  double quality_ranking_z_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_FACTS_H_
