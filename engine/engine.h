// One immutable snapshot of everything fitrank loads: the catalog, the estimator's constants,
// the workload profiles and modes, the compiled scoring rules, the report trait books and the
// report policy. Built once by Engine::Load; the CLI, the tests, the benchmarks and the
// server (which swaps snapshots on reload) all use it the same way:
//
//   Diagnostics diags;
//   std::shared_ptr<const Engine> engine =
//       Engine::Load({.data = std::make_shared<EmbeddedSource>()}, &diags);
//   if (engine == nullptr) { print diags.Render(); exit 2 }
//   BuildGpuReport(engine->env(), setup, engine->profiles().default_mode());
//
// An Engine is never half-loaded: any error in any file makes Load return null with every
// problem in `diags` (file:line:col), and nothing of it is used.
//
// Thread safety: every method is const; an Engine may be shared by any number of threads
// (by const& or shared_ptr<const Engine>). Report builders and the evaluator keep per-call
// scratch state; the grader's cache of prepared queries is guarded by its own mutex.
#ifndef FITRANK_ENGINE_ENGINE_H_
#define FITRANK_ENGINE_ENGINE_H_

#include <memory>

#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/report/env.h"
#include "engine/report/grader.h"
#include "engine/report/policy.h"
#include "engine/report/traits.h"
#include "engine/scoring/evaluate.h"
#include "profiles/profiles.h"

namespace fitrank {

// Where a snapshot's files come from.
struct EngineSources {
  // The data tree (catalog/, engine/, rules/, profiles/): the embedded files, or a --data
  // overlay of them. Required.
  std::shared_ptr<const FileSource> data;
  // Local rule files loaded after the shipped ones (--rules DIR, $FITRANK_RULES): *.yaml at
  // its root, trait books under traits/gpu and traits/compare. Null: none.
  std::shared_ptr<const FileSource> local_rules;
  // Whether to load the report trait books (the GPU page's and compare's sentences: `gpu`,
  // `compare`, the server, rule tooling). A command that builds neither skips them (~10% of
  // `fitrank fit`); its env().traits is then null and their files are not checked.
  bool trait_books = true;
};

class Engine {
 public:
  // Loads and checks everything (the catalog on a second thread while this one reads the
  // rest). Problems, warnings excluded, go to `diags`; null if there was any error.
  static std::shared_ptr<const Engine> Load(EngineSources sources, Diagnostics* diags);

  const Catalog& catalog() const { return *catalog_; }
  const Estimator& estimator() const { return *estimator_; }
  const Profiles& profiles() const { return *profiles_; }
  const ReportPolicy& policy() const { return *policy_; }
  const Evaluator& evaluator() const { return *evaluator_; }
  const Grader& grader() const { return *grader_; }
  // Requires sources().trait_books.
  const ReportTraits& traits() const { return *traits_; }
  // What the report builders read: pointers into this snapshot, all non-null (traits: when
  // loaded).
  const ReportEnv& env() const { return env_; }
  const EngineSources& sources() const { return sources_; }

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

 private:
  Engine() = default;

  EngineSources sources_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<Estimator> estimator_;
  std::unique_ptr<Profiles> profiles_;
  std::unique_ptr<ReportPolicy> policy_;
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<Grader> grader_;
  std::unique_ptr<ReportTraits> traits_;
  ReportEnv env_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ENGINE_H_
