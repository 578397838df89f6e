// Exact comparisons of what two ways of computing the same thing give (estimates, ranked
// candidates, rankings): == on every number, never a tolerance. Fast paths are tested against
// slow ones with these (estimator_sizing_test, scoring_threads_test).
#ifndef FITRANK_TESTS_ENGINE_SAME_RESULTS_H_
#define FITRANK_TESTS_ENGINE_SAME_RESULTS_H_

#include <string>

#include "engine/estimator/estimator.h"
#include "engine/scoring/evaluate.h"
#include "gtest/gtest.h"

namespace fitrank::testing {

// Every number of two estimates, compared exactly (==, not within a tolerance).
inline void ExpectSameEstimate(const Estimate& a, const Estimate& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.memory.weights_gb, b.memory.weights_gb);
  EXPECT_EQ(a.memory.kv_gb, b.memory.kv_gb);
  EXPECT_EQ(a.memory.overhead_gb, b.memory.overhead_gb);
  EXPECT_EQ(a.memory.total_gb, b.memory.total_gb);
  EXPECT_EQ(a.memory.usable_gb, b.memory.usable_gb);
  EXPECT_EQ(a.fit.kind, b.fit.kind);
  EXPECT_EQ(a.fit.headroom_pct, b.fit.headroom_pct);
  EXPECT_EQ(a.fit.offload_pct, b.fit.offload_pct);
  EXPECT_EQ(a.fit.host_ram_gb, b.fit.host_ram_gb);
  EXPECT_EQ(a.safe_context, b.safe_context);
  EXPECT_EQ(a.decode_tok_s, b.decode_tok_s);
  EXPECT_EQ(a.prefill_tok_s, b.prefill_tok_s);
  EXPECT_EQ(a.ttft_ms, b.ttft_ms);
  EXPECT_EQ(a.range.decode_low, b.range.decode_low);
  EXPECT_EQ(a.range.decode_high, b.range.decode_high);
  EXPECT_EQ(a.range.prefill_low, b.range.prefill_low);
  EXPECT_EQ(a.range.prefill_high, b.range.prefill_high);
  EXPECT_EQ(a.range.ttft_low_ms, b.range.ttft_low_ms);
  EXPECT_EQ(a.range.ttft_high_ms, b.range.ttft_high_ms);
  EXPECT_EQ(a.range.relative, b.range.relative);
  EXPECT_EQ(a.serving.max_concurrency, b.serving.max_concurrency);
  EXPECT_EQ(a.serving.concurrency, b.serving.concurrency);
  EXPECT_EQ(a.serving.aggregate_tok_s, b.serving.aggregate_tok_s);
  EXPECT_EQ(a.serving.per_user_tok_s, b.serving.per_user_tok_s);
  EXPECT_EQ(a.placement.group_weights_gb, b.placement.group_weights_gb);
  EXPECT_EQ(a.placement.group_usable_gb, b.placement.group_usable_gb);
  EXPECT_EQ(a.placement.host_weights_gb, b.placement.host_weights_gb);
  EXPECT_EQ(a.placement.groups, b.placement.groups);
  EXPECT_EQ(a.problems, b.problems);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.parallelism, b.parallelism);
  EXPECT_EQ(a.runtime_family, b.runtime_family);
  EXPECT_EQ(a.context, b.context);
  EXPECT_EQ(a.prompt_tokens, b.prompt_tokens);
  EXPECT_EQ(a.gen_tokens, b.gen_tokens);
  EXPECT_EQ(a.batch, b.batch);
  EXPECT_EQ(a.bpw, b.bpw);
  EXPECT_EQ(a.kv_bytes_per_token, b.kv_bytes_per_token);
  EXPECT_EQ(a.decode_bytes_per_token_gb, b.decode_bytes_per_token_gb);
}

// Every field a report reads of a ranked or excluded candidate.
inline void ExpectSameCandidate(const CandidateEval& a, const CandidateEval& b) {
  ASSERT_NE(a.model, nullptr);
  SCOPED_TRACE(a.model->id);
  EXPECT_EQ(a.model, b.model);
  EXPECT_EQ(a.quant, b.quant);
  EXPECT_EQ(a.quant_index, b.quant_index);
  EXPECT_EQ(a.runtime, b.runtime);
  EXPECT_EQ(a.gpus(), b.gpus());
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.score.raw, b.score.raw);
  EXPECT_EQ(a.score.score, b.score.score);
  EXPECT_EQ(a.score.grade, b.score.grade);
  EXPECT_EQ(a.score.cap, b.score.cap);
  EXPECT_EQ(a.score.capped, b.score.capped);
  EXPECT_EQ(a.score.gated, b.score.gated);
  EXPECT_EQ(a.cap_rule, b.cap_rule);
  EXPECT_EQ(a.gate_rule, b.gate_rule);
  EXPECT_EQ(a.quality, b.quality);
  EXPECT_EQ(a.user_tok_s, b.user_tok_s);
  EXPECT_EQ(a.context, b.context);
  EXPECT_EQ(a.evaluated, b.evaluated);
  EXPECT_EQ(a.estimate.kv_cache, b.estimate.kv_cache);
  ExpectSameEstimate(a.estimate, b.estimate, "estimate");
}

inline void ExpectSameRanking(const Ranking& a, const Ranking& b,
                              const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.models, b.models);
  EXPECT_EQ(a.candidates, b.candidates);
  ASSERT_EQ(a.ranked.size(), b.ranked.size());
  for (size_t i = 0; i < b.ranked.size(); ++i) {
    ExpectSameCandidate(a.ranked[i], b.ranked[i]);
  }
  ASSERT_EQ(a.excluded.size(), b.excluded.size());
  for (size_t i = 0; i < b.excluded.size(); ++i) {
    ExpectSameCandidate(a.excluded[i], b.excluded[i]);
  }
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_ENGINE_SAME_RESULTS_H_
