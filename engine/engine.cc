#include "engine/engine.h"

#include <exception>
#include <optional>

#include "base/heap.h"
#include "base/thread.h"

namespace fitrank {

std::shared_ptr<const Engine> Engine::Load(EngineSources sources, Diagnostics* diags) {
  if (sources.data == nullptr) {
    diags->Error("no-data", {}, "no data tree to load the engine from");
    return nullptr;
  }
  std::shared_ptr<Engine> e(new Engine());
  // The catalog and the estimator's constants need nothing else: they load on a second thread
  // (base/thread.h starts it on the other core). The report policy (which needs nothing else
  // either) loads on the thread with less to do, so that the two finish about together: after
  // the estimator when this one also reads the trait books, else here after the rules (`fit`,
  // idle 2 cores: the second thread ends ~1.06 ms in, this one ~1.13 ms with the policy,
  // docs/SPEED.md round 19). Each part
  // keeps its own diagnostics, reported in the order of a sequential load: catalog, estimator,
  // profiles, policy, rules, trait books.
  const FileSource& data = *sources.data;
  struct SideLoad {
    std::unique_ptr<Catalog> catalog;
    Diagnostics catalog_diags;
    std::unique_ptr<Estimator> estimator;
    Diagnostics estimator_diags;
    std::optional<ReportPolicy> policy;
    Diagnostics policy_diags;
    std::exception_ptr failure;  // rethrown here (out of memory, as on this thread)
  };
  const bool policy_beside = sources.trait_books;
  SideLoad s;
  Thread side([&data, policy_beside, &s] {
    UseHugePagesForThisThread();
    try {
      s.catalog = Catalog::Load(data, &s.catalog_diags);
      s.estimator = Estimator::Load(data, &s.estimator_diags);
      if (policy_beside) s.policy = LoadReportPolicy(data, &s.policy_diags);
    } catch (...) {
      s.failure = std::current_exception();
    }
  });
  Diagnostics profile_diags;
  e->profiles_ = Profiles::Load(data, &profile_diags);
  Diagnostics late;  // rules, trait books
  absl::StatusOr<ScoringRules> rules = absl::UnknownError("not loaded");
  absl::StatusOr<std::unique_ptr<ReportTraits>> traits = std::unique_ptr<ReportTraits>();
  if (!profile_diags.HasErrors() && e->profiles_) {
    // Rules compile against the profiles' vocabulary; a broken rule file is an error, never
    // half-used. The report sentences (strengths, considerations, decisions) are rules too.
    const FileSource* local = sources.local_rules.get();
    rules = LoadScoringRules(data, local, *e->profiles_, /*warnings=*/false, &late, "rules",
                             &rules::ShippedNativePhases());
    if (sources.trait_books) {
      traits = ReportTraits::Load(data, local, *e->profiles_, /*warnings=*/false, &late);
    }
  }
  std::optional<ReportPolicy> policy_here;
  Diagnostics policy_here_diags;
  if (!policy_beside) policy_here = LoadReportPolicy(data, &policy_here_diags);
  side.Join();
  if (s.failure) std::rethrow_exception(s.failure);
  if (!policy_beside) {
    s.policy = std::move(policy_here);
    s.policy_diags = std::move(policy_here_diags);
  }
  e->estimator_ = std::move(s.estimator);
  std::optional<ReportPolicy>& policy = s.policy;
  std::unique_ptr<Catalog>& loaded_catalog = s.catalog;
  diags->Merge(s.catalog_diags);
  const bool catalog_ok = loaded_catalog != nullptr;
  diags->Merge(s.estimator_diags);
  diags->Merge(profile_diags);
  diags->Merge(s.policy_diags);
  // A sequential load stops before the rules when the estimator, the profiles (then they were
  // not compiled) or the policy failed: their problems are not reported, nothing of them used.
  if (!s.estimator_diags.HasErrors() && e->estimator_ && !s.policy_diags.HasErrors() && policy) {
    diags->Merge(late);
  } else {
    rules = absl::UnknownError("not loaded");
    traits = std::unique_ptr<ReportTraits>();
  }
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
