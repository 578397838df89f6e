// Grader's prepared-query cache: bounded (least recently used dropped), and the answers are
// the same whether a query came from the cache or was prepared again.
#include "engine/report/grader.h"

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
  fitrank::Setup With(double ram_gib) const {
    const Gpu* gpu = engine_->catalog().FindGpu("RTX 4090").found;
    SetupOptions o;
    o.host_ram_gb = ram_gib;
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

}  // namespace
}  // namespace fitrank
