// Evaluator::RankGroups on several threads (evaluate.h, "Threads"): the models are shared
// between the calling thread and helpers, and the merged rankings must be the one-thread
// rankings candidate for candidate, whatever model each thread happened to take.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/scoring/evaluate.h"
#include "gtest/gtest.h"
#include "tests/engine/same_results.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::ExpectSameRanking;
using testing::Shipped;

// Small, mid and large cards (the small ones exclude many models: the excluded lists must
// merge in model order), a multi-GPU setup, and modes including scale-out (several setups
// per query) and light-api (a batch).
TEST(RankThreads, TwoThreadsRankLikeOne) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  std::vector<fitrank::Setup> setups = {e.SetupOf("GTX 1650"), e.SetupOf("RTX 4060"),
                               e.SetupOf("RTX 4090"), e.SetupOf("RTX 3090", 2)};
  int compared = 0, with_excluded = 0;
  for (const fitrank::Setup& setup : setups) {
    for (const char* w : {"coding", "chat", "rag"}) {
      for (const char* m : {"balanced", "light-api", "scale-out"}) {
        std::unique_ptr<Query> q = e.QueryOf(setup, w, m);
        Evaluator::Scratch s1(*e.evaluator), s2(*e.evaluator);
        const Ranking one = e.evaluator->Rank(*q, &s1);
        const Ranking two = e.evaluator->Rank(*q, &s2, /*threads=*/2);
        ASSERT_GT(one.models, 0);
        ExpectSameRanking(two, one, setup.label + " / " + w + " / " + m);
        ++compared;
        with_excluded += !one.excluded.empty();
      }
    }
  }
  EXPECT_EQ(compared, 36);
  EXPECT_GT(with_excluded, 0) << "no setup excluded a model: the merge of `excluded` is untested";
}

// Several groups of several queries (RankGroups as recommend and the GPU page call it), on
// 2 and 3 threads; threads < 1 counts as 1.
TEST(RankThreads, GroupsOnAnyThreadCountRankLikeOne) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const fitrank::Setup setup = e.SetupOf("RTX 4060");
  std::vector<std::unique_ptr<Query>> owned;
  std::vector<std::vector<const Query*>> groups;
  for (const char* w : {"coding", "rag", "chat"}) {
    groups.emplace_back();
    for (const char* m : {"balanced", "interactive"}) {
      owned.push_back(e.QueryOf(setup, w, m));
      groups.back().push_back(owned.back().get());
    }
  }
  ASSERT_TRUE(Evaluator::SameEstimates(*groups[0][0], *groups[0][1]));
  auto rank = [&](int threads) {
    std::vector<std::unique_ptr<Evaluator::Scratch>> scratch_owned;
    std::vector<std::vector<Evaluator::Scratch*>> scratches;
    for (const auto& g : groups) {
      scratches.emplace_back();
      for (size_t j = 0; j < g.size(); ++j) {
        scratch_owned.push_back(std::make_unique<Evaluator::Scratch>(*e.evaluator));
        scratches.back().push_back(scratch_owned.back().get());
      }
    }
    std::vector<std::vector<Ranking>> out;
    e.evaluator->RankGroups(groups, scratches, &out, threads);
    return out;
  };
  const std::vector<std::vector<Ranking>> one = rank(1);
  ASSERT_EQ(one.size(), groups.size());
  for (int threads : {0, 2, 3}) {
    const std::vector<std::vector<Ranking>> many = rank(threads);
    ASSERT_EQ(many.size(), one.size());
    for (size_t g = 0; g < one.size(); ++g) {
      ASSERT_EQ(many[g].size(), one[g].size());
      for (size_t j = 0; j < one[g].size(); ++j) {
        ExpectSameRanking(many[g][j], one[g][j],
                          absl::StrCat(threads, " threads: ", groups[g][j]->workload->id, " / ",
                                       groups[g][j]->mode->id));
      }
    }
  }
}

}  // namespace
}  // namespace fitrank
