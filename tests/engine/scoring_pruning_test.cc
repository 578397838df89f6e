// Rank() skips finishing and scoring candidates whose best possible score (from their early
// facts, CompiledRules::Bound) is below the best already found for the model, and, when only
// the top K models are wanted (RankGroups' `top`), below the K-th best model found so far.
// Whatever the rules, the ranking must be the one scoring every candidate gives: these tests
// rank with rule sets built to reward the candidates a skip would wrongly drop (the smallest
// quantization, one quant by name, slow decode) or to gate some (by a context, an early and a
// late fact), or to make balanced's bound wrong for interactive (an early rule reading the
// mode, or a mode-scaled target: interactive must not take it, Evaluator::SameBound), on one
// setup and scaled out, and compare with a brute-force ranking through Evaluate().
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file_source.h"
#include "engine/engine.h"
#include "engine/scoring/evaluate.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

constexpr const char* kHeader = "schema: fitrank.rules/v1\nset: quality\nrules:\n";

// Rules that reward what the shipped ones rank low.
constexpr const char* kSmallQuants =
    "  - id: mine.small-quants\n"
    "    desc: Prefer the fewest bits per weight.\n"
    "    when: quant.bpw < 4.5\n"
    "    score: 400\n"
    "    say: small\n";
constexpr const char* kOneQuantByName =
    "  - id: mine.q3\n"
    "    desc: Prefer Q3_K_M by name.\n"
    "    when: quant.id == \"Q3_K_M\"\n"
    "    score: 300\n"
    "    say: q3\n";
constexpr const char* kSlowDecode =  // a late fact, unbounded score, and a cap
    "  - id: mine.slow\n"
    "    desc: Prefer slow decode.\n"
    "    score: 500 - 4 * perf.decode_tok_s\n"
    "    say: slow\n"
    "  - id: mine.fast-capped\n"
    "    desc: Cap fast ones.\n"
    "    when: perf.user_tok_s > 80\n"
    "    cap: C\n"
    "    say: fast\n";

constexpr const char* kGates =  // gates on a context, an early and a late fact
    "  - id: mine.no-big\n"
    "    desc: Gate the large models on fewer than 4 GPUs.\n"
    "    when: model.params_b > 20 and setup.gpu_count < 4\n"
    "    gate: true\n"
    "    gate_reason: big\n"
    "  - id: mine.no-q4km\n"
    "    desc: Gate one quant by name.\n"
    "    when: quant.id == \"Q4_K_M\"\n"
    "    gate: true\n"
    "    gate_reason: q4km\n"
    "  - id: mine.no-slow\n"
    "    desc: Gate slow decode.\n"
    "    when: perf.decode_tok_s < 40\n"
    "    gate: true\n"
    "    gate_reason: slow\n";

// Early rules that read what differs between balanced and interactive, which share their
// estimates: their bounds differ, so neither may take the other's (Evaluator::SameBound).
constexpr const char* kModeInEarly =  // mode.id
    "  - id: mine.interactive-small\n"
    "    desc: Prefer small quants when interactive.\n"
    "    when: mode.id == \"interactive\" and quant.bpw < 5\n"
    "    score: 400\n"
    "    say: interactive\n";
constexpr const char* kScaledTargetInEarly =  // a mode-scaled workload fact
    "  - id: mine.high-target-big\n"
    "    desc: Prefer big quants where the decode target is high.\n"
    "    when: workload.decode_target_tok_s > 25 and quant.bpw > 6\n"
    "    score: 400\n"
    "    say: target\n";

std::shared_ptr<const Engine> Load(const std::string& local_rules) {
  Diagnostics diags;
  std::shared_ptr<MemorySource> local;
  if (!local_rules.empty()) {
    local = std::make_shared<MemorySource>();
    local->Set("mine.yaml", std::string(kHeader) + local_rules);
  }
  std::shared_ptr<const Engine> e =
      Engine::Load({.data = std::make_shared<EmbeddedSource>(), .local_rules = local}, &diags);
  EXPECT_NE(e, nullptr) << diags.Render();
  return e;
}

