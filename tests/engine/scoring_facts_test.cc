// The fact schema and how a candidate's facts are filled (engine/facts.h).
#include "engine/scoring/facts.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "catalog/release_month.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

TEST(Facts, EveryNamespaceIsDeclaredWithDocs) {
  rules::FactSchema schema;
  Facts facts(&schema);
  for (const char* ns : {"gpu.", "setup.", "model.", "quant.", "fit.", "memory.", "perf.",
                         "workload.", "mode.", "price."}) {
    int n = 0;
    for (const rules::FactDecl& d : schema.facts()) {
      if (absl::StartsWith(d.name, ns)) {
        ++n;
        EXPECT_FALSE(d.doc.empty()) << d.name;
      }
    }
    EXPECT_GT(n, 0) << ns;
  }
  EXPECT_NE(schema.Find("model.quality.score"), nullptr);
  EXPECT_NE(schema.Find("fit.headroom_pct"), nullptr);
  EXPECT_EQ(schema.Find("perf.decode_tok_s")->unit, "tok/s");
}

// Rules that read only context facts are evaluated once per context (CompiledRules::
// Evaluate): every fact FillCandidate sets must not be one, and every fact the other layers
// set must be one.
TEST(Facts, ContextFactsAreExactlyTheOnesFilledOncePerContext) {
  const testing::ShippedEngine& e = Shipped();
  rules::FactSchema schema;
  Facts facts(&schema);
  fitrank::Setup setup = e.SetupOf("RTX 4090");
  const Workload& workload = *e.profiles->FindWorkload("coding").found;
  WorkloadShape shape = ShapeFor(workload, e.profiles->default_mode());
  const Model& model = *e.catalog->FindModel("qwen3-32b").found;
  const Quant& quant = *e.catalog->FindQuant("Q4_K_M").found;
  const Runtime* runtime = e.catalog->RuntimeById("llama.cpp");
  ASSERT_NE(runtime, nullptr);
  EstimateInput in;
  in.setup = &setup;
  in.model = &model;
  in.quant = &quant;
  in.runtime = runtime;
  Estimate estimate;
  e.estimator->Run(in, &estimate);

  auto set_facts = [&](auto fill) {
    rules::FactValues v(schema);
    fill(&v);
    std::vector<std::string> names;
    for (size_t i = 0; i < schema.facts().size(); ++i) {
      if (v.IsSet(static_cast<int32_t>(i))) names.push_back(schema.facts()[i].name);
    }
    return names;
  };
  const SetupSubject subject(*e.catalog, *e.estimator, setup);
  std::vector<std::string> outer = set_facts([&](rules::FactValues* v) {
    facts.FillSetup(subject, v);
    facts.FillWorkload(shape, v);
    facts.FillModel(model, DescribeCapabilities(model, workload, *e.profiles),
                    MonthsSince(model.release_month, ReleaseMonth("2025-10-01")), v);
  });
  std::vector<std::string> candidate = set_facts([&](rules::FactValues* v) {
    facts.FillCandidate(model, quant, runtime, false, *setup.devices[0].gpu, 1, estimate, shape,
                        v);
  });
  EXPECT_GT(outer.size(), 40u);
  EXPECT_GT(candidate.size(), 30u);
  for (const std::string& name : outer) EXPECT_TRUE(schema.Find(name)->context) << name;
  for (const std::string& name : candidate) EXPECT_FALSE(schema.Find(name)->context) << name;

  // The early facts are exactly what FillEarly sets (a bound reads them before the speeds
  // exist), the speeds what FillSpeeds sets, and every declared fact but the built-ins and
  // the ones a setup without a price leaves unknown is set by one of the layers.
  std::vector<std::string> early = set_facts([&](rules::FactValues* v) {
    facts.FillEarly(model, quant, runtime, false, *setup.devices[0].gpu, 1, estimate,
                    EarlyShapeOf(shape), v);
  });
  std::vector<std::string> speeds = set_facts([&](rules::FactValues* v) {
    facts.FillSpeeds(estimate, shape, v);
  });
  EXPECT_GT(speeds.size(), 5u);
  // What fits at once is known from the sizing: the serving set's capacity rule is bounded
  // exactly, which lets the serving modes skip finishing most candidates.
  EXPECT_TRUE(schema.Find("perf.max_concurrency")->early);
  for (const rules::FactDecl& d : schema.facts()) {
    const bool in_early = std::find(early.begin(), early.end(), d.name) != early.end();
    const bool in_speeds = std::find(speeds.begin(), speeds.end(), d.name) != speeds.end();
    const bool in_outer = std::find(outer.begin(), outer.end(), d.name) != outer.end();
    EXPECT_EQ(d.early, in_early) << d.name;
    EXPECT_LE(in_early + in_speeds + in_outer, 1) << d.name;
    if (!d.builtin && !absl::StartsWith(d.name, "price.") && !absl::StartsWith(d.name, "gpu.")) {
      EXPECT_EQ(in_early + in_speeds + in_outer, 1) << d.name << " is filled by no layer";
    }
  }
}

