#include "engine/scoring/facts.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/strings/str_join.h"
#include "catalog/vocabulary.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/setup.h"
#include "rules/compiled_rules.h"

namespace fitrank {

WorkloadShape ShapeFor(const Workload& workload, const Mode& mode) {
  WorkloadShape s;
  s.workload = &workload;
  s.mode = &mode;
  s.context_tokens = static_cast<int>(std::lround(workload.context_tokens * mode.context_scale));
  s.min_context_tokens = workload.min_context_tokens;
  s.prompt_tokens = workload.prompt_tokens;
  s.output_tokens = workload.output_tokens;
  s.decode_target_tok_s = workload.decode_target_tok_s * mode.decode_target_scale;
  s.decode_min_tok_s = workload.decode_min_tok_s * mode.decode_target_scale;
  s.ttft_target_ms = workload.ttft_target_ms * mode.ttft_target_scale;
  s.ttft_max_ms = workload.ttft_max_ms * mode.ttft_target_scale;
  s.concurrency = mode.concurrency;
  s.quality = QualityMemberFor(workload.id);
  return s;
}

double EffectiveQuality(const WorkloadQuality& q, double retention, double z) {
  const double lowered = q.score - z * q.uncertainty;
  return std::max(0.0, lowered) * retention;
}

double UserTokS(const Estimate& e, const WorkloadShape& shape) {
  if (shape.concurrency <= 1) return e.decode_tok_s;
  return e.serving.aggregate_tok_s / shape.concurrency;
}

bool IsThinkingModel(const Model& model) {
  return model.kind == "reasoning" || model.kind == "hybrid-reasoning" ||
         std::find(model.capabilities.begin(), model.capabilities.end(), "reasoning") !=
             model.capabilities.end();
}

ModelWorkloadText DescribeCapabilities(const Model& model, const Workload& workload,
                                       const Profiles& profiles) {
  auto has = [&](const std::string& cap) {
    return std::find(model.capabilities.begin(), model.capabilities.end(), cap) !=
           model.capabilities.end();
  };
  ModelWorkloadText t;
  std::vector<std::string> missing, present;
  for (const std::string& cap : workload.required_caps) {
    if (!has(cap)) missing.emplace_back(profiles.CapabilityPhrase(cap));
  }
  for (const std::string& cap : workload.preferred_caps) {
    if (has(cap)) present.emplace_back(profiles.CapabilityPhrase(cap));
  }
  t.required_missing = absl::StrJoin(missing, " and ");
  t.preferred_present = absl::StrJoin(present, " and ");
  t.required_missing_count = static_cast<int>(missing.size());
  t.quality = QualityMemberFor(workload.id);
  t.preferred_share = workload.preferred_caps.empty()
                          ? 1.0
                          : static_cast<double>(present.size()) / workload.preferred_caps.size();
  return t;
}

namespace {

// The subjects the rows read, one per layer (see facts.h). Values worked out for several rows
// are worked out once, by the Fill that builds the subject.
struct ModelSubject {  // what of the model depends on the workload
  const ModelWorkloadText& text;
  const WorkloadQuality& quality;  // the workload's figure
};
struct ModelItemSubject {  // what does not (item facts)
  const Model& model;
  double age_months;
  double active_params_b;  // active parameters, or all of them for a dense model
};
struct CandidateSubject {
  const Quant& quant;
  const Runtime* runtime;
  bool serving_runtime;
  const Gpu& gpu;
  int gpus_used;
  const Estimate& e;
  const EarlyShape& shape;
  double workload_quality;  // EffectiveQuality of the workload's figure
  bool runs;                // runnable on a runtime, and not a no-fit
  int context;              // min(safe context, model max)
  int effective_context;    // context, at most the model's effective context
};
struct QuantSubject {  // the item facts of a candidate: its model and quantization alone
  const Model& model;
  const Quant& quant;
  double retention;  // QualityRetention(model, quant)
};
struct SpeedSubject {
  const Estimate& e;
  const WorkloadShape& shape;
  double user_tok_s;  // UserTokS
};

template <typename Subject, typename Get>
struct Row {
  absl::string_view name;
  absl::string_view unit;  // "" if none
  absl::string_view doc;
  Get get;
};
template <typename Subject, typename Get>
constexpr Row<Subject, Get> Fact(absl::string_view name, absl::string_view unit,
                                 absl::string_view doc, Get get) {
  return {name, unit, doc, get};
}
template <typename Subject, typename Get>
Subject SubjectOf(const Row<Subject, Get>&);

using S = absl::string_view;
using List = absl::Span<const std::string>;
using W = WorkloadShape;
using M = ModelSubject;
using MI = ModelItemSubject;
using C = CandidateSubject;
using Q = QuantSubject;
using P = SpeedSubject;

double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

// Every fact but gpu.*, setup.*, price.* (setup_facts.cc), in declaration (`rules schema`)
// order.
const auto kRows = std::make_tuple(
    // model.*
    Fact<MI>("model.id", "", "Catalog id, e.g. qwen3-32b",
             [](const MI& s) -> S { return s.model.id; }),
    Fact<MI>("model.name", "", "Model name, e.g. Qwen3 32B",
             [](const MI& s) -> S { return s.model.name; }),
    Fact<MI>("model.family", "", "Model family, e.g. Qwen3",
             [](const MI& s) -> S { return s.model.family; }),
    Fact<MI>("model.org", "", "Who made it, e.g. Alibaba",
             [](const MI& s) -> S { return s.model.org; }),
    Fact<MI>("model.kind", "",
             "instruct | chat | reasoning | hybrid-reasoning | code | base | embedding",
             [](const MI& s) -> S { return s.model.kind; }),
    Fact<MI>("model.modality", "", "text | text+image | ...",
             [](const MI& s) -> S { return s.model.modality; }),
    Fact<MI>("model.license", "", "License id", [](const MI& s) -> S { return s.model.license; }),
    Fact<MI>("model.release_date", "", "Release date, e.g. 2025-04-29",
             [](const MI& s) -> S { return s.model.release_date; }),
    Fact<M>("model.required_missing_text", "",
            "Capabilities the workload requires that the model lacks, e.g. tools",
            [](const M& s) -> S { return s.text.required_missing; }),
    Fact<M>("model.preferred_text", "",
            "Capabilities the workload prefers that the model has, e.g. code",
            [](const M& s) -> S { return s.text.preferred_present; }),
    Fact<MI>("model.params_b", "B", "Total parameters",
             [](const MI& s) { return s.model.params_b; }),
    Fact<MI>("model.active_params_b", "B", "Parameters read per token (MoE: active)",
             [](const MI& s) { return s.active_params_b; }),
    Fact<MI>("model.max_context", "tokens", "The model's maximum context",
             [](const MI& s) -> double { return s.model.max_context; }),
    Fact<MI>("model.max_context_k", "K tokens", "The model's maximum context",
             [](const MI& s) { return s.model.max_context / 1024.0; }),
    Fact<MI>("model.age_months", "months",
             "Months between its release and the newest model in the catalog",
             [](const MI& s) { return s.age_months; }),
    Fact<MI>("model.quality.score", "", "Quality score 0-100 (leaderboard or estimate)",
             [](const MI& s) { return s.model.quality.score; }),
    Fact<MI>("model.quality.coding", "",
             "Coding quality 0-100: LMArena coding category, same scale as the score",
             [](const MI& s) { return s.model.quality.coding; }),
    Fact<MI>("model.quality.math", "",
             "Math quality 0-100: LMArena math category, same scale as the score",
             [](const MI& s) { return s.model.quality.math; }),
    Fact<M>("model.required_missing", "",
            "How many of the workload's required capabilities it lacks",
            [](const M& s) -> double { return s.text.required_missing_count; }),
    Fact<M>("model.preferred_share", "",
            "Share 0-1 of the workload's preferred capabilities it has (1 if none)",
            [](const M& s) { return s.text.preferred_share; }),
    Fact<MI>("model.moe", "", "Mixture of experts (active < total parameters)",
             [](const MI& s) { return s.active_params_b < s.model.params_b; }),
    Fact<MI>("model.thinking", "", "Built to think before answering (reasoning or hybrid)",
             [](const MI& s) { return IsThinkingModel(s.model); }),
    Fact<MI>("model.ollama", "",
             "Has an ollama library tag (it serves one quant: Q4_K_M, or the release quant)",
             [](const MI& s) { return !s.model.ollama_tag.empty(); }),
    Fact<MI>("model.gguf_repo", "",
             "A GGUF repo of it is known: llama.cpp and Ollama download any GGUF quant by name",
             [](const MI& s) { return !s.model.gguf_repo.empty(); }),
    Fact<MI>("model.quality.estimated", "",
             "The quality score is an estimate, not a leaderboard figure",
             [](const MI& s) { return s.model.quality.estimated; }),
    Fact<MI>("model.quality.coding_estimated", "",
             "The coding quality is an estimate, not a leaderboard figure",
             [](const MI& s) { return s.model.quality.coding_estimated; }),
    Fact<MI>("model.quality.math_estimated", "",
             "The math quality is an estimate, not a leaderboard figure",
             [](const MI& s) { return s.model.quality.math_estimated; }),
    Fact<MI>("model.capabilities", "",
             "code, reasoning, tools, vision, multilingual, long-context, audio, math",
             [](const MI& s) -> List { return s.model.capabilities; }),
    // quant.*
    Fact<Q>("quant.id", "", "Quantization id, e.g. Q4_K_M",
            [](const Q& s) -> S { return s.quant.id; }),
    Fact<Q>("quant.family", "",
            "gguf-legacy | gguf-k | gguf-iq | float | fp8 | fp4 | gptq | awq | exl2 | mlc | mlx",
            [](const Q& s) -> S { return s.quant.family; }),
    Fact<Q>("quant.requires_precision", "",
            "Hardware precision it needs to run natively (FP8, FP4) or empty",
            [](const Q& s) -> S { return s.quant.requires_precision; }),
    Fact<Q>("quant.bits", "bits", "Nominal bits per weight",
            [](const Q& s) { return s.quant.bits; }),
    Fact<C>("quant.bpw", "bits", "Effective bits per weight of real files",
            [](const C& s) { return s.e.bpw > 0 ? s.e.bpw : s.quant.bpw; }),
    Fact<Q>("quant.quality_retention", "",
            "Quality kept vs the published weights (16-bit, or the model's release quant), 0-1",
            [](const Q& s) { return s.retention; }),
    Fact<Q>("quant.retention_pct", "%", "quant.quality_retention in percent",
            [](const Q& s) { return 100 * s.retention; }),
    Fact<Q>("quant.effective_quality", "", "model.quality.score x quant.quality_retention, 0-100",
            [](const Q& s) { return s.model.quality.score * s.retention; }),
    Fact<C>("quant.hw_native", "", "The GPU supports the precision the quant needs",
            [](const C& s) {
              const std::vector<std::string>& p = s.gpu.precisions;
              return s.quant.requires_precision.empty() ||
                     std::find(p.begin(), p.end(), s.quant.requires_precision) != p.end();
            }),
    Fact<Q>("quant.release", "",
            "The precision the model was published in, below 16 bits (gpt-oss: MXFP4)",
            [](const Q& s) { return s.quant.id == s.model.release_quant; }),
    // fit.*
    Fact<C>("fit.kind", "", "native-comfortable | native-tight | offload | no-fit",
            [](const C& s) { return FitKindName(s.e.fit.kind); }),
    Fact<C>("fit.kv_cache", "",
            "KV cache type estimated: f16, or q8_0 when f16 does not fit natively",
            [](const C& s) { return KvCacheTypeName(s.e.kv_cache); }),
    Fact<C>("fit.native", "", "The whole working set is in accelerator memory",
            [](const C& s) { return s.runs && IsNative(s.e.fit.kind); }),
    Fact<C>("fit.runs", "", "It runs at all (native or with offload) on a runtime that loads it",
            [](const C& s) { return s.runs; }),
    Fact<C>("fit.headroom_pct", "%", "Free share of usable accelerator memory (native fits)",
            [](const C& s) { return s.e.fit.headroom_pct; }),
    Fact<C>("fit.offload_pct", "%", "Share of the working set in host RAM",
            [](const C& s) { return s.e.fit.offload_pct; }),
    Fact<C>("fit.host_ram_gb", "GB", "Host RAM the offloaded part needs",
            [](const C& s) { return s.e.fit.host_ram_gb; }),
    Fact<C>("fit.safe_context", "tokens", "Largest context that fits, within the model's maximum",
            [](const C& s) -> double { return s.e.safe_context; }),
    Fact<C>("fit.context", "tokens",
            "Usable context for this workload: min(safe context, model max)",
            [](const C& s) -> double { return s.context; }),
    Fact<C>("fit.context_k", "K tokens", "fit.context in thousands (1K = 1,024 tokens)",
            [](const C& s) { return s.context / 1024.0; }),
    Fact<C>("fit.context_ratio", "", "fit.context / workload.context_tokens",
            [](const C& s) { return Ratio(s.context, s.shape.context_tokens); }),
    Fact<C>("fit.gpus", "", "GPUs the candidate runs on (scale-out picks the fewest that fit)",
            [](const C& s) -> double { return s.gpus_used; }),
    // memory.*
    Fact<C>("memory.required_gb", "GB", "Weights + KV cache + runtime overhead",
            [](const C& s) { return s.e.memory.total_gb; }),
    Fact<C>("memory.usable_gb", "GB", "Accelerator memory the model may use",
            [](const C& s) { return s.e.memory.usable_gb; }),
    Fact<C>("memory.weights_gb", "GB", "Weights at this quantization",
            [](const C& s) { return s.e.memory.weights_gb; }),
    Fact<C>("memory.kv_gb", "GB", "KV cache at the workload's context and concurrency",
            [](const C& s) { return s.e.memory.kv_gb; }),
    Fact<C>("memory.over_gb", "GB", "required - usable: above 0 needs offload",
            [](const C& s) { return s.e.memory.total_gb - s.e.memory.usable_gb; }),
    // perf.*
    Fact<P>("perf.decode_tok_s", "tok/s", "Decode speed of one sequence",
            [](const P& s) { return s.e.decode_tok_s; }),
    Fact<P>("perf.user_tok_s", "tok/s",
            "Decode speed each user sees: batch-1 decode, or in serving modes the aggregate "
            "shared by the mode's users",
            [](const P& s) { return s.user_tok_s; }),
    Fact<P>("perf.decode_ratio", "", "perf.user_tok_s / workload.decode_target_tok_s",
            [](const P& s) { return Ratio(s.user_tok_s, s.shape.decode_target_tok_s); }),
    Fact<P>("perf.prefill_tok_s", "tok/s", "Prompt processing speed",
            [](const P& s) { return s.e.prefill_tok_s; }),
    Fact<P>("perf.ttft_ms", "ms", "Time to first token for the workload's prompt",
            [](const P& s) { return s.e.ttft_ms; }),
    Fact<P>("perf.ttft_s", "s", "Time to first token",
            [](const P& s) { return s.e.ttft_ms / 1000; }),
    Fact<P>("perf.ttft_ratio", "", "perf.ttft_ms / workload.ttft_target_ms",
            [](const P& s) { return Ratio(s.e.ttft_ms, s.shape.ttft_target_ms); }),
    Fact<P>("perf.answer_s", "s", "Time to a whole answer: TTFT + output tokens / user speed",
            [](const P& s) {
              return s.user_tok_s > 0 ? s.e.ttft_ms / 1000 + s.shape.output_tokens / s.user_tok_s
                                      : 0;
            }),
    Fact<P>("perf.aggregate_tok_s", "tok/s", "Decode tokens/s summed over concurrent users",
            [](const P& s) {
              return s.shape.concurrency > 1 ? s.e.serving.aggregate_tok_s : s.e.decode_tok_s;
            }),
    Fact<P>("perf.concurrency", "",
            "Sequences served at once (serving modes: what fits, up to the mode's)",
            [](const P& s) -> double {
              return s.shape.concurrency > 1 ? s.e.serving.concurrency : 1;
            }),
    // Known once sized (Sizing::estimate carries it): an early fact.
    Fact<C>("perf.max_concurrency", "", "Sequences of the workload's context that fit at once",
            [](const C& s) -> double { return s.e.serving.max_concurrency; }),
    Fact<C>("perf.runtime", "", "Runtime the estimate assumes, e.g. llama.cpp, vllm",
            [](const C& s) -> S { return s.runtime != nullptr ? S(s.runtime->id) : S(); }),
    Fact<C>("perf.runnable", "", "Some runtime loads this quantization on this hardware",
            [](const C& s) { return s.e.runnable() && s.runtime != nullptr; }),
    Fact<C>("perf.serving_runtime", "",
            "The runtime serves concurrent users (continuous batching)",
            [](const C& s) { return s.serving_runtime; }),
    // workload.*
    Fact<W>("workload.name", "", "Workload name, e.g. Agentic coding",
            [](const W& s) -> S { return s.workload->name; }),
    Fact<W>("workload.phrase", "", "The workload mid-sentence, e.g. agentic coding",
            [](const W& s) -> S { return s.workload->phrase; }),
    Fact<W>("workload.context_tokens", "tokens", "Context the workload wants (mode-scaled)",
            [](const W& s) -> double { return s.context_tokens; }),
    Fact<W>("workload.context_k", "K tokens", "workload.context_tokens in thousands (1K = 1,024)",
            [](const W& s) { return s.context_tokens / 1024.0; }),
    Fact<W>("workload.min_context_tokens", "tokens", "Smallest usable context",
            [](const W& s) -> double { return s.min_context_tokens; }),
    Fact<W>("workload.min_context_k", "K tokens", "workload.min_context_tokens in thousands",
            [](const W& s) { return s.min_context_tokens / 1024.0; }),
    Fact<W>("workload.prompt_tokens", "tokens", "Prompt prefilled before the first token",
            [](const W& s) -> double { return s.prompt_tokens; }),
    Fact<W>("workload.output_tokens", "tokens", "Tokens generated per answer",
            [](const W& s) -> double { return s.output_tokens; }),
    Fact<W>("workload.decode_target_tok_s", "tok/s", "Comfortable decode speed (mode-scaled)",
            [](const W& s) { return s.decode_target_tok_s; }),
    Fact<W>("workload.decode_min_tok_s", "tok/s", "Frustration floor for decode (mode-scaled)",
            [](const W& s) { return s.decode_min_tok_s; }),
    Fact<W>("workload.ttft_target_ms", "ms", "Comfortable time to first token (mode-scaled)",
            [](const W& s) { return s.ttft_target_ms; }),
    Fact<W>("workload.ttft_max_ms", "ms",
            "Frustration limit for time to first token (mode-scaled)",
            [](const W& s) { return s.ttft_max_ms; }),
    Fact<W>("workload.requires", "", "Capabilities a model must have",
            [](const W& s) -> List { return s.workload->required_caps; }),
    Fact<W>("workload.prefers", "", "Capabilities that make a model a better fit",
            [](const W& s) -> List { return s.workload->preferred_caps; }),
    // mode.*
    Fact<W>("mode.name", "", "Mode name, e.g. Light API serving",
            [](const W& s) -> S { return s.mode->name; }),
    Fact<W>("mode.concurrency", "", "Concurrent sequences served",
            [](const W& s) -> double { return s.concurrency; }),
    Fact<W>("mode.serving", "", "The mode wants a serving runtime",
            [](const W& s) { return s.mode->serving_runtime; }),
    // quality.*
    Fact<MI>("quality.chat", "",
             "Chat quality 0-100 (catalog/QUALITY.md: leaderboards or estimate)",
             [](const MI& s) { return s.model.workload_quality.chat.score; }),
    Fact<MI>("quality.coding", "",
             "Coding quality 0-100 (Aider, LiveBench, EvalPlus, ... or estimate)",
             [](const MI& s) { return s.model.workload_quality.coding.score; }),
    Fact<MI>("quality.agentic", "", "Agentic quality 0-100 (BFCL, SWE-bench, ... or estimate)",
             [](const MI& s) { return s.model.workload_quality.agentic.score; }),
    Fact<MI>("quality.rag", "", "Long-document quality 0-100 (RULER, LongBench, ... or estimate)",
             [](const MI& s) { return s.model.workload_quality.rag.score; }),
    Fact<MI>("quality.reasoning", "",
             "Reasoning quality 0-100 (LiveBench math/reasoning, AIME, GPQA, ... or estimate)",
             [](const MI& s) { return s.model.workload_quality.reasoning.score; }),
    Fact<MI>("quality.chat_estimated", "", "quality.chat is an estimate",
             [](const MI& s) { return s.model.workload_quality.chat.estimated; }),
    Fact<MI>("quality.coding_estimated", "", "quality.coding is an estimate",
             [](const MI& s) { return s.model.workload_quality.coding.estimated; }),
    Fact<MI>("quality.agentic_estimated", "", "quality.agentic is an estimate",
             [](const MI& s) { return s.model.workload_quality.agentic.estimated; }),
    Fact<MI>("quality.rag_estimated", "", "quality.rag is an estimate",
             [](const MI& s) { return s.model.workload_quality.rag.estimated; }),
    Fact<MI>("quality.reasoning_estimated", "", "quality.reasoning is an estimate",
             [](const MI& s) { return s.model.workload_quality.reasoning.estimated; }),
    Fact<M>("quality.workload", "",
            "The quality figure of this workload (quality.chat for chat, ...), 0-100",
            [](const M& s) { return s.quality.score; }),
    Fact<M>("quality.workload_estimated", "", "quality.workload is an estimate",
            [](const M& s) { return s.quality.estimated; }),
    Fact<M>("quality.workload_uncertainty", "",
            "One standard error of quality.workload (estimates: leave-one-out RMS)",
            [](const M& s) { return s.quality.uncertainty; }),
    Fact<M>("quality.workload_source", "", "Which benchmarks, or how it was estimated",
            [](const M& s) -> S { return s.quality.source; }),
    Fact<C>("quant.workload_quality", "",
            "quality.workload lowered once by its uncertainty (grades.yaml quality_ranking_z x "
            "quality.workload_uncertainty) x quant.quality_retention",
            [](const C& s) { return s.workload_quality; }),
    Fact<MI>("quality.ruler_32k", "%", "RULER score at 32K tokens (0 beyond max context)",
             [](const MI& s) { return s.model.long_context.ruler_32k; }),
    Fact<MI>("quality.ruler_64k", "%", "RULER score at 64K tokens",
             [](const MI& s) { return s.model.long_context.ruler_64k; }),
    Fact<MI>("quality.ruler_128k", "%", "RULER score at 128K tokens",
             [](const MI& s) { return s.model.long_context.ruler_128k; }),
    Fact<MI>("quality.effective_context", "tokens",
             "Longest context the model uses well (RULER >= 85.6%)",
             [](const MI& s) -> double { return s.model.long_context.effective_context; }),
    Fact<MI>("quality.effective_context_k", "K tokens", "quality.effective_context",
             [](const MI& s) { return s.model.long_context.effective_context / 1024.0; }),
    Fact<MI>("quality.long_context_estimated", "", "The RULER figures are estimates",
             [](const MI& s) { return s.model.long_context.estimated; }),
    Fact<MI>("quality.long_context_source", "", "Where the RULER figures come from",
             [](const MI& s) -> S { return s.model.long_context.source; }),
    // fit.effective_*: the usable context that the model also uses well
    Fact<C>("fit.effective_context", "tokens", "fit.context, at most quality.effective_context",
            [](const C& s) -> double { return s.effective_context; }),
    Fact<C>("fit.effective_context_k", "K tokens", "fit.effective_context",
            [](const C& s) { return s.effective_context / 1024.0; }),
    Fact<C>("fit.effective_context_ratio", "", "fit.effective_context / workload.context_tokens",
            [](const C& s) { return Ratio(s.effective_context, s.shape.context_tokens); }));

// Calls f(std::integral_constant<size_t, i>, row i) for every row, in order.
// Always inlined, like the getters, so that a Fill keeps its subject in registers.
template <typename F, size_t... I>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void ForEachRow(F&& f, std::index_sequence<I...>) {
  (f(std::integral_constant<size_t, I>(), std::get<I>(kRows)), ...);
}
template <typename F>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void ForEachRow(F&& f) {
  ForEachRow(f, std::make_index_sequence<std::tuple_size_v<decltype(kRows)>>());
}

// The value type a getter returns, as a fact type.
template <typename V>
constexpr rules::Type TypeOf() {
  static_assert(!std::is_same_v<V, std::string>, "a getter returns a view, not a copy");
  if constexpr (std::is_same_v<V, bool>) {
    return rules::Type::kBool;
  } else if constexpr (std::is_same_v<V, double>) {
    return rules::Type::kNumber;
  } else if constexpr (std::is_same_v<V, S>) {
    return rules::Type::kString;
  } else {
    static_assert(std::is_same_v<V, List>, "a getter returns double, bool, a view or a list");
    return rules::Type::kStringList;
  }
}

}  // namespace

Facts::Facts(rules::FactSchema* s, double quality_ranking_z)
    : setup(s), quality_ranking_z_(quality_ranking_z) {
  ForEachRow([&](auto, const auto& row) {
    using Subject = decltype(SubjectOf(row));
    constexpr rules::Type type = TypeOf<decltype(row.get(std::declval<const Subject&>()))>();
    const int32_t index = s->Declare(row.name, type, row.doc, row.unit);
    handles_.push_back({s->facts()[index].slot, index});
    // The layers: the workload's and the model's facts are filled once for many candidates
    // (context, as the setup's); a candidate's are early (FillEarly: known once it is sized,
    // before Estimator::Finish) but for its speeds. The evaluator bounds a candidate's score
    // by its early facts to skip finishing and scoring one that cannot rank first
    // (Evaluator::RankGroups).
    // A model's own facts and its quantization's are item facts: the same whatever the setup,
    // workload and mode, so the rules reading only those are worked out once per model and
    // quantization in a ranking (rules::ItemMemo).
    s->MarkAt(index,
              std::is_same_v<Subject, W> || std::is_same_v<Subject, M> ||
                  std::is_same_v<Subject, MI>,
              std::is_same_v<Subject, C> || std::is_same_v<Subject, Q>,
              std::is_same_v<Subject, MI> || std::is_same_v<Subject, Q>);
  });
  for (absl::string_view ns : {"gpu", "setup", "price"}) s->MarkContext(ns);
}

std::vector<uint8_t> Facts::RowsReadBy(const rules::CompiledRules& book) const {
  std::vector<uint8_t> rows;
  for (const Handle& h : handles_) rows.push_back(book.ReadsToScore(h.index) ? 1 : 0);
  for (uint8_t read : setup.RowsReadBy(book)) rows.push_back(read);
  return rows;
}

template <typename Subject>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Facts::FillLayer(const Subject& subject,
                                                         rules::FactValues* v,
                                                         const uint8_t* rows) const {
  // Two loops, so that the one a ranking runs tests each row once, not `rows` too.
  rules::FactValues::Writer w(v);
  if (rows == nullptr) {
    FillRows</*all=*/true>(subject, &w, rows);
  } else {
    FillRows</*all=*/false>(subject, &w, rows);
  }
}

template <bool all, typename Subject>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Facts::FillRows(const Subject& subject,
                                                        rules::FactValues::Writer* w,
                                                        const uint8_t* rows) const {
  const Handle* handles = handles_.data();  // read once, as the Writer's arrays
  ForEachRow([&](auto i, const auto& row) {
    if constexpr (std::is_same_v<decltype(SubjectOf(row)), Subject>) {
      if (!all && rows[i] == 0) return;
      const Handle h = handles[i];
      const auto value = row.get(subject);
      using V = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<V, double>) {
        w->Set(rules::NumberFact{h.slot, h.index}, value);
      } else if constexpr (std::is_same_v<V, bool>) {
        w->Set(rules::BoolFact{h.slot, h.index}, value);
      } else if constexpr (std::is_same_v<V, S>) {
        w->Set(rules::StringFact{h.slot, h.index}, value);
      } else {
        w->Set(rules::StringListFact{h.slot, h.index}, value);
      }
    }
  });
}

