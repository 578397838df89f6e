// Evaluator::PrepareLike (evaluate.h): a query for another workload of a prepared setup and
// mode, made by copying that query's setups and plans, must be the query Prepare makes: the
// same fields, the same plans, and the same rankings and evaluations candidate for candidate.
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

using testing::ExpectSameCandidate;
using testing::ExpectSameRanking;
using testing::Shipped;

// One GPU, two GPUs (parallelism set by the mode) and scale-out (several setups per query);
// the copy is prepared from another workload of another context.
TEST(PrepareLike, GivesThePreparedQueryOfTheWorkload) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  const Model& model = *e.catalog->FindModel("llama 3.1 70b").found;
  int compared = 0;
  for (const fitrank::Setup& setup : {e.SetupOf("RTX 4090"), e.SetupOf("RTX 3090", 2)}) {
    for (const char* m : {"balanced", "light-api", "scale-out"}) {
      const std::unique_ptr<Query> chat = e.QueryOf(setup, "chat", m);
      for (const char* w : {"coding", "agentic", "rag"}) {
        const std::string what = absl::StrCat(setup.label, " / ", w, " / ", m);
        SCOPED_TRACE(what);
        const std::unique_ptr<Query> want = e.QueryOf(setup, w, m);
        const std::unique_ptr<Query> got =
            e.evaluator->PrepareLike(*chat, *e.profiles->FindWorkload(w).found);
        ASSERT_NE(got, nullptr);
        EXPECT_NE(got->serial, want->serial);
        EXPECT_NE(got->serial, chat->serial);
        EXPECT_EQ(got->workload, want->workload);
        EXPECT_EQ(got->mode, want->mode);
        EXPECT_EQ(got->workload_index, want->workload_index);
        EXPECT_EQ(got->mode_index, want->mode_index);
        EXPECT_EQ(got->shape.context_tokens, want->shape.context_tokens);
        EXPECT_EQ(got->shape.concurrency, want->shape.concurrency);
        EXPECT_EQ(got->rank_groups, want->rank_groups);
        EXPECT_TRUE(Evaluator::SameEstimates(*got, *want));
        ASSERT_EQ(got->variants.size(), want->variants.size());
        for (size_t v = 0; v < got->variants.size(); ++v) {
          const SetupVariant& a = got->variants[v];
          EXPECT_NE(a.setup.get(), chat->variants[v].setup.get());  // its own copy
          EXPECT_EQ(a.facts->setup, a.setup.get());                // and facts about it
          EXPECT_EQ(a.setup->label, want->variants[v].setup->label);
          EXPECT_EQ(a.setup->device_count, want->variants[v].setup->device_count);
          EXPECT_EQ(a.facts->runtimes, want->variants[v].facts->runtimes);
        }
        Evaluator::Scratch s1(*e.evaluator), s2(*e.evaluator);
        ExpectSameRanking(e.evaluator->Rank(*got, &s1), e.evaluator->Rank(*want, &s2), what);
        const ModelEval a = e.evaluator->EvaluateModel(*got, model, &s1);
        const ModelEval b = e.evaluator->EvaluateModel(*want, model, &s2);
        ASSERT_EQ(a.quants.size(), b.quants.size());
        EXPECT_EQ(a.best, b.best);
        for (size_t i = 0; i < a.quants.size(); ++i) ExpectSameCandidate(a.quants[i], b.quants[i]);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 18);
}

}  // namespace
}  // namespace fitrank
