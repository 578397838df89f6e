#include "engine/scoring/facts.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "catalog/vocabulary.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/setup.h"

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

Facts::Facts(rules::FactSchema* s, double quality_ranking_z)
    : setup(s), quality_ranking_z_(quality_ranking_z) {
  // model.*
  model_id = s->String("model.id", "Catalog id, e.g. qwen3-32b");
  model_name = s->String("model.name", "Model name, e.g. Qwen3 32B");
  model_family = s->String("model.family", "Model family, e.g. Qwen3");
  model_org = s->String("model.org", "Who made it, e.g. Alibaba");
  model_kind = s->String("model.kind",
                         "instruct | chat | reasoning | hybrid-reasoning | code | base | embedding");
  model_modality = s->String("model.modality", "text | text+image | ...");
  model_license = s->String("model.license", "License id");
  model_release_date = s->String("model.release_date", "Release date, e.g. 2025-04-29");
  model_required_missing_text = s->String(
      "model.required_missing_text", "Capabilities the workload requires that the model lacks, e.g. tools");
  model_preferred_text = s->String(
      "model.preferred_text", "Capabilities the workload prefers that the model has, e.g. code");
  model_params_b = s->Number("model.params_b", "Total parameters", "B");
  model_active_params_b = s->Number("model.active_params_b", "Parameters read per token (MoE: active)", "B");
  model_max_context = s->Number("model.max_context", "The model's maximum context", "tokens");
  model_max_context_k = s->Number("model.max_context_k", "The model's maximum context", "K tokens");
  model_age_months = s->Number("model.age_months",
                               "Months between its release and the newest model in the catalog", "months");
  model_quality_score = s->Number("model.quality.score", "Quality score 0-100 (leaderboard or estimate)");
  model_quality_coding = s->Number("model.quality.coding",
                                   "Coding quality 0-100: LMArena coding category, same scale as the score");
  model_quality_math = s->Number("model.quality.math",
                                 "Math quality 0-100: LMArena math category, same scale as the score");
  model_required_missing = s->Number("model.required_missing",
                                     "How many of the workload's required capabilities it lacks");
  model_preferred_share = s->Number("model.preferred_share",
                                    "Share 0-1 of the workload's preferred capabilities it has (1 if none)");
  model_moe = s->Bool("model.moe", "Mixture of experts (active < total parameters)");
  model_thinking = s->Bool("model.thinking", "Built to think before answering (reasoning or hybrid)");
  model_ollama = s->Bool("model.ollama", "Has an ollama library tag (it serves one quant: Q4_K_M, or the release quant)");
  model_gguf_repo = s->Bool("model.gguf_repo",
                            "A GGUF repo of it is known: llama.cpp and Ollama download any GGUF quant by name");
  model_quality_estimated = s->Bool("model.quality.estimated",
                                    "The quality score is an estimate, not a leaderboard figure");
  model_quality_coding_estimated = s->Bool("model.quality.coding_estimated",
                                           "The coding quality is an estimate, not a leaderboard figure");
  model_quality_math_estimated = s->Bool("model.quality.math_estimated",
                                         "The math quality is an estimate, not a leaderboard figure");
  model_capabilities = s->StringList(
      "model.capabilities", "code, reasoning, tools, vision, multilingual, long-context, audio, math");
  // quant.*
  quant_id = s->String("quant.id", "Quantization id, e.g. Q4_K_M");
  quant_family = s->String("quant.family", "gguf-legacy | gguf-k | gguf-iq | float | fp8 | fp4 | gptq | awq | exl2 | mlc | mlx");
  quant_requires_precision = s->String("quant.requires_precision",
                                       "Hardware precision it needs to run natively (FP8, FP4) or empty");
  quant_bits = s->Number("quant.bits", "Nominal bits per weight", "bits");
  quant_bpw = s->Number("quant.bpw", "Effective bits per weight of real files", "bits");
  quant_quality_retention = s->Number(
      "quant.quality_retention",
      "Quality kept vs the published weights (16-bit, or the model's release quant), 0-1");
  quant_retention_pct = s->Number("quant.retention_pct", "quant.quality_retention in percent", "%");
  quant_effective_quality = s->Number("quant.effective_quality",
                                      "model.quality.score x quant.quality_retention, 0-100");
  quant_hw_native = s->Bool("quant.hw_native", "The GPU supports the precision the quant needs");
  quant_release = s->Bool(
      "quant.release", "The precision the model was published in, below 16 bits (gpt-oss: MXFP4)");
  // fit.*
  fit_kind = s->String("fit.kind", "native-comfortable | native-tight | offload | no-fit");
  fit_kv_cache = s->String("fit.kv_cache",
                           "KV cache type estimated: f16, or q8_0 when f16 does not fit natively");
  fit_native = s->Bool("fit.native", "The whole working set is in accelerator memory");
  fit_runs = s->Bool("fit.runs", "It runs at all (native or with offload) on a runtime that loads it");
  fit_headroom_pct = s->Number("fit.headroom_pct", "Free share of usable accelerator memory (native fits)", "%");
  fit_offload_pct = s->Number("fit.offload_pct", "Share of the working set in host RAM", "%");
  fit_host_ram_gb = s->Number("fit.host_ram_gb", "Host RAM the offloaded part needs", "GB");
  fit_safe_context = s->Number("fit.safe_context", "Largest context that fits, within the model's maximum", "tokens");
  fit_context = s->Number("fit.context", "Usable context for this workload: min(safe context, model max)", "tokens");
  fit_context_k = s->Number("fit.context_k", "fit.context in thousands (1K = 1,024 tokens)", "K tokens");
  fit_context_ratio = s->Number("fit.context_ratio", "fit.context / workload.context_tokens");
  fit_gpus = s->Number("fit.gpus", "GPUs the candidate runs on (scale-out picks the fewest that fit)");
  // memory.*
  memory_required_gb = s->Number("memory.required_gb", "Weights + KV cache + runtime overhead", "GB");
  memory_usable_gb = s->Number("memory.usable_gb", "Accelerator memory the model may use", "GB");
  memory_weights_gb = s->Number("memory.weights_gb", "Weights at this quantization", "GB");
  memory_kv_gb = s->Number("memory.kv_gb", "KV cache at the workload's context and concurrency", "GB");
  memory_over_gb = s->Number("memory.over_gb", "required - usable: above 0 needs offload", "GB");
  // perf.*
  perf_decode_tok_s = s->Number("perf.decode_tok_s", "Decode speed of one sequence", "tok/s");
  perf_user_tok_s = s->Number("perf.user_tok_s", "Decode speed each user sees: batch-1 decode, or in serving modes the aggregate shared by the mode's users", "tok/s");
  perf_decode_ratio = s->Number("perf.decode_ratio", "perf.user_tok_s / workload.decode_target_tok_s");
  perf_prefill_tok_s = s->Number("perf.prefill_tok_s", "Prompt processing speed", "tok/s");
  perf_ttft_ms = s->Number("perf.ttft_ms", "Time to first token for the workload's prompt", "ms");
  perf_ttft_s = s->Number("perf.ttft_s", "Time to first token", "s");
  perf_ttft_ratio = s->Number("perf.ttft_ratio", "perf.ttft_ms / workload.ttft_target_ms");
  perf_answer_s = s->Number("perf.answer_s", "Time to a whole answer: TTFT + output tokens / user speed", "s");
  perf_aggregate_tok_s = s->Number("perf.aggregate_tok_s", "Decode tokens/s summed over concurrent users", "tok/s");
  perf_concurrency = s->Number("perf.concurrency", "Sequences served at once (serving modes: what fits, up to the mode's)");
  perf_max_concurrency = s->Number("perf.max_concurrency", "Sequences of the workload's context that fit at once");
  perf_runtime = s->String("perf.runtime", "Runtime the estimate assumes, e.g. llama.cpp, vllm");
  perf_runnable = s->Bool("perf.runnable", "Some runtime loads this quantization on this hardware");
  perf_serving_runtime = s->Bool("perf.serving_runtime", "The runtime serves concurrent users (continuous batching)");
  // workload.*
  workload_name = s->String("workload.name", "Workload name, e.g. Agentic coding");
  workload_phrase = s->String("workload.phrase", "The workload mid-sentence, e.g. agentic coding");
  workload_context_tokens = s->Number("workload.context_tokens", "Context the workload wants (mode-scaled)", "tokens");
  workload_context_k = s->Number("workload.context_k", "workload.context_tokens in thousands (1K = 1,024)", "K tokens");
  workload_min_context_tokens = s->Number("workload.min_context_tokens", "Smallest usable context", "tokens");
  workload_min_context_k = s->Number("workload.min_context_k", "workload.min_context_tokens in thousands", "K tokens");
  workload_prompt_tokens = s->Number("workload.prompt_tokens", "Prompt prefilled before the first token", "tokens");
  workload_output_tokens = s->Number("workload.output_tokens", "Tokens generated per answer", "tokens");
  workload_decode_target_tok_s = s->Number("workload.decode_target_tok_s", "Comfortable decode speed (mode-scaled)", "tok/s");
  workload_decode_min_tok_s = s->Number("workload.decode_min_tok_s", "Frustration floor for decode (mode-scaled)", "tok/s");
  workload_ttft_target_ms = s->Number("workload.ttft_target_ms", "Comfortable time to first token (mode-scaled)", "ms");
  workload_ttft_max_ms = s->Number("workload.ttft_max_ms", "Frustration limit for time to first token (mode-scaled)", "ms");
  workload_requires = s->StringList("workload.requires", "Capabilities a model must have");
  workload_prefers = s->StringList("workload.prefers", "Capabilities that make a model a better fit");
  // mode.*
  mode_name = s->String("mode.name", "Mode name, e.g. Light API serving");
  mode_concurrency = s->Number("mode.concurrency", "Concurrent sequences served");
  mode_serving = s->Bool("mode.serving", "The mode wants a serving runtime");
  // quality.*
  quality_chat = s->Number("quality.chat", "Chat quality 0-100 (catalog/QUALITY.md: leaderboards or estimate)");
  quality_coding = s->Number("quality.coding", "Coding quality 0-100 (Aider, LiveBench, EvalPlus, ... or estimate)");
  quality_agentic = s->Number("quality.agentic", "Agentic quality 0-100 (BFCL, SWE-bench, ... or estimate)");
  quality_rag = s->Number("quality.rag", "Long-document quality 0-100 (RULER, LongBench, ... or estimate)");
  quality_reasoning = s->Number("quality.reasoning", "Reasoning quality 0-100 (LiveBench math/reasoning, AIME, GPQA, ... or estimate)");
  quality_chat_estimated = s->Bool("quality.chat_estimated", "quality.chat is an estimate");
  quality_coding_estimated = s->Bool("quality.coding_estimated", "quality.coding is an estimate");
  quality_agentic_estimated = s->Bool("quality.agentic_estimated", "quality.agentic is an estimate");
  quality_rag_estimated = s->Bool("quality.rag_estimated", "quality.rag is an estimate");
  quality_reasoning_estimated = s->Bool("quality.reasoning_estimated", "quality.reasoning is an estimate");
  quality_workload = s->Number("quality.workload", "The quality figure of this workload (quality.chat for chat, ...), 0-100");
  quality_workload_estimated = s->Bool("quality.workload_estimated", "quality.workload is an estimate");
  quality_workload_uncertainty = s->Number("quality.workload_uncertainty",
                                           "One standard error of quality.workload (estimates: leave-one-out RMS)");
  quality_workload_source = s->String("quality.workload_source", "Which benchmarks, or how it was estimated");
  quant_workload_quality = s->Number(
      "quant.workload_quality",
      "quality.workload lowered once by its uncertainty (grades.yaml quality_ranking_z x "
      "quality.workload_uncertainty) x quant.quality_retention");
  quality_ruler_32k = s->Number("quality.ruler_32k", "RULER score at 32K tokens (0 beyond max context)", "%");
  quality_ruler_64k = s->Number("quality.ruler_64k", "RULER score at 64K tokens", "%");
  quality_ruler_128k = s->Number("quality.ruler_128k", "RULER score at 128K tokens", "%");
  quality_effective_context = s->Number("quality.effective_context",
                                        "Longest context the model uses well (RULER >= 85.6%)", "tokens");
  quality_effective_context_k = s->Number("quality.effective_context_k", "quality.effective_context", "K tokens");
  quality_long_context_estimated = s->Bool("quality.long_context_estimated", "The RULER figures are estimates");
  quality_long_context_source = s->String("quality.long_context_source", "Where the RULER figures come from");
  fit_effective_context = s->Number("fit.effective_context",
                                    "fit.context, at most quality.effective_context", "tokens");
  fit_effective_context_k = s->Number("fit.effective_context_k", "fit.effective_context", "K tokens");
  fit_effective_context_ratio = s->Number("fit.effective_context_ratio",
                                          "fit.effective_context / workload.context_tokens");
  // Filled once per setup, workload or model (FillSetup, FillWorkload, FillModel); quant.*,
  // fit.*, memory.* and perf.* change with every candidate (FillCandidate).
  for (absl::string_view ns : {"gpu", "setup", "price", "workload", "mode", "model", "quality"}) {
    s->MarkContext(ns);
  }
  // Early facts (FillEarly): known once a candidate is sized, before its speeds are worked
  // out (Estimator::Finish) and it is scored. The evaluator bounds a candidate's score by them
  // to skip finishing and scoring one that cannot rank first (Evaluator::RankGroups).
  for (const rules::FactDecl& d : std::vector<rules::FactDecl>(s->facts())) {
    const bool speed = absl::StartsWith(d.name, "perf.") && d.name != "perf.runtime" &&
                       d.name != "perf.serving_runtime" && d.name != "perf.runnable";
    if (!d.context && !d.builtin && !speed) s->MarkEarly(d.name);
  }
}

