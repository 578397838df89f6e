// Grader's prepared-query cache: bounded (least recently used dropped), and the answers are
// the same whether a query came from the cache or was prepared again.
#include "engine/report/grader.h"

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/file_source.h"
#include "engine/engine.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

class GraderCache : public ::testing::Test {
 protected:
  void SetUp() override {
    Diagnostics diags;
    engine_ = Engine::Load({.data = std::make_shared<EmbeddedSource>()}, &diags);
    ASSERT_NE(engine_, nullptr) << diags.Render();
  }

  // The 4090 with `ram_gib` of host RAM: each RAM size is a different question (a server's
  // `ram=` parameter).
  fitrank::Setup With(double ram_gib, std::optional<double> host_bandwidth_gbps = {}) const {
    const Gpu* gpu = engine_->catalog().FindGpu("RTX 4090").found;
    SetupOptions o;
    o.host_ram_gb = ram_gib;
    o.host_bandwidth_gbps = host_bandwidth_gbps;
    absl::StatusOr<fitrank::Setup> s = BuildSetup(engine_->estimator(), {{gpu, 1}}, o);
    EXPECT_TRUE(s.ok()) << s.status();
    return *s;
  }
  const Workload& Chat() const { return *engine_->profiles().FindWorkload("chat").found; }
  const Mode& Balanced() const { return engine_->profiles().default_mode(); }

  std::shared_ptr<const Engine> engine_;
};