void Facts::FillWorkload(const WorkloadShape& shape, rules::FactValues* v,
                         const uint8_t* rows) const {
  FillLayer(shape, v, rows);
}

void Facts::FillModel(const Model& m, const ModelWorkloadText& text, double age_months,
                      rules::FactValues* v, const uint8_t* rows) const {
  FillLayer(ModelSubject{text, m.workload_quality.*text.quality}, v, rows);
  FillLayer(ModelItemSubject{m, age_months, m.active_params_b > 0 ? m.active_params_b : m.params_b},
            v, rows);
}

void Facts::FillEarly(const Model& model, const Quant& quant, const Runtime* runtime,
                      bool serving_runtime, const Gpu& gpu, int gpus_used, const Estimate& e,
                      const EarlyShape& shape, rules::FactValues* v,
                      const uint8_t* rows) const {
  const double retention = QualityRetention(model, quant);
  const int context =
      model.max_context > 0 ? std::min(e.safe_context, model.max_context) : e.safe_context;
  const CandidateSubject subject{
      quant, runtime, serving_runtime, gpu, gpus_used, e, shape,
      EffectiveQuality(model.workload_quality.*shape.quality, retention, quality_ranking_z_),
      e.runnable() && runtime != nullptr && e.fit.kind != FitKind::kNoFit, context,
      std::min(context, model.long_context.effective_context)};
  FillLayer(subject, v, rows);
  FillLayer(QuantSubject{model, quant, retention}, v, rows);
}

void Facts::FillCandidate(const Model& model, const Quant& quant, const Runtime* runtime,
                          bool serving_runtime, const Gpu& gpu, int gpus_used,
                          const Estimate& e, const WorkloadShape& shape,
                          rules::FactValues* v, const uint8_t* rows) const {
  FillEarly(model, quant, runtime, serving_runtime, gpu, gpus_used, e, EarlyShapeOf(shape), v,
            rows);
  FillSpeeds(e, shape, v, rows);
}

void Facts::FillSpeeds(const Estimate& e, const WorkloadShape& shape, rules::FactValues* v,
                       const uint8_t* rows) const {
  FillLayer(SpeedSubject{e, shape, UserTokS(e, shape)}, v, rows);
}

}  // namespace fitrank