void Facts::FillWorkload(const WorkloadShape& shape, rules::FactValues* v) const {
  const Workload& w = *shape.workload;
  v->Set(workload_name, w.name);
  v->Set(workload_phrase, w.phrase);
  v->Set(workload_context_tokens, shape.context_tokens);
  v->Set(workload_context_k, shape.context_tokens / 1024.0);
  v->Set(workload_min_context_tokens, shape.min_context_tokens);
  v->Set(workload_min_context_k, shape.min_context_tokens / 1024.0);
  v->Set(workload_prompt_tokens, shape.prompt_tokens);
  v->Set(workload_output_tokens, shape.output_tokens);
  v->Set(workload_decode_target_tok_s, shape.decode_target_tok_s);
  v->Set(workload_decode_min_tok_s, shape.decode_min_tok_s);
  v->Set(workload_ttft_target_ms, shape.ttft_target_ms);
  v->Set(workload_ttft_max_ms, shape.ttft_max_ms);
  v->Set(workload_requires, absl::MakeConstSpan(w.required_caps));
  v->Set(workload_prefers, absl::MakeConstSpan(w.preferred_caps));
  v->Set(mode_name, shape.mode->name);
  v->Set(mode_concurrency, shape.concurrency);
  v->Set(mode_serving, shape.mode->serving_runtime);
}

