#include "engine/engine.h"

#include <future>
#include <optional>

namespace fitrank {

std::shared_ptr<const Engine> Engine::Load(EngineSources sources, Diagnostics* diags) {
  if (sources.data == nullptr) {
    diags->Error("no-data", {}, "no data tree to load the engine from");
    return nullptr;
  }
  std::shared_ptr<Engine> e(new Engine());
  // The catalog is the biggest file set and needs nothing else: it loads on a second thread
  // with its own diagnostics, reported first as if loaded first.
  const FileSource& data = *sources.data;
  std::future<std::pair<std::unique_ptr<Catalog>, Diagnostics>> catalog =
      std::async(std::launch::async, [&data] {
        Diagnostics d;
        std::unique_ptr<Catalog> c = Catalog::Load(data, &d);
        return std::make_pair(std::move(c), std::move(d));
      });
  Diagnostics rest;
  e->estimator_ = Estimator::Load(data, &rest);
  e->profiles_ = Profiles::Load(data, &rest);
  std::optional<ReportPolicy> policy = LoadReportPolicy(data, &rest);
  absl::StatusOr<ScoringRules> rules = absl::UnknownError("not loaded");
  absl::StatusOr<std::unique_ptr<ReportTraits>> traits = std::unique_ptr<ReportTraits>();
  if (!rest.HasErrors() && e->estimator_ && e->profiles_ && policy) {
    // Rules compile against the profiles' vocabulary; a broken rule file is an error, never
    // half-used. The report sentences (strengths, considerations, decisions) are rules too.
    const FileSource* local = sources.local_rules.get();
    rules = LoadScoringRules(data, local, *e->profiles_, /*warnings=*/false, &rest);
    if (sources.trait_books) {
      traits = ReportTraits::Load(data, local, *e->profiles_, /*warnings=*/false, &rest);
    }
  }
  auto [loaded_catalog, catalog_diags] = catalog.get();
  diags->Merge(catalog_diags);
  const bool catalog_ok = loaded_catalog != nullptr;
  diags->Merge(rest);
  if (!catalog_ok || diags->HasErrors() || !e->estimator_ || !e->profiles_ || !policy ||
      !rules.ok() || !traits.ok()) {
    if (diags->error_count() == 0) {
      // A loader refused without saying where: never fail silently.
      absl::Status why = !rules.ok() ? rules.status() : traits.status();
      diags->Error("load-failed", {}, std::string(why.message()));
    }
    return nullptr;
  }
  if (!ResolveReportPolicy(*e->profiles_, *loaded_catalog, &*policy, diags)) return nullptr;
  e->sources_ = std::move(sources);
  e->catalog_ = std::move(loaded_catalog);
  e->policy_ = std::make_unique<ReportPolicy>(std::move(*policy));
  e->traits_ = *std::move(traits);
  e->evaluator_ = std::make_unique<Evaluator>(*e->catalog_, *e->estimator_, *e->profiles_,
                                              *std::move(rules));
  e->grader_ = std::make_unique<Grader>(*e->evaluator_, *e->policy_);
  e->env_.catalog = e->catalog_.get();
  e->env_.estimator = e->estimator_.get();
  e->env_.profiles = e->profiles_.get();
  e->env_.policy = e->policy_.get();
  e->env_.grader = e->grader_.get();
  e->env_.traits = e->traits_.get();
  return e;
}

}  // namespace fitrank