// What Rank() must give: every candidate of `q.rank_groups` estimated and scored, the best
// non-excluded one of each model kept.
std::vector<CandidateEval> BruteForce(const Evaluator& eval, const Query& q) {
  Evaluator::Scratch s(eval);
  std::vector<CandidateEval> ranked;
  for (const Model& model : eval.catalog().models()) {
    bool have = false;
    CandidateEval best;
    for (const std::vector<int>& group : q.rank_groups) {
      for (int i : group) {
        CandidateEval c = eval.Evaluate(q, model, i, &s);
        if (FitOrder(c) == 3) continue;
        if (!c.score.gated && (!have || RanksBefore(c, best))) best = c, have = true;
      }
    }
    if (have) ranked.push_back(best);
  }
  std::sort(ranked.begin(), ranked.end(), RanksBefore);
  return ranked;
}

std::string Row(const CandidateEval& c) {
  return c.model->id + " " + c.quant->id + " " + std::to_string(c.score.score) + " " +
         std::to_string(c.score.raw) + " " + std::to_string(c.score.grade);
}

// Ranks every case with `e` and, if `brute_force`, checks it against BruteForce; returns the
// picks, for comparisons across rule sets.
std::vector<std::string> Rank(const Engine& e, bool brute_force) {
  const Evaluator& eval = e.evaluator();
  std::vector<std::string> picks;
  for (const char* gpu : {"GeForce RTX 3060 12GB", "GeForce RTX 4090", "NVIDIA H100 SXM5 80GB", "Apple M2 Max 96GB"}) {
    Lookup<Gpu> g = e.catalog().FindGpu(gpu);
    EXPECT_NE(g.found, nullptr) << gpu;
    if (g.found == nullptr) continue;
    SetupOptions o;
    o.interconnects = &e.catalog().interconnects();
    absl::StatusOr<Setup> setup = BuildSetup(e.estimator(), {{g.found, 1}}, o);
    EXPECT_TRUE(setup.ok()) << setup.status();
    if (!setup.ok()) continue;
    for (const char* workload : {"chat", "coding", "rag"}) {
      // balanced and interactive share their estimates: RankShared ranks them together.
      // scale-out estimates each candidate on 2, 4 or 8 GPUs.
      std::vector<std::unique_ptr<Query>> queries;
      for (const char* mode : {"balanced", "interactive", "light-api", "scale-out"}) {
        auto q = eval.Prepare(*setup, *e.profiles().FindWorkload(workload).found,
                              *e.profiles().FindMode(mode).found);
        EXPECT_TRUE(q.ok()) << q.status();
        if (!q.ok()) return picks;
        queries.push_back(*std::move(q));
      }
      Evaluator::Scratch s0(eval), s1(eval), s2(eval), s3(eval);
      std::vector<Ranking> shared;
      eval.RankShared({queries[0].get(), queries[1].get()}, {&s0, &s1}, &shared);
      std::vector<Ranking> got = {shared[0], shared[1], eval.Rank(*queries[2], &s2),
                                  eval.Rank(*queries[3], &s3)};
      for (size_t m = 0; m < queries.size(); ++m) {
        const std::string where = std::string(gpu) + " / " + workload + " / " +
                                  queries[m]->mode->id;
        for (const CandidateEval& c : got[m].ranked) picks.push_back(where + ": " + Row(c));
        if (!brute_force) continue;
        std::vector<CandidateEval> want = BruteForce(eval, *queries[m]);
        EXPECT_EQ(got[m].ranked.size(), want.size()) << where;
        if (got[m].ranked.size() != want.size()) continue;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(Row(got[m].ranked[i]), Row(want[i])) << where << " rank " << i + 1;
        }
        // Only the top K (0: all, without `excluded`, as a sweep asks): the first K of the
        // full ranking, nothing excluded, the same models counted, on one thread and on two
        // (each thread's K-th best is its own).
        for (int top : {0, 1, 5}) {
          for (int threads : {1, 2}) {
            Evaluator::Scratch st(eval);
            std::vector<std::vector<Ranking>> out;
            eval.RankGroups({{queries[m].get()}}, {{&st}}, &out, threads, top,
                            /*excluded=*/false);
            const Ranking& r = out[0][0];
            const std::string at = absl::StrCat(where, " top ", top, " threads ", threads);
            const size_t k = top > 0 ? static_cast<size_t>(top) : want.size();
            EXPECT_EQ(r.ranked.size(), std::min(want.size(), k)) << at;
            for (size_t i = 0; i < r.ranked.size() && i < want.size(); ++i) {
              EXPECT_EQ(Row(r.ranked[i]), Row(want[i])) << at << " rank " << i + 1;
            }
            EXPECT_TRUE(r.excluded.empty()) << at;
            EXPECT_EQ(r.models, got[m].models) << at;
            // Models gated by their context facts in every query are not estimated.
            EXPECT_LE(r.candidates, got[m].candidates) << at;
          }
        }
      }
    }
  }
  return picks;
}

