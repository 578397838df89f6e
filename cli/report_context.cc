#include "cli/report_context.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/detect_setup.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "cli/setup_flags.h"

namespace fitrank::cli {

const ReportEnv& LoadReportEnv(Context& ctx, bool trait_books) {
  if (ctx.engine != nullptr && (ctx.engine->sources().trait_books || !trait_books)) {
    return ctx.engine->env();
  }
  // One snapshot per (data tree, local rules directory, trait books or not) and process: one
  // process may run commands with different --rules (tests do). Loading happens under the lock,
  // so a second thread asking for the same snapshot waits for it instead of loading it again.
  static std::mutex mu;
  using Key = std::tuple<const FileSource*, std::string, bool>;
  static auto* cache = new std::map<Key, std::shared_ptr<const Engine>>();
  const Key key{ctx.data.get(), LocalRulesDir(ctx), trait_books};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find(key);
  if (it == cache->end()) {
    Diagnostics diags;
    std::shared_ptr<const Engine> engine = Engine::Load(
        {.data = ctx.data, .local_rules = LocalRulesSource(ctx), .trait_books = trait_books},
        &diags);
    if (engine == nullptr) {
      *ctx.err << diags.Render();
      *ctx.err << "fitrank: " << diags.error_count()
               << (diags.error_count() == 1 ? " error" : " errors")
               << " in the data and rules; nothing was loaded\n";
      throw ExitNow(2);
    }
    it = cache->emplace(key, std::move(engine)).first;
  }
  ctx.engine = it->second;
  return ctx.engine->env();
}

std::vector<FlagSpec> SetupFlags(bool gpu_flag) {
  std::vector<FlagSpec> f;
  if (gpu_flag) {
    f.push_back({"gpu", "NAME",
                 "a GPU; repeat for a mixed rig (--gpu 4090 --gpu 3090); `auto` or none: the "
                 "detected GPUs",
                 true});
  }
  for (FlagSpec& d : DetectedSetupFlagSpecs()) f.push_back(std::move(d));
  f.push_back({"gpus", "N", "N of that GPU (1-64)"});
  f.push_back({"ram", "GB", "host RAM for offload (default: typical for the GPU class)"});
  f.push_back({"mode", "M", "balanced | interactive | background | light-api | scale-out"});
  f.push_back(RulesFlag());  // every report ranks or explains with the rules
  return f;
}

Setup ParseSetup(Context& ctx, const ReportEnv& env, std::vector<std::string> extra_gpus) {
  return ParseSetupFlags(ctx, *env.catalog, *env.estimator, std::move(extra_gpus)).setup;
}

const Mode& ResolveModeFlag(Context& ctx, const ReportEnv& env) {
  std::optional<std::string> m = ctx.args.Get("mode");
  if (!m) return env.profiles->default_mode();
  ProfileLookup<Mode> r = env.profiles->FindMode(*m);
  if (r.found == nullptr) {
    std::vector<std::string> ids;
    for (const Mode& x : env.profiles->modes()) ids.push_back(x.id);
    std::string hint = DidYouMean(r.suggestions);
    throw UsageError(absl::StrCat("unknown mode `", *m, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(ids)) : hint,
                     "unknown_name", r.suggestions.empty() ? ids : r.suggestions);
  }
  return *r.found;
}

const Workload& ResolveWorkload(const ReportEnv& env, const std::string& name) {
  ProfileLookup<Workload> r = env.profiles->FindWorkload(name);
  if (r.found == nullptr) {
    std::vector<std::string> ids;
    for (const Workload& x : env.profiles->workloads()) ids.push_back(x.id);
    std::string hint = DidYouMean(r.suggestions);
    throw UsageError(absl::StrCat("unknown workload `", name, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(ids), " or `all`") : hint,
                     "unknown_name", r.suggestions.empty() ? ids : r.suggestions);
  }
  return *r.found;
}

std::vector<const Workload*> ResolveWorkloadFlag(Context& ctx, const ReportEnv& env,
                                                 const std::string& def, bool allow_all) {
  std::string w = ctx.args.GetOr("workload", def);
  std::vector<const Workload*> out;
  if (allow_all && w == "all") {
    for (const Workload& x : env.profiles->workloads()) out.push_back(&x);
  } else {
    out.push_back(&ResolveWorkload(env, w));
  }
  return out;
}

}  // namespace fitrank::cli
