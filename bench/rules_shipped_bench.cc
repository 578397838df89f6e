// Candidate evaluations per second with the *shipped* rules (rules/*.yaml) over real candidate
// facts: the engine fills the facts of every catalog model x quantization on an RTX 4090 for
// every workload and mode (Evaluator::Evaluate), the records are snapshotted, and only
// CompiledRules::Evaluate is timed, cycling through them.
//
//   build/bench/rules_shipped_bench        # items_per_second: aim > 2M per core
#include <cstdio>
#include <memory>
#include <vector>

#include "bench/shipped_engine.h"
#include "base/file_source.h"
#include "benchmark/benchmark.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/evaluate.h"
#include "engine/estimator/setup.h"
#include "profiles/profiles.h"

namespace fitrank {
namespace {

struct Record {
  rules::FactValues values;
  int workload;
  int mode;
};

struct World {
  const Catalog* catalog = nullptr;
  const Estimator* est = nullptr;
  const Profiles* profiles = nullptr;
  const Evaluator* eval = nullptr;
  std::vector<Record> records;

  World() {
    const Engine& engine = ShippedEngine();
    catalog = &engine.catalog();
    est = &engine.estimator();
    profiles = &engine.profiles();
    eval = &engine.evaluator();
    const Gpu* gpu = catalog->FindGpu("rtx 4090").found;
    absl::StatusOr<Setup> setup = BuildSetup(*est, {{gpu, 1}});
    if (!setup.ok()) std::abort();
    Evaluator::Scratch scratch(*eval);
    for (const Workload& w : profiles->workloads()) {
      for (const Mode& m : profiles->modes()) {
        absl::StatusOr<std::unique_ptr<Query>> q = eval->Prepare(*setup, w, m);
        if (!q.ok()) continue;
        // Up to 200 candidates per (workload, mode), spread over the catalog.
        size_t taken = 0;
        const size_t models = catalog->models().size(), quants = catalog->quants().size();
        for (size_t k = 0; k < models * quants && taken < 200; k += 7, ++taken) {
          eval->Evaluate(**q, catalog->models()[k % models], static_cast<int>(k / models),
                         &scratch);
          records.push_back({scratch.values, (*q)->workload_index, (*q)->mode_index});
        }
      }
    }
  }
};

World& W() {
  static World* w = new World();
  return *w;
}

// One evaluation per iteration, `run(book, record, &result)`, cycling over the records; the
// counters say how many rules it evaluates (`rules`) over how many records.
template <class Run>
void OverRecords(benchmark::State& state, Run run, int rules) {
  World& w = W();
  const rules::CompiledRules& book = w.eval->rules();
  rules::EvalResult result;
  size_t i = 0;
  double sink = 0;
  const size_t n = w.records.size();
  for (auto _ : state) {
    run(book, w.records[i], &result);
    sink += result.set_total[0];
    if (++i == n) i = 0;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());
  state.counters["rules"] = rules;
  state.counters["records"] = static_cast<double>(n);
}

void BM_EvaluateShippedRules(benchmark::State& state) {
  OverRecords(
      state,
      [](const rules::CompiledRules& book, const Record& r, rules::EvalResult* result) {
        book.Evaluate(r.values, r.workload, r.mode, result);
      },
      W().eval->rules().rule_count());
}
BENCHMARK(BM_EvaluateShippedRules);

// What ranking runs per candidate: CompiledRules::Score, only the rules that can change a score
// (the same totals, cap and gate as Evaluate).
void BM_ScoreShippedRules(benchmark::State& state) {
  const rules::CompiledRules& book = W().eval->rules();
  int scored = 0;
  for (int k = 0; k < book.rule_count(); ++k) scored += book.HasEffect(k);
  OverRecords(
      state,
      [](const rules::CompiledRules& b, const Record& r, rules::EvalResult* result) {
        b.Score(r.values, r.workload, r.mode, result);
      },
      scored);
}
BENCHMARK(BM_ScoreShippedRules);

}  // namespace
}  // namespace fitrank