// quant.workload_quality is the workload's figure lowered by the z the Facts were built with
// (grades.yaml quality_ranking_z), times the quant's retention.
TEST(Facts, WorkloadQualityIsLoweredByTheProfilesZ) {
  const testing::ShippedEngine& e = Shipped();
  fitrank::Setup setup = e.SetupOf("RTX 4090");
  const Workload& workload = *e.profiles->FindWorkload("coding").found;
  WorkloadShape shape = ShapeFor(workload, e.profiles->default_mode());
  const Model& model = *e.catalog->FindModel("qwen3-32b").found;
  const Quant& quant = *e.catalog->FindQuant("Q4_K_M").found;
  const WorkloadQuality& q = model.workload_quality.coding;
  ASSERT_GT(q.uncertainty, 0);
  Estimate estimate;
  for (double z : {0.0, 1.0, 2.5}) {
    rules::FactSchema schema;
    Facts facts(&schema, z);
    rules::FactValues v(schema);
    facts.FillEarly(model, quant, nullptr, false, *setup.devices[0].gpu, 1, estimate,
                    EarlyShapeOf(shape), &v);
    const rules::FactDecl* d = schema.Find("quant.workload_quality");
    ASSERT_NE(d, nullptr);
    EXPECT_DOUBLE_EQ(v.numbers()[d->slot],
                     std::max(0.0, q.score - z * q.uncertainty) * QualityRetention(model, quant))
        << z;
  }
}

TEST(Facts, ShapeScalesTheWorkloadByTheMode) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const Workload& w = *e.profiles->FindWorkload("agentic").found;
  const Mode& bg = *e.profiles->FindMode("background").found;
  WorkloadShape s = ShapeFor(w, bg);
  EXPECT_EQ(s.context_tokens, static_cast<int>(w.context_tokens * bg.context_scale));
  EXPECT_DOUBLE_EQ(s.decode_target_tok_s, w.decode_target_tok_s * bg.decode_target_scale);
  EXPECT_DOUBLE_EQ(s.ttft_target_ms, w.ttft_target_ms * bg.ttft_target_scale);
  EXPECT_EQ(s.concurrency, bg.concurrency);
}

TEST(Facts, CapabilitiesAreToldWithTheProfilesPhrases) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const Workload& agentic = *e.profiles->FindWorkload("agentic").found;
  const Workload& coding = *e.profiles->FindWorkload("coding").found;
  Model m;
  m.capabilities = {"code"};
  ModelWorkloadText t = DescribeCapabilities(m, agentic, *e.profiles);
  EXPECT_EQ(t.required_missing, "tool calling");
  EXPECT_EQ(t.required_missing_count, 1);
  t = DescribeCapabilities(m, coding, *e.profiles);
  EXPECT_EQ(t.preferred_present, "code training");
  EXPECT_DOUBLE_EQ(t.preferred_share, 1.0);
  m.capabilities = {"tools"};
  t = DescribeCapabilities(m, agentic, *e.profiles);
  EXPECT_EQ(t.required_missing_count, 0);
  t = DescribeCapabilities(m, coding, *e.profiles);
  EXPECT_DOUBLE_EQ(t.preferred_share, 0.0);
}

TEST(Facts, UserSpeedSharesThroughputAmongTheModesUsers) {
  Estimate e;
  e.decode_tok_s = 40;
  e.serving.aggregate_tok_s = 120;
  e.serving.concurrency = 3;
  WorkloadShape one;
  one.concurrency = 1;
  WorkloadShape eight;
  eight.concurrency = 8;
  EXPECT_DOUBLE_EQ(UserTokS(e, one), 40);
  EXPECT_DOUBLE_EQ(UserTokS(e, eight), 15);
}

