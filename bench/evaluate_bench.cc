// Candidate evaluations per second with the shipped data and rules.
//
//   BM_ScoreCandidate   facts + compiled rules + weights + grade for one already-estimated
//                       candidate (what "evaluations per second" means for the rule engine)
//   BM_EvaluateCandidate  the same plus the estimate
//   BM_Rank             a whole `recommend`-style ranking (one GPU, one workload, every model
//                       x pick quantization), per query
//   BM_SweepOneGpu      what `fitrank sweep --gpu "RTX 4090" --threads 1` ranks: every workload
//                       x mode on one GPU, one thread; per candidate estimated (`per_candidate`,
//                       seconds) and candidates/s on one core (items_per_second)
//   BM_StartUp          loading profiles, declaring facts and compiling the shipped rules
//
// Build with -DFITRANK_BENCHMARKS=ON; run build/bench/evaluate_bench.
#include <memory>

#include "bench/shipped_engine.h"
#include "benchmark/benchmark.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/evaluate.h"
#include "engine/scoring/sweep.h"
#include "profiles/profiles.h"

namespace fitrank {
namespace {

struct World {
  const Catalog* catalog = nullptr;
  const Estimator* estimator = nullptr;
  const Profiles* profiles = nullptr;
  const Evaluator* evaluator = nullptr;
  Setup setup;
  std::unique_ptr<Query> query;
  std::vector<CandidateEval> candidates;  // every model x pick quant that runs on the setup
};

World& TheWorld(absl::string_view gpu = "RTX 4090", absl::string_view workload = "coding") {
  static World* w = [&] {
    auto* w = new World;
    const Engine& engine = ShippedEngine();
    w->catalog = &engine.catalog();
    w->estimator = &engine.estimator();
    w->profiles = &engine.profiles();
    w->evaluator = &engine.evaluator();
    SetupOptions o;
    o.interconnects = &w->catalog->interconnects();
    w->setup = *BuildSetup(*w->estimator, {{w->catalog->FindGpu(gpu).found, 1}}, o);
    w->query = *w->evaluator->Prepare(w->setup, *w->profiles->FindWorkload(workload).found,
                                      w->profiles->default_mode());
    Evaluator::Scratch s(*w->evaluator);
    for (const Model& m : w->catalog->models()) {
      for (const std::vector<int>& group : w->query->rank_groups) {
        for (int q : group) {
          CandidateEval c = w->evaluator->Evaluate(*w->query, m, q, &s);
          if (FitOrder(c) < 3) w->candidates.push_back(c);
        }
      }
    }
    return w;
  }();
  return *w;
}

void BM_ScoreCandidate(benchmark::State& state) {
  World& w = TheWorld();
  Evaluator::Scratch s(*w.evaluator);
  size_t i = 0;
  for (auto _ : state) {
    CandidateEval& c = w.candidates[i];
    w.evaluator->ScoreCandidate(*w.query, &c, &s);
    benchmark::DoNotOptimize(c.score.score);
    if (++i == w.candidates.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["candidates"] = static_cast<double>(w.candidates.size());
}
BENCHMARK(BM_ScoreCandidate);

void BM_EvaluateCandidate(benchmark::State& state) {
  World& w = TheWorld();
  Evaluator::Scratch s(*w.evaluator);
  size_t i = 0;
  for (auto _ : state) {
    const CandidateEval& c = w.candidates[i];
    CandidateEval e = w.evaluator->Evaluate(*w.query, *c.model, c.quant_index, &s);
    benchmark::DoNotOptimize(e.score.score);
    if (++i == w.candidates.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EvaluateCandidate);

void BM_Rank(benchmark::State& state) {
  World& w = TheWorld();
  Evaluator::Scratch s(*w.evaluator);
  long long candidates = 0;
  for (auto _ : state) {
    Ranking r = w.evaluator->Rank(*w.query, &s);
    candidates += r.candidates;
    benchmark::DoNotOptimize(r.ranked.data());
  }
  state.SetItemsProcessed(candidates);
  state.SetLabel("RTX 4090, coding, balanced");
}
BENCHMARK(BM_Rank)->Unit(benchmark::kMillisecond);

void BM_SweepOneGpu(benchmark::State& state) {
  World& w = TheWorld();
  SweepPlan plan;
  plan.gpus = {w.setup.devices[0].gpu};
  plan.threads = 1;
  long long candidates = 0;
  size_t rows = 0;
  for (auto _ : state) {
    candidates += RunSweep(*w.evaluator, plan, [&](const SweepCell& cell) {
      rows += cell.ranking.ranked.size();
    });
  }
  state.SetItemsProcessed(candidates);
  state.counters["per_candidate"] = benchmark::Counter(
      static_cast<double>(candidates), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["rows"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
  state.SetLabel("RTX 4090, every workload x mode, 1 thread");
}
// The ranking runs on a worker thread: count the CPU time of the whole process.
BENCHMARK(BM_SweepOneGpu)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

void BM_StartUp(benchmark::State& state) {
  EmbeddedSource src;
  for (auto _ : state) {
    Diagnostics d;
    auto profiles = Profiles::Load(src, &d);
    auto rules = LoadScoringRules(src, nullptr, *profiles, false, &d);
    benchmark::DoNotOptimize(rules.ok());
  }
}
BENCHMARK(BM_StartUp)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fitrank
