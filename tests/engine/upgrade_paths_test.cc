// engine/report/upgrade.cc: upgrade paths that make sense (issue 10). Discrete cards are among
// the options from a 12 GB card, an option never "unlocks" a model below the workload's speed
// target or slower than the current setup runs it, options that unlock nothing are not listed,
// and parts without a price are named, never offered against a budget.
#include <algorithm>
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "engine/report/builders.h"
#include "engine/report/upgrade_planner.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

UpgradeReport Upgrade(absl::string_view gpu, double budget_usd, absl::string_view workload) {
  const auto& e = Shipped();
  UpgradeQuery q;
  q.workload = e.profiles->FindWorkload(workload).found;
  q.mode = &e.profiles->default_mode();
  q.budget_usd = budget_usd;
  absl::StatusOr<UpgradeReport> r = BuildUpgradeReport(e.engine->env(), e.SetupOf(gpu), q);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : UpgradeReport{};
}

TEST(UpgradePaths, FromA3060DiscreteCardsAreAmongTheOptions) {
  UpgradeReport r = Upgrade("RTX 3060 12GB", 2000, "coding");
  ASSERT_FALSE(r.options.empty());
  int discrete = 0;
  for (const UpgradeOption& o : r.options) {
    EXPECT_LE(o.price_usd, 2000) << o.action;
    EXPECT_GT(o.unlock_count, 0) << o.action << " unlocks nothing";
    for (const char* card : {"RTX 3090", "RTX 4060 Ti 16GB", "RTX 4090", "RTX 5060 Ti 16GB"}) {
      discrete += absl::StrContains(o.action, card);
    }
  }
  EXPECT_GE(discrete, 2);
  // Ranked by the best model unlocked, best first.
  for (size_t i = 1; i < r.options.size(); ++i) {
    EXPECT_GE(r.options[i - 1].best_unlocked_quality, r.options[i].best_unlocked_quality);
  }
}

TEST(UpgradePaths, UnlocksRunAtTheTargetAndFasterThanNow) {
  const auto& e = Shipped();
  for (const char* gpu : {"RTX 4090", "RTX 3060 12GB"}) {
    UpgradeReport r = Upgrade(gpu, 3000, "coding");
    const Workload& w = *e.profiles->FindWorkload("coding").found;
    const WorkloadShape shape = ShapeFor(w, e.profiles->default_mode());
    std::vector<ModelState> now = Survey(e.engine->env(), e.SetupOf(gpu), shape);
    std::map<std::string, double> now_tok_s;
    for (size_t i = 0; i < now.size(); ++i) {
      now_tok_s[e.catalog->models()[i].id] = now[i].decode_tok_s;
    }
    for (const UpgradeOption& o : r.options) {
      for (const UnlockedModel& u : o.unlocks) {
        EXPECT_GE(u.decode_tok_s, shape.decode_target_tok_s) << gpu << ": " << o.action << " / "
                                                            << u.model_id;
        EXPECT_GT(u.decode_tok_s, now_tok_s[u.model_id])
            << gpu << ": " << o.action << " is slower than now on " << u.model_id;
      }
    }
  }
}

TEST(UpgradePaths, FromA4090NoIntegratedGpuIsOffered) {
  UpgradeReport r = Upgrade("RTX 4090", 3000, "coding");
  for (const UpgradeOption& o : r.options) {
    EXPECT_FALSE(absl::StrContains(o.action, "8700G")) << o.action;
  }
}

TEST(UpgradePaths, CandidatesArePrunedByDominanceNotByMemoryAlone) {
  const auto& e = Shipped();
  std::vector<const Gpu*> unpriced;
  std::vector<const Gpu*> c = CandidateGpus(e.engine->env(), e.SetupOf("RTX 3060 12GB"), &unpriced);
  auto has = [&](absl::string_view name) {
    return std::any_of(c.begin(), c.end(), [&](const Gpu* g) { return g->name == name; });
  };
  // Cheaper parts with more memory (Arc, iGPUs with big RAM) do not hide the faster cards.
  EXPECT_TRUE(has("GeForce RTX 4090"));
  EXPECT_TRUE(has("GeForce RTX 3090"));
  EXPECT_FALSE(unpriced.empty());
}

TEST(UpgradePaths, UnpricedPartsAreNamedNotOffered) {
  UpgradeReport r = Upgrade("RTX 3060 12GB", 2000, "coding");
  bool named = false;
  for (const std::string& n : r.notes) {
    named |= absl::StrContains(n, "price unknown") && absl::StrContains(n, "not offered");
  }
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace fitrank

namespace fitrank {
namespace {

// The itinerary plans each step from the setup the step before was priced on, host included:
// replacing a 4090 by an MI325X keeps the 4090's desktop host (its RAM and 89.6 GB/s), so step
// 2 is planned on that host, not on the server host of the MI325X's class (461 GB/s), and is
// exactly the best option the planner finds from that setup.
TEST(UpgradePaths, ItineraryStepsKeepTheHostTheyWerePricedOn) {
  const auto& e = testing::Shipped();
  const fitrank::Setup user = e.SetupOf("RTX 4090");
  UpgradeQuery q;
  q.workload = e.profiles->FindWorkload("chat").found;
  q.mode = &e.profiles->default_mode();
  absl::StatusOr<UpgradeReport> r = BuildUpgradeReport(e.engine->env(), user, q);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_GE(r->itinerary.size(), 2u);
  for (const ItineraryStep& st : r->itinerary) {
    if (st.option.kind == "unified") break;  // a unified machine brings its own memory
    EXPECT_EQ(st.option.host_ram_gb, user.host_ram_gb) << st.step << ": " << st.option.action;
    EXPECT_EQ(st.option.host_bandwidth_gbps, user.host_bandwidth_gbps)
        << st.step << ": " << st.option.action;
  }
  // Step 2, planned again by hand from step 1's devices on the user's host.
  const UpgradeOption& first = r->itinerary[0].option;
  ASSERT_NE(first.kind, "unified");
  SetupOptions host;
  host.interconnects = &e.catalog->interconnects();
  host.host_ram_gb = user.host_ram_gb;
  host.host_bandwidth_gbps = user.host_bandwidth_gbps;
  absl::StatusOr<fitrank::Setup> after = BuildSetup(*e.estimator, first.devices, host);
  ASSERT_TRUE(after.ok()) << after.status();
  const WorkloadShape shape = ShapeFor(*q.workload, *q.mode);
  ModelSurvey survey(e.engine->env(), shape);
  const std::vector<ModelState>& now = survey.Of(*after, SurveyDepth::kFull);
  std::vector<UpgradeOption> next =
      UpgradeOptions(e.engine->env(), *after, now, shape, &survey, /*first_step=*/false, 0);
  ASSERT_FALSE(next.empty());
  const UpgradeOption& second = r->itinerary[1].option;
  EXPECT_EQ(second.action, next[0].action);
  EXPECT_EQ(second.unlock_count, next[0].unlock_count);
  ASSERT_EQ(second.unlocks.size(), next[0].unlocks.size());
  for (size_t i = 0; i < second.unlocks.size(); ++i) {
    EXPECT_EQ(second.unlocks[i].model_id, next[0].unlocks[i].model_id);
    EXPECT_EQ(second.unlocks[i].decode_tok_s, next[0].unlocks[i].decode_tok_s);
  }
}

}  // namespace
}  // namespace fitrank
