// How long the catalog takes to load and to look names up. Every fitrank command loads the
// whole embedded catalog, so Load() must stay a small part of a command's few milliseconds:
// the shipped catalog comes from the image baked at build time (catalog/image.h); a --data
// catalog is read from its YAML (BM_LoadCatalogFromYaml).
//
//   cmake -S . -B build -DFITRANK_BENCHMARKS=ON && cmake --build build --target catalog_load_bench
//   build/bench/catalog_load_bench
#include <memory>
#include <string>
#include <vector>

#include "base/file_source.h"
#include "benchmark/benchmark.h"
#include "catalog/catalog.h"
#include "base/yaml_tree.h"

namespace fitrank {
namespace {

void BM_LoadEmbeddedCatalog(benchmark::State& state) {
  EmbeddedSource source;
  for (auto _ : state) {
    Diagnostics diags;
    std::unique_ptr<Catalog> c = Catalog::Load(source, &diags);
    if (c == nullptr) state.SkipWithError("the embedded catalog does not load");
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_LoadEmbeddedCatalog)->Unit(benchmark::kMillisecond);

void BM_LoadCatalogFromYaml(benchmark::State& state) {
  EmbeddedTextSource source;
  for (auto _ : state) {
    Diagnostics diags;
    std::unique_ptr<Catalog> c = Catalog::Load(source, &diags);
    if (c == nullptr) state.SkipWithError("the embedded catalog does not load");
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_LoadCatalogFromYaml)->Unit(benchmark::kMillisecond);

// The YAML scan alone, for the largest file.
void BM_ParseModelsYaml(benchmark::State& state) {
  EmbeddedSource source;
  auto text = source.Read("catalog/models.yaml");
  if (!text.ok()) {
    state.SkipWithError("no catalog/models.yaml");
    return;
  }
  for (auto _ : state) {
    Diagnostics diags;
    auto tree = YamlTree::Parse(*text, "catalog/models.yaml", &diags);
    benchmark::DoNotOptimize(tree);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text->size()));
}
BENCHMARK(BM_ParseModelsYaml)->Unit(benchmark::kMillisecond);

std::unique_ptr<Catalog> Loaded() {
  Diagnostics diags;
  return Catalog::Load(EmbeddedSource(), &diags);
}

void BM_FindGpuExact(benchmark::State& state) {
  auto c = Loaded();
  for (auto _ : state) benchmark::DoNotOptimize(c->FindGpu("GeForce RTX 4090"));
}
BENCHMARK(BM_FindGpuExact);

void BM_FindGpuWords(benchmark::State& state) {
  auto c = Loaded();
  for (auto _ : state) benchmark::DoNotOptimize(c->FindGpu("m3 max 128gb"));
}
BENCHMARK(BM_FindGpuWords);

void BM_FindModelWords(benchmark::State& state) {
  auto c = Loaded();
  for (auto _ : state) benchmark::DoNotOptimize(c->FindModel("qwen3 coder 30b"));
}
BENCHMARK(BM_FindModelWords);

void BM_FindModelUnknown(benchmark::State& state) {
  auto c = Loaded();
  for (auto _ : state) benchmark::DoNotOptimize(c->FindModel("lama 3.1 8b instrukt"));
}
BENCHMARK(BM_FindModelUnknown)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace fitrank
