// One estimate must cost well under a microsecond: the ranker sweeps millions of candidates.
#include <benchmark/benchmark.h>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "engine/estimator.h"

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

void BM_EstimateOne(benchmark::State& state) {
  World& w = W();
  const Model* m = w.catalog->FindModel("llama 3.1 8b").found;
  const Quant* q = w.catalog->QuantById("Q4_K_M");
  const Runtime* r = w.catalog->RuntimeById("llama.cpp");
  EstimateInput in;
  in.setup = state.range(0) == 0 ? &w.single : &w.mixed;
  in.model = m;
  in.quant = q;
  in.runtime = r;
  in.context = 8192;
  Estimate e;
  for (auto _ : state) {
    w.est->Run(in, &e);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_EstimateOne)->Arg(0)->Arg(1);

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