void Facts::FillModel(const Model& m, const ModelWorkloadText& text, double age_months,
                      rules::FactValues* v) const {
  v->Set(model_id, m.id);
  v->Set(model_name, m.name);
  v->Set(model_family, m.family);
  v->Set(model_org, m.org);
  v->Set(model_kind, m.kind);
  v->Set(model_modality, m.modality);
  v->Set(model_license, m.license);
  v->Set(model_release_date, m.release_date);
  v->Set(model_required_missing_text, text.required_missing);
  v->Set(model_preferred_text, text.preferred_present);
  v->Set(model_params_b, m.params_b);
  double active = m.active_params_b > 0 ? m.active_params_b : m.params_b;
  v->Set(model_active_params_b, active);
  v->Set(model_max_context, m.max_context);
  v->Set(model_max_context_k, m.max_context / 1024.0);
  v->Set(model_age_months, age_months);
  v->Set(model_quality_score, m.quality.score);
  v->Set(model_quality_coding, m.quality.coding);
  v->Set(model_quality_math, m.quality.math);
  v->Set(model_quality_coding_estimated, m.quality.coding_estimated);
  v->Set(model_quality_math_estimated, m.quality.math_estimated);
  v->Set(model_required_missing, text.required_missing_count);
  v->Set(model_preferred_share, text.preferred_share);
  v->Set(model_moe, active < m.params_b);
  v->Set(model_thinking, IsThinkingModel(m));
  v->Set(model_ollama, !m.ollama_tag.empty());
  v->Set(model_gguf_repo, !m.gguf_repo.empty());
  v->Set(model_quality_estimated, m.quality.estimated);
  v->Set(model_capabilities, absl::MakeConstSpan(m.capabilities));
  const WorkloadQualities& wq = m.workload_quality;
  v->Set(quality_chat, wq.chat.score);
  v->Set(quality_coding, wq.coding.score);
  v->Set(quality_agentic, wq.agentic.score);
  v->Set(quality_rag, wq.rag.score);
  v->Set(quality_reasoning, wq.reasoning.score);
  v->Set(quality_chat_estimated, wq.chat.estimated);
  v->Set(quality_coding_estimated, wq.coding.estimated);
  v->Set(quality_agentic_estimated, wq.agentic.estimated);
  v->Set(quality_rag_estimated, wq.rag.estimated);
  v->Set(quality_reasoning_estimated, wq.reasoning.estimated);
  const WorkloadQuality& q = wq.*text.quality;
  v->Set(quality_workload, q.score);
  v->Set(quality_workload_estimated, q.estimated);
  v->Set(quality_workload_uncertainty, q.uncertainty);
  v->Set(quality_workload_source, q.source);
  const LongContext& lc = m.long_context;
  v->Set(quality_ruler_32k, lc.ruler_32k);
  v->Set(quality_ruler_64k, lc.ruler_64k);
  v->Set(quality_ruler_128k, lc.ruler_128k);
  v->Set(quality_effective_context, lc.effective_context);
  v->Set(quality_effective_context_k, lc.effective_context / 1024.0);
  v->Set(quality_long_context_estimated, lc.estimated);
  v->Set(quality_long_context_source, lc.source);
}