// A ranking's scratch fills only the facts some rule's `when` or `score` reads
// (Facts::RowsReadBy); a scratch for explain (all_facts) fills every one. Every candidate
// scores the same either way, bit for bit, and the ranking's leaves facts unfilled (else the
// mask would go untested).
TEST(Facts, ScoringFillsOnlyWhatTheRulesReadAndScoresTheSame) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const fitrank::Setup setup = e.SetupOf("RTX 4090");
  int compared = 0, unfilled = 0;
  for (const char* mode : {"balanced", "light-api"}) {
    for (const Workload& w : e.profiles->workloads()) {
      auto q = e.QueryOf(setup, w.id, mode);
      Evaluator::Scratch partial(*e.evaluator), all(*e.evaluator);
      all.all_facts = true;
      const std::vector<Model>& models = e.catalog->models();
      for (size_t m = 0; m < models.size(); m += 11) {
        for (int qi = 0; qi < static_cast<int>(e.catalog->quants().size()); qi += 3) {
          const CandidateEval a = e.evaluator->Evaluate(*q, models[m], qi, &partial);
          const CandidateEval b = e.evaluator->Evaluate(*q, models[m], qi, &all);
          ASSERT_EQ(a.score.raw, b.score.raw) << models[m].id << " " << qi << " " << w.id;
          ASSERT_EQ(a.score.score, b.score.score) << models[m].id;
          ASSERT_EQ(a.score.grade, b.score.grade) << models[m].id;
          ASSERT_EQ(a.score.gated, b.score.gated) << models[m].id;
          ++compared;
        }
      }
      const auto& facts = partial.values.schema().facts();
      for (size_t i = 0; i < facts.size(); ++i) {
        const int32_t index = static_cast<int32_t>(i);
        EXPECT_FALSE(partial.values.IsSet(index) && !all.values.IsSet(index)) << facts[i].name;
        unfilled += all.values.IsSet(index) && !partial.values.IsSet(index);
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(unfilled, 0);
}

// Calls f(candidate, "mode model quant") for every quantization of every `stride`-th catalog
// model that decodes with `q`.
template <typename F>
void ForEachRunning(const testing::ShippedEngine& e, const Query& q, size_t stride, F f) {
  Evaluator::Scratch scratch(*e.evaluator);
  const std::vector<Model>& models = e.catalog->models();
  for (size_t m = 0; m < models.size(); m += stride) {
    for (int qi = 0; qi < static_cast<int>(e.catalog->quants().size()); ++qi) {
      const CandidateEval c = e.evaluator->Evaluate(q, models[m], qi, &scratch);
      if (!(c.estimate.decode_tok_s > 0)) continue;
      f(c, q.mode->id + " " + models[m].id + " " + c.quant->id);
    }
  }
}

// The ranker leaves out the serving speeds at capacity of a one-user query (no rule reads
// them) but not of a serving mode, even for a candidate whose KV budget holds one sequence
// only: its users share that sequence's speed (Facts' UserTokS).
TEST(Facts, UserSpeedOfAServingModeHoldingOneSequenceIsShared) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const fitrank::Setup setup = e.SetupOf("RTX 4090");
  int one_sequence = 0, one_user = 0;
  for (const char* mode : {"balanced", "light-api"}) {
    auto q = e.QueryOf(setup, "coding", mode);
    const int users = q->shape.concurrency;
    ForEachRunning(e, *q, 3, [&](const CandidateEval& c, const std::string& what) {
      const Estimate& est = c.estimate;
      if (users == 1) {
        EXPECT_EQ(c.user_tok_s, est.decode_tok_s) << what;
        EXPECT_EQ(est.serving.aggregate_tok_s, 0) << what;
        ++one_user;
      } else if (est.batch == 1) {
        EXPECT_GT(est.serving.aggregate_tok_s, 0) << what;
        EXPECT_EQ(c.user_tok_s, est.serving.aggregate_tok_s / users) << what;
        ++one_sequence;
      }
    });
  }
  EXPECT_GT(one_user, 100);
  EXPECT_GT(one_sequence, 10);
}

// A serving mode's users run at most one sequence each: where the mode's sequences do not all
// fit beside the weights and the candidate is sized at one (offload counts host RAM, so many
// more may "fit"), its speeds are for at most the users, and no user decodes faster than one
// sequence alone does.
TEST(Facts, AServingModesUsersRunNoMoreSequencesThanThereAreOfThem) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  int offloaded = 0, checked = 0;
  for (const char* gpu : {"GeForce GTX 1050", "GeForce RTX 3060 12GB"}) {
    const fitrank::Setup setup = e.SetupOf(gpu);
    for (const char* mode : {"light-api", "scale-out"}) {
      auto q = e.QueryOf(setup, "chat", mode);
      const int users = q->shape.concurrency;
      ASSERT_GT(users, 1);
      ForEachRunning(e, *q, 2, [&](const CandidateEval& c, const std::string& what) {
        const Estimate& est = c.estimate;
        EXPECT_LE(est.serving.concurrency, users) << gpu << " " << what;
        EXPECT_LE(c.user_tok_s, est.decode_tok_s * (1 + 1e-12)) << gpu << " " << what;
        if (est.batch == 1 && est.fit.kind == FitKind::kOffload &&
            est.serving.max_concurrency > users) {
          ++offloaded;
        }
        ++checked;
      });
    }
  }
  EXPECT_GT(offloaded, 20);  // where the users' cap binds
  EXPECT_GT(checked, 500);
}

}  // namespace
}  // namespace fitrank