TEST(Pruning, ShippedRulesRankAsIfEveryCandidateWereScored) {
  std::shared_ptr<const Engine> e = Load("");
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(Rank(*e, /*brute_force=*/true).empty());
}

// One rule set a case, so that each stays well under a minute under the sanitizers.
class PruningUnderRules : public ::testing::TestWithParam<const char*> {};

TEST_P(PruningUnderRules, RulesRewardingDominatedCandidatesRankAsIfEveryCandidateWereScored) {
  std::shared_ptr<const Engine> shipped = Load("");
  ASSERT_NE(shipped, nullptr);
  std::shared_ptr<const Engine> e = Load(GetParam());
  ASSERT_NE(e, nullptr);
  // The rules move the picks (so a wrong skip would show), and pruning keeps them right.
  EXPECT_NE(Rank(*e, /*brute_force=*/true), Rank(*shipped, /*brute_force=*/false));
}

std::string RuleSetName(const ::testing::TestParamInfo<const char*>& info) {
  return info.param == kSmallQuants           ? "SmallQuants"
         : info.param == kOneQuantByName      ? "OneQuantByName"
         : info.param == kGates               ? "Gates"
         : info.param == kModeInEarly         ? "ModeInEarly"
         : info.param == kScaledTargetInEarly ? "ScaledTargetInEarly"
                                              : "SlowDecode";
}
INSTANTIATE_TEST_SUITE_P(Pruning, PruningUnderRules,
                         ::testing::Values(kSmallQuants, kOneQuantByName, kSlowDecode, kGates,
                                           kModeInEarly, kScaledTargetInEarly),
                         RuleSetName);

// Interactive takes balanced's bound with the shipped rules (the same rules bound them and
// read nothing that differs), and not where an early rule reads the mode or a mode-scaled
// target; light-api never (other rules apply), nor background (another context).
TEST(Pruning, InteractiveTakesBalancedsBoundOnlyWhenNothingItsRulesReadDiffers) {
  for (const auto& [rules, want] : {std::pair{"", true}, {kModeInEarly, false},
                                    {kScaledTargetInEarly, false}, {kSmallQuants, true}}) {
    std::shared_ptr<const Engine> e = Load(rules);
    ASSERT_NE(e, nullptr);
    const Evaluator& eval = e->evaluator();
    Lookup<Gpu> g = e->catalog().FindGpu("GeForce RTX 4090");
    ASSERT_NE(g.found, nullptr);
    SetupOptions o;
    o.interconnects = &e->catalog().interconnects();
    absl::StatusOr<fitrank::Setup> setup = BuildSetup(e->estimator(), {{g.found, 1}}, o);
    ASSERT_TRUE(setup.ok()) << setup.status();
    const Workload& chat = *e->profiles().FindWorkload("chat").found;
    auto prepare = [&](const char* mode) {
      auto q = eval.Prepare(*setup, chat, *e->profiles().FindMode(mode).found);
      EXPECT_TRUE(q.ok()) << q.status();
      return *std::move(q);
    };
    std::unique_ptr<Query> balanced = prepare("balanced"), interactive = prepare("interactive"),
                           api = prepare("light-api"), background = prepare("background");
    Evaluator::Scratch sa(eval), sb(eval);
    const Model& model = e->catalog().models()[0];
    EXPECT_EQ(eval.SameBound(*balanced, *interactive, model, &sa, &sb), want) << rules;
    EXPECT_FALSE(eval.SameBound(*balanced, *api, model, &sa, &sb)) << rules;
    // Background doubles the context: the early facts read it (fit.context_ratio).
    EXPECT_FALSE(eval.SameBound(*balanced, *background, model, &sa, &sb)) << rules;
  }
}

}  // namespace
}  // namespace fitrank