void Facts::FillEarly(const Model& model, const Quant& quant, const Runtime* runtime,
                      bool serving_runtime, const Gpu& gpu, int gpus_used, const Estimate& e,
                      const WorkloadShape& shape, rules::FactValues* v) const {
  v->Set(quant_id, quant.id);
  v->Set(quant_family, quant.family);
  v->Set(quant_requires_precision, quant.requires_precision);
  v->Set(quant_bits, quant.bits);
  const double retention = QualityRetention(model, quant);
  v->Set(quant_quality_retention, retention);
  v->Set(quant_retention_pct, 100 * retention);
  v->Set(quant_effective_quality, model.quality.score * retention);
  v->Set(quant_release, quant.id == model.release_quant);
  v->Set(quant_hw_native, quant.requires_precision.empty() ||
                              std::find(gpu.precisions.begin(), gpu.precisions.end(),
                                        quant.requires_precision) != gpu.precisions.end());
  v->Set(quant_workload_quality,
         EffectiveQuality(model.workload_quality.*shape.quality, retention, quality_ranking_z_));
  v->Set(perf_runtime, runtime != nullptr ? absl::string_view(runtime->id) : absl::string_view());
  v->Set(perf_serving_runtime, serving_runtime);
  v->Set(perf_runnable, e.runnable() && runtime != nullptr);
  v->Set(quant_bpw, e.bpw > 0 ? e.bpw : quant.bpw);

  bool runs = e.runnable() && runtime != nullptr && e.fit.kind != FitKind::kNoFit;
  v->Set(fit_kind, FitKindName(e.fit.kind));
  v->Set(fit_kv_cache, KvCacheTypeName(e.kv_cache));
  v->Set(fit_native, runs && IsNative(e.fit.kind));
  v->Set(fit_runs, runs);
  v->Set(fit_headroom_pct, e.fit.headroom_pct);
  v->Set(fit_offload_pct, e.fit.offload_pct);
  v->Set(fit_host_ram_gb, e.fit.host_ram_gb);
  v->Set(fit_safe_context, e.safe_context);
  int context = model.max_context > 0 ? std::min(e.safe_context, model.max_context) : e.safe_context;
  v->Set(fit_context, context);
  v->Set(fit_context_k, context / 1024.0);
  v->Set(fit_context_ratio,
         shape.context_tokens > 0 ? static_cast<double>(context) / shape.context_tokens : 0);
  v->Set(fit_gpus, gpus_used);
  const int effective = std::min(context, model.long_context.effective_context);
  v->Set(fit_effective_context, effective);
  v->Set(fit_effective_context_k, effective / 1024.0);
  v->Set(fit_effective_context_ratio,
         shape.context_tokens > 0 ? static_cast<double>(effective) / shape.context_tokens : 0);

  v->Set(memory_required_gb, e.memory.total_gb);
  v->Set(memory_usable_gb, e.memory.usable_gb);
  v->Set(memory_weights_gb, e.memory.weights_gb);
  v->Set(memory_kv_gb, e.memory.kv_gb);
  v->Set(memory_over_gb, e.memory.total_gb - e.memory.usable_gb);

}

