// The shipped data (catalog, estimator, profiles, rules) loaded once per test binary, and
// helpers to ask the scoring engine the questions the tests ask.
#ifndef FITRANK_TESTS_ENGINE_SCORING_TEST_UTIL_H_
#define FITRANK_TESTS_ENGINE_SCORING_TEST_UTIL_H_

#include <memory>
#include <string>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/evaluate.h"
#include "gtest/gtest.h"
#include "profiles/profiles.h"

namespace fitrank::testing {

struct ShippedEngine {
  std::shared_ptr<const Engine> engine;
  // Parts of `engine`, null when it did not load.
  const Catalog* catalog = nullptr;
  const Estimator* estimator = nullptr;
  const Profiles* profiles = nullptr;
  const Evaluator* evaluator = nullptr;
  std::string diagnostics;  // rendered, when loading failed

  // A 1-GPU setup of `gpu` (catalog lookup) with the default host profile, or `count` of it.
  Setup SetupOf(absl::string_view gpu, int count = 1) const {
    Lookup<Gpu> g = catalog->FindGpu(gpu);
    EXPECT_TRUE(g.found != nullptr) << "no GPU " << gpu;
    SetupOptions o;
    o.interconnects = &catalog->interconnects();
    absl::StatusOr<Setup> s = BuildSetup(*estimator, {{g.found, count}}, o);
    EXPECT_TRUE(s.ok()) << s.status();
    return *s;
  }
  std::unique_ptr<Query> QueryOf(const Setup& setup, absl::string_view workload,
                                 absl::string_view mode = "balanced") const {
    auto q = evaluator->Prepare(setup, *profiles->FindWorkload(workload).found,
                                *profiles->FindMode(mode).found);
    EXPECT_TRUE(q.ok()) << q.status();
    return *std::move(q);
  }
  Ranking RankOf(absl::string_view gpu, absl::string_view workload,
                 absl::string_view mode = "balanced") const {
    auto q = QueryOf(SetupOf(gpu), workload, mode);
    Evaluator::Scratch s(*evaluator);
    return evaluator->Rank(*q, &s);
  }
};

// Loads once; fails the calling test if the shipped data does not load.
inline const ShippedEngine& Shipped() {
  static const ShippedEngine* engine = [] {
    auto* e = new ShippedEngine;
    Diagnostics diags;
    e->engine = Engine::Load({.data = std::make_shared<EmbeddedSource>()}, &diags);
    if (e->engine != nullptr) {
      e->catalog = &e->engine->catalog();
      e->estimator = &e->engine->estimator();
      e->profiles = &e->engine->profiles();
      e->evaluator = &e->engine->evaluator();
    }
    e->diagnostics = diags.Render();
    return e;
  }();
  EXPECT_NE(engine->evaluator, nullptr) << engine->diagnostics;
  return *engine;
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_ENGINE_SCORING_TEST_UTIL_H_