TEST_F(GraderCache, HoldsAtMostItsCapDroppingTheLeastRecentlyUsed) {
  Grader g(engine_->evaluator(), engine_->policy(), /*max_queries=*/3);
  const std::vector<Pick> first = g.Rank(With(32), Chat(), Balanced(), 3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(g.cached_queries(), 1u);
  g.Rank(With(64), Chat(), Balanced(), 3);
  g.Rank(With(96), Chat(), Balanced(), 3);
  EXPECT_EQ(g.cached_queries(), 3u);
  // Touch 32 GB so that 64 GB is the least recently used; a fourth question drops it.
  g.Rank(With(32), Chat(), Balanced(), 3);
  g.Rank(With(128), Chat(), Balanced(), 3);
  EXPECT_EQ(g.cached_queries(), 3u);
  // Many more distinct questions (a public server's varied `ram=`): still 3.
  for (int ram = 1; ram <= 40; ++ram) g.Rank(With(ram), Chat(), Balanced(), 1);
  EXPECT_EQ(g.cached_queries(), 3u);
  // A dropped question is prepared again and answers the same.
  const std::vector<Pick> again = g.Rank(With(32), Chat(), Balanced(), 3);
  ASSERT_EQ(again.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(again[i].model, first[i].model);
    EXPECT_EQ(again[i].quant, first[i].quant);
    EXPECT_EQ(again[i].score, first[i].score);
  }
}

// The cache tells questions apart by what the setup is, not by its label: the same GPU with
// another host RAM or host bandwidth (offload speed) is another question; equal setups built
// apart, and the same workload and mode, are one.
TEST_F(GraderCache, SetupsWithOneLabelButAnotherHostAreOtherQuestions) {
  Grader g(engine_->evaluator(), engine_->policy());
  const fitrank::Setup a = With(64, 89.6);
  const fitrank::Setup more_ram = With(96, 89.6);
  const fitrank::Setup faster_host = With(64, 307);
  ASSERT_EQ(a.label, more_ram.label);
  ASSERT_EQ(a.label, faster_host.label);
  g.Rank(a, Chat(), Balanced(), 1);
  EXPECT_EQ(g.cached_queries(), 1u);
  g.Rank(more_ram, Chat(), Balanced(), 1);
  EXPECT_EQ(g.cached_queries(), 2u);
  g.Rank(faster_host, Chat(), Balanced(), 1);
  EXPECT_EQ(g.cached_queries(), 3u);
  // Equal setups built apart share their query, whichever entry point asks.
  g.Rank(With(64, 89.6), Chat(), Balanced(), 1);
  g.BestQuant(With(96, 89.6), *engine_->catalog().FindModel("llama 3.1 8b").found, Chat(),
              Balanced(), nullptr);
  EXPECT_EQ(g.cached_queries(), 3u);
  // Another workload or mode on the same setup is another question.
  g.Rank(a, *engine_->profiles().FindWorkload("coding").found, Balanced(), 1);
  EXPECT_EQ(g.cached_queries(), 4u);
  ASSERT_GE(engine_->profiles().modes().size(), 2u);
  const Mode& other = &engine_->profiles().modes()[0] == &Balanced()
                          ? engine_->profiles().modes()[1]
                          : engine_->profiles().modes()[0];
  g.Rank(a, Chat(), other, 1);
  EXPECT_EQ(g.cached_queries(), 5u);
}

TEST_F(GraderCache, DefaultCapBoundsTheEnginesGrader) {
  const Grader& g = engine_->grader();
  for (int ram = 1; ram <= static_cast<int>(Grader::kDefaultMaxQueries) + 20; ++ram) {
    g.BestQuant(With(ram), *engine_->catalog().FindModel("llama 3.1 8b").found, Chat(),
                Balanced(), nullptr);
  }
  EXPECT_EQ(g.cached_queries(), Grader::kDefaultMaxQueries);
}

TEST_F(GraderCache, QueriesDroppedWhileInUseStayValidAcrossThreads) {
  // Cap 1 and four threads each asking its own question: every call's query is dropped by
  // the others while it may still be ranking with it (shared ownership keeps it alive; under
  // ASan a use after free fails here).
  Grader g(engine_->evaluator(), engine_->policy(), /*max_queries=*/1);
  std::vector<fitrank::Setup> setups;
  for (int t = 0; t < 4; ++t) setups.push_back(With(16.0 * (t + 1)));
  std::vector<std::vector<std::string>> tops(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        std::vector<Pick> p = g.Rank(setups[t], Chat(), Balanced(), 1);
        tops[t].push_back(p.empty() ? "" : p[0].model->id);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(g.cached_queries(), 1u);
  for (const std::vector<std::string>& t : tops) {
    ASSERT_EQ(t.size(), 5u);
    EXPECT_FALSE(t[0].empty());
    for (const std::string& m : t) EXPECT_EQ(m, t[0]);  // the same answer every time
  }
}

// RankEach ranks several workloads in one pass over the models (sharing sizings between those
// of the same context): each workload's picks are exactly Rank's, in order, run commands and
// reasons included; a small cap (a cache that must drop queries meanwhile) changes nothing.
TEST_F(GraderCache, RankEachGivesEachWorkloadsRank) {
  std::vector<const Workload*> all;
  for (const Workload& w : engine_->profiles().workloads()) all.push_back(&w);
  ASSERT_GE(all.size(), 3u);
  for (size_t cap : {size_t{1}, Grader::kDefaultMaxQueries}) {
    Grader g(engine_->evaluator(), engine_->policy(), cap);
    const std::vector<std::vector<Pick>> each = g.RankEach(With(64), all, Balanced(), 5);
    ASSERT_EQ(each.size(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      const std::vector<Pick> alone = g.Rank(With(64), *all[i], Balanced(), 5);
      ASSERT_EQ(each[i].size(), alone.size()) << all[i]->id;
      ASSERT_FALSE(alone.empty()) << all[i]->id;
      for (size_t k = 0; k < alone.size(); ++k) {
        EXPECT_EQ(each[i][k].workload, all[i]);
        EXPECT_EQ(each[i][k].rank, alone[k].rank);
        EXPECT_EQ(each[i][k].model, alone[k].model) << all[i]->id << " #" << k;
        EXPECT_EQ(each[i][k].quant, alone[k].quant) << all[i]->id << " #" << k;
        EXPECT_EQ(each[i][k].score, alone[k].score) << all[i]->id << " #" << k;
        EXPECT_EQ(each[i][k].decode_tok_s, alone[k].decode_tok_s);
        EXPECT_EQ(each[i][k].reasons, alone[k].reasons);
        EXPECT_EQ(each[i][k].run_command, alone[k].run_command);
      }
    }
  }
  // Nothing asked, nothing ranked.
  Grader g(engine_->evaluator(), engine_->policy());
  EXPECT_TRUE(g.RankEach(With(64), {}, Balanced(), 5).empty());
}

// GradeModelEach evaluates the model once per workload (their queries copied from the first:
// Evaluator::PrepareLike): each workload's grades are exactly BestQuant's and Grade's (a fresh
// scratch each), quant by quant,
// the sentences of the best only where asked; on one GPU and in scale-out (several setups).
TEST_F(GraderCache, GradeModelEachGivesBestQuantAndGradeOfEachWorkload) {
  std::vector<const Workload*> all;
  for (const Workload& w : engine_->profiles().workloads()) all.push_back(&w);
  ASSERT_GE(all.size(), 3u);
  const Grader& g = engine_->grader();
  const Mode* scale_out = engine_->profiles().FindMode("scale-out").found;
  ASSERT_NE(scale_out, nullptr);
  int bests = 0, excluded = 0;
  for (const char* name : {"llama 3.1 8b", "llama 3.1 70b", "qwen3 235b"}) {
    const Model& model = *engine_->catalog().FindModel(name).found;
    for (const Mode* mode : {&Balanced(), scale_out}) {
      const std::vector<GradedModel> each = g.GradeModelEach(
          With(64), model, all, *mode, {Grader::Detail::kScore, Grader::Detail::kSentences});
      ASSERT_EQ(each.size(), all.size());
      // A cache of one: each workload's query is prepared afresh (the one of the same setup
      // and mode it could copy was dropped); the same answers.
      const std::vector<GradedModel> alone =
          Grader(engine_->evaluator(), engine_->policy(), 1)
              .GradeModelEach(With(64), model, all, *mode);
      ASSERT_EQ(alone.size(), all.size());
      for (size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(alone[i].best, each[i].best);
        ASSERT_EQ(alone[i].quants.size(), each[i].quants.size());
        for (size_t k = 0; k < alone[i].quants.size(); ++k) {
          EXPECT_EQ(alone[i].quants[k].score, each[i].quants[k].score);
        }
      }
      for (size_t i = 0; i < all.size(); ++i) {
        const Grader::Detail detail = i == 1 ? Grader::Detail::kSentences : Grader::Detail::kScore;
        Graded best;
        const Quant* quant = g.BestQuant(With(64), model, *all[i], *mode, &best, detail);
        EXPECT_EQ(each[i].best, quant) << name << " " << all[i]->id;
        EXPECT_EQ(each[i].best_graded.grade_index, best.grade_index);
        EXPECT_EQ(each[i].best_graded.score, best.score);
        EXPECT_EQ(each[i].best_graded.reasons, best.reasons);
        EXPECT_EQ(each[i].best_graded.advice, best.advice);
        EXPECT_EQ(each[i].best_graded.tags, best.tags);
        if (i == 1 && quant != nullptr) EXPECT_FALSE(best.reasons.empty());
        bests += quant != nullptr;
        const std::vector<Quant>& quants = engine_->catalog().quants();
        ASSERT_EQ(each[i].quants.size(), quants.size());
        for (size_t k = 0; k < quants.size(); ++k) {
          const Graded one =
              g.Grade(With(64), model, quants[k], *all[i], *mode, Grader::Detail::kScore);
          EXPECT_EQ(each[i].quants[k].grade_index, one.grade_index) << quants[k].id;
          EXPECT_EQ(each[i].quants[k].score, one.score) << name << " " << quants[k].id;
          EXPECT_EQ(each[i].quants[k].excluded, one.excluded);
          EXPECT_TRUE(each[i].quants[k].reasons.empty());
          excluded += one.excluded;
        }
      }
    }
  }
  EXPECT_GT(bests, 0);     // some workload has a best quant
  EXPECT_GT(excluded, 0);  // and some quant is excluded (not every grade the same kind)
  EXPECT_TRUE(g.GradeModelEach(With(64), *engine_->catalog().FindModel("llama 3.1 8b").found,
                               {}, Balanced())
                  .empty());
}

}  // namespace
}  // namespace fitrank