void Facts::FillCandidate(const Model& model, const Quant& quant, const Runtime* runtime,
                          bool serving_runtime, const Gpu& gpu, int gpus_used,
                          const Estimate& e, const WorkloadShape& shape,
                          rules::FactValues* v) const {
  FillEarly(model, quant, runtime, serving_runtime, gpu, gpus_used, e, shape, v);
  FillSpeeds(e, shape, v);
}

void Facts::FillSpeeds(const Estimate& e, const WorkloadShape& shape,
                       rules::FactValues* v) const {
  double user = UserTokS(e, shape);
  double aggregate = shape.concurrency > 1 ? e.serving.aggregate_tok_s : e.decode_tok_s;
  v->Set(perf_decode_tok_s, e.decode_tok_s);
  v->Set(perf_user_tok_s, user);
  v->Set(perf_decode_ratio, shape.decode_target_tok_s > 0 ? user / shape.decode_target_tok_s : 0);
  v->Set(perf_prefill_tok_s, e.prefill_tok_s);
  v->Set(perf_ttft_ms, e.ttft_ms);
  v->Set(perf_ttft_s, e.ttft_ms / 1000);
  v->Set(perf_ttft_ratio, shape.ttft_target_ms > 0 ? e.ttft_ms / shape.ttft_target_ms : 0);
  v->Set(perf_answer_s, user > 0 ? e.ttft_ms / 1000 + shape.output_tokens / user : 0);
  v->Set(perf_aggregate_tok_s, aggregate);
  v->Set(perf_max_concurrency, e.serving.max_concurrency);
  v->Set(perf_concurrency, shape.concurrency > 1 ? e.serving.concurrency : 1);
}

}  // namespace fitrank
