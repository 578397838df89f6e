#include "cli/report_context.h"

#include <future>
#include <map>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "cli/setup_flags.h"
#include "engine/report/scoring_rules.h"
#include "engine/report/traits.h"

namespace fitrank::cli {

namespace {

struct Loaded {
  std::unique_ptr<Estimator> estimator;
  std::unique_ptr<Profiles> profiles;
  std::unique_ptr<ReportPolicy> policy;
  std::unique_ptr<RulesScorer> scorer;
  std::unique_ptr<ReportTraits> traits;
  ReportEnv env;
};

}  // namespace

const ReportEnv& LoadReportEnv(Context& ctx) {
  static std::mutex mu;
  // Keyed by the catalog and the local rules directory: one process may run commands with
  // different --rules (tests do).
  static auto* cache =
      new std::map<std::pair<const Catalog*, std::string>, std::unique_ptr<Loaded>>();
  const std::string local_dir = LocalRulesDir(ctx);
  // The first load of the process: the catalog (the biggest file set) loads on a second
  // thread while this one reads the estimator, profiles, policy and rules, which do not need
  // it. Only the catalog thread writes to ctx.err before the join (catalog errors stop the
  // command first, as when loaded one after the other); the rest is reported after it.
  std::future<const Catalog*> pending;
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mu);
    first = cache->empty();
  }
  if (first) {
    pending = std::async(std::launch::async, [&ctx] { return &LoadCatalog(ctx); });
  }
  auto l = std::make_unique<Loaded>();
  Diagnostics diags;
  std::optional<ReportPolicy> policy;
  absl::StatusOr<ScoringRules> rules = absl::UnknownError("not loaded");
  absl::StatusOr<std::unique_ptr<ReportTraits>> traits = absl::UnknownError("not loaded");
  auto load_rest = [&] {
    l->estimator = Estimator::Load(*ctx.data, &diags);
    l->profiles = Profiles::Load(*ctx.data, &diags);
    policy = LoadReportPolicy(*ctx.data, &diags);
    if (diags.HasErrors() || !l->estimator || !l->profiles || !policy) return;
    // The rules compile once per process; a broken rule file is an error, never half-used.
    // Local rules ($FITRANK_RULES, or --rules DIR where a command takes it) load after the
    // shipped ones (cli/rules_env.h).
    std::shared_ptr<const FileSource> local = LocalRulesSource(ctx);
    rules = LoadScoringRules(*ctx.data, local.get(), *l->profiles, /*warnings=*/false, &diags);
    // The report sentences (strengths, considerations, decisions) are rules too.
    traits = ReportTraits::Load(*ctx.data, local.get(), *l->profiles, /*warnings=*/false, &diags);
  };
  if (first) load_rest();
  const Catalog& catalog = first ? *pending.get() : LoadCatalog(ctx);
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find({&catalog, local_dir});
  if (it != cache->end()) return it->second->env;
  if (!first) load_rest();
  if (diags.HasErrors() || !l->estimator || !l->profiles || !policy) {
    *ctx.err << diags.Render();
    throw ExitNow(2);
  }
  l->policy = std::make_unique<ReportPolicy>(std::move(*policy));
  if (!rules.ok() || !traits.ok() || diags.HasErrors()) {
    *ctx.err << diags.Render();
    if (!rules.ok() && diags.empty()) *ctx.err << rules.status().message() << "\n";
    if (!traits.ok() && diags.empty()) *ctx.err << traits.status().message() << "\n";
    throw ExitNow(2);
  }
  l->traits = *std::move(traits);
  l->scorer = std::make_unique<RulesScorer>(std::make_unique<Evaluator>(
      catalog, *l->estimator, *l->profiles, *std::move(rules)));
  l->env.catalog = &catalog;
  l->env.estimator = l->estimator.get();
  l->env.profiles = l->profiles.get();
  l->env.policy = l->policy.get();
  l->env.scorer = l->scorer.get();
  l->env.traits = l->traits.get();
  const ReportEnv& env = l->env;
  (*cache)[{&catalog, local_dir}] = std::move(l);
  return env;
}

std::vector<FlagSpec> SetupFlags(bool gpu_flag) {
  std::vector<FlagSpec> f;
  if (gpu_flag) {
    f.push_back({"gpu", "NAME", "a GPU; repeat for a mixed rig (--gpu 4090 --gpu 3090)", true});
  }
  f.push_back({"gpus", "N", "N of that GPU (1-64)"});
  f.push_back({"ram", "GB", "host RAM for offload (default: typical for the GPU class)"});
  f.push_back({"mode", "M", "balanced | interactive | background | light-api | scale-out"});
  return f;
}

Setup ParseSetup(Context& ctx, const ReportEnv& env, std::vector<std::string> extra_gpus) {
  return ParseSetupFlags(ctx, *env.catalog, *env.estimator, std::move(extra_gpus)).setup;
}

std::string ResolveModeFlag(Context& ctx, const ReportEnv& env) {
  std::optional<std::string> m = ctx.args.Get("mode");
  if (!m) return env.profiles->default_mode().id;
  ProfileLookup<Mode> r = env.profiles->FindMode(*m);
  if (r.found == nullptr) {
    std::vector<std::string> ids;
    for (const Mode& x : env.profiles->modes()) ids.push_back(x.id);
    std::string hint = DidYouMean(r.suggestions);
    throw UsageError(absl::StrCat("unknown mode `", *m, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(ids)) : hint);
  }
  return r.found->id;
}

std::string ResolveWorkload(const ReportEnv& env, const std::string& name) {
  ProfileLookup<Workload> r = env.profiles->FindWorkload(name);
  if (r.found == nullptr) {
    std::vector<std::string> ids;
    for (const Workload& x : env.profiles->workloads()) ids.push_back(x.id);
    std::string hint = DidYouMean(r.suggestions);
    throw UsageError(absl::StrCat("unknown workload `", name, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(ids), " or `all`") : hint);
  }
  return r.found->id;
}

std::vector<std::string> ResolveWorkloadFlag(Context& ctx, const ReportEnv& env,
                                             const std::string& def, bool allow_all) {
  std::string w = ctx.args.GetOr("workload", def);
  if (allow_all && w == "all") {
    std::vector<std::string> ids;
    for (const Workload& x : env.profiles->workloads()) ids.push_back(x.id);
    return ids;
  }
  return {ResolveWorkload(env, w)};
}

}  // namespace fitrank::cli
