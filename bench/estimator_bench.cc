// One estimate must cost well under a microsecond: the ranker sweeps millions of candidates.
// Arg 0: one RTX 4090; arg 1: a mixed rig (4090 + 2x 3090). Compare medians of
// --benchmark_repetitions=5 (CPU time: the machine is shared).
#include <benchmark/benchmark.h>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"

namespace fitrank {
namespace {

struct World {
  std::unique_ptr<Catalog> catalog;
  std::unique_ptr<Estimator> est;
  Setup single, mixed;
  World() {
    Diagnostics d;
    EmbeddedSource src;
    catalog = Catalog::Load(src, &d);
    est = Estimator::Load(src, &d);
    if (!catalog || !est) std::abort();
    const Gpu* g4090 = catalog->FindGpu("rtx 4090").found;
    const Gpu* g3090 = catalog->FindGpu("rtx 3090").found;
    single = *BuildSetup(*est, {{g4090, 1}});
    mixed = *BuildSetup(*est, {{g4090, 1}, {g3090, 2}});
  }
};

World& W() {
  static World* w = new World();
  return *w;
}

// Llama 3.1 8B at Q4_K_M with llama.cpp, 8K context, on the 4090 (arg 0) or the mixed rig (1).
EstimateInput ReferenceInput(const benchmark::State& state) {
  World& w = W();
  EstimateInput in;
  in.setup = state.range(0) == 0 ? &w.single : &w.mixed;
  in.model = w.catalog->FindModel("llama 3.1 8b").found;
  in.quant = w.catalog->QuantById("Q4_K_M");
  in.runtime = w.catalog->RuntimeById("llama.cpp");
  in.context = 8192;
  return in;
}

void BM_EstimateOne(benchmark::State& state) {
  World& w = W();
  EstimateInput in = ReferenceInput(state);
  Estimate e;
  for (auto _ : state) {
    w.est->Run(in, &e);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_EstimateOne)->Arg(0)->Arg(1);

// The same with the input's names resolved once (Estimator::ResolveNames), as the ranker does:
// no string work left in the estimate.
void BM_EstimateOneNamesResolved(benchmark::State& state) {
  World& w = W();
  EstimateInput in = ReferenceInput(state);
  const ResolvedNames names = w.est->ResolveNames(in);
  in.names = &names;
  Estimate e;
  for (auto _ : state) {
    w.est->Run(in, &e);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_EstimateOneNamesResolved)->Arg(0)->Arg(1);

// What a workload of a context already sized costs: Finish (decode, prefill, serving, range).
void BM_FinishSized(benchmark::State& state) {
  World& w = W();
  EstimateInput in = ReferenceInput(state);
  Sizing sizing;
  w.est->Size(in, &sizing);
  in.prompt_tokens = 1000;
  in.gen_tokens = 400;
  Estimate e;
  for (auto _ : state) {
    w.est->Finish(in, sizing, &e);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_FinishSized)->Arg(0)->Arg(1);

// A sweep over every catalog model at one quant on one GPU, per estimate.
void BM_EstimateCatalogSweep(benchmark::State& state) {
  World& w = W();
  const Quant* q = w.catalog->QuantById("Q4_K_M");
  const Runtime* r = w.catalog->RuntimeById("llama.cpp");
  EstimateInput in;
  in.setup = &w.single;
  in.quant = q;
  in.runtime = r;
  Estimate e;
  const auto& models = w.catalog->models();
  size_t i = 0;
  for (auto _ : state) {
    in.model = &models[i++ % models.size()];
    w.est->Run(in, &e);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_EstimateCatalogSweep);

}  // namespace
}  // namespace fitrank
