// The shipped data loaded once for a benchmark binary, the same way the CLI loads it.
#ifndef FITRANK_BENCH_SHIPPED_ENGINE_H_
#define FITRANK_BENCH_SHIPPED_ENGINE_H_

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "base/file_source.h"
#include "engine/engine.h"

namespace fitrank {

// Aborts with the diagnostics if the shipped data does not load.
inline const Engine& ShippedEngine() {
  static const std::shared_ptr<const Engine> engine = [] {
    Diagnostics d;
    std::shared_ptr<const Engine> e = Engine::Load({.data = std::make_shared<EmbeddedSource>()}, &d);
    if (e == nullptr) {
      std::fprintf(stderr, "%s", d.Render().c_str());
      std::abort();
    }
    return e;
  }();
  return *engine;
}

}  // namespace fitrank

#endif  // FITRANK_BENCH_SHIPPED_ENGINE_H_
