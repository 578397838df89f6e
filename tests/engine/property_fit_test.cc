// Physical monotonicity the rankings rely on: more memory and bandwidth never fit fewer
// models; more host RAM never turns a fit into a no-fit (estimates as the evaluator makes them).
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

// Models that run natively at Q4_K_M for the coding workload.
int NativeFits(const testing::ShippedEngine& e, const fitrank::Setup& setup) {
  auto q = e.QueryOf(setup, "coding");
  Evaluator::Scratch s(*e.evaluator);
  const Quant& q4 = *e.catalog->FindQuant("Q4_K_M").found;
  int qi = static_cast<int>(&q4 - e.catalog->quants().data());
  int n = 0;
  for (const Model& m : e.catalog->models()) {
    n += FitOrder(e.evaluator->Evaluate(*q, m, qi, &s)) <= 1;
  }
  return n;
}

TEST(PropertyFit, MoreMemoryAndBandwidthNeverFitFewerModels) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  // Discrete GPUs of one vendor and memory technology class: the same runtimes and reserve.
  std::vector<const Gpu*> gpus;
  for (const Gpu& g : e.catalog->gpus()) {
    if (!g.unified_memory && g.vendor == "NVIDIA" && g.segment != Segment::kEmbedded) gpus.push_back(&g);
  }
  std::map<const Gpu*, int> fits;
  for (const Gpu* g : gpus) {
    SetupOptions o;
    o.host_ram_gb = 64;  // the same host for every GPU
    o.host_bandwidth_gbps = 90;
    auto s = BuildSetup(*e.estimator, {{g, 1}}, o);
    ASSERT_TRUE(s.ok());
    fits[g] = NativeFits(e, *s);
  }
  int pairs = 0;
  for (const Gpu* a : gpus) {
    for (const Gpu* b : gpus) {
      // Memory the model may use: spec memory minus the reserve (a desktop card drives displays).
      double ua = e.estimator->UsableMemoryGb(*a), ub = e.estimator->UsableMemoryGb(*b);
      if (a == b || ub < ua || b->bandwidth_gbps < a->bandwidth_gbps) continue;
      ++pairs;
      EXPECT_GE(fits[b], fits[a]) << b->name << " (" << ub << " GB usable, " << b->bandwidth_gbps
                                  << " GB/s) natively fits fewer models than " << a->name << " ("
                                  << ua << " GB usable, " << a->bandwidth_gbps << " GB/s)";
    }
  }
  EXPECT_GT(pairs, 100);
}

TEST(PropertyFit, MoreHostRamNeverTurnsAFitIntoANoFit) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  int checked = 0;
  for (const Gpu& g : e.catalog->gpus()) {
    if (g.unified_memory) continue;  // host RAM is the unified pool there
    fitrank::Setup small = [&] {
      SetupOptions o;
      o.host_ram_gb = 16;
      return *BuildSetup(*e.estimator, {{&g, 1}}, o);
    }();
    fitrank::Setup big = [&] {
      SetupOptions o;
      o.host_ram_gb = 128;
      return *BuildSetup(*e.estimator, {{&g, 1}}, o);
    }();
    auto qs = e.QueryOf(small, "chat");
    auto qb = e.QueryOf(big, "chat");
    Evaluator::Scratch s(*e.evaluator);
    const Quant& q4 = *e.catalog->FindQuant("Q4_K_M").found;
    int qi = static_cast<int>(&q4 - e.catalog->quants().data());
    for (const Model& m : e.catalog->models()) {
      CandidateEval a = e.evaluator->Evaluate(*qs, m, qi, &s);
      if (a.estimate.fit.kind == FitKind::kNoFit) continue;
      CandidateEval b = e.evaluator->Evaluate(*qb, m, qi, &s);
      ++checked;
      EXPECT_NE(b.estimate.fit.kind, FitKind::kNoFit)
          << m.id << " on " << g.name << " fits with 16 GB of host RAM but not with 128 GB";
      EXPECT_LE(FitOrder(b), FitOrder(a)) << m.id << " on " << g.name;
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace fitrank
