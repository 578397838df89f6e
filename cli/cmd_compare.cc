// fitrank compare A B [C ...]: GPUs side by side.
#include <set>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/render_reports.h"
#include "cli/report_context.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

namespace {

int RunCompare(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx);
  CompareQuery q;
  std::set<const Gpu*> seen;
  for (const std::string& name : ctx.args.positional()) {
    const Gpu& g = ResolveGpu(*env.catalog, name);
    if (!seen.insert(&g).second) {
      throw UsageError(absl::StrCat("`", name, "` names ", g.name, " twice"),
                       "compare different GPUs");
    }
    q.gpus.push_back(&g);
  }
  if (q.gpus.size() < 2) {
    throw UsageError("compare needs two or more GPUs", "fitrank compare \"RTX 4090\" \"RTX 5090\"");
  }
  q.workload = ResolveWorkloadFlag(ctx, env, "chat", false).front();
  q.mode = &ResolveModeFlag(ctx, env);
  std::optional<Setup> host;
  if (ctx.args.Has("ram")) host = ParseSetup(ctx, env, {ctx.args.positional()[0]});
  absl::StatusOr<CompareReport> r = BuildCompareReport(env, host ? &*host : nullptr, q);
  if (!r.ok()) {
    *ctx.err << "fitrank compare: " << r.status().message() << "\n";
    return 1;
  }
  RenderCompare(*r, ctx.format, ctx.style(), *ctx.out);
  return 0;
}

}  // namespace

Command CompareCommand() {
  return {"compare", "GPUs side by side: models that fit, speed, cost per token, when to pick which",
          "fitrank compare GPU GPU [GPU ...] [--workload W] [--mode M] [--ram GB]",
          {{"workload", "W", "chat | coding | agentic | rag | reasoning (default chat)"},
           {"mode", "M", "balanced | interactive | background | light-api | scale-out"},
           {"ram", "GB", "host RAM assumed for every GPU"},
           RulesFlag()},
          RunCompare};
}

}  // namespace fitrank::cli
