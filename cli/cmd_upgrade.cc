// fitrank upgrade --gpu G [--budget USD]: what to buy next.
#include "cli/commands.h"
#include "cli/render_reports.h"
#include "cli/report_context.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

namespace {

int RunUpgrade(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx, /*trait_books=*/false);
  UpgradeQuery q;
  q.workload = ResolveWorkloadFlag(ctx, env, "chat", false).front();
  q.mode = &ResolveModeFlag(ctx, env);
  q.budget_usd = ctx.args.GetDouble("budget", 1, 1e8, "USD").value_or(0);
  Setup setup = ParseSetup(ctx, env, ctx.args.positional());
  absl::StatusOr<UpgradeReport> r = BuildUpgradeReport(env, setup, q);
  if (!r.ok()) {
    *ctx.err << "fitrank upgrade: " << r.status().message() << "\n";
    return 1;
  }
  RenderUpgrade(*r, ctx.format, ctx.style(), *ctx.out);
  return 0;
}

}  // namespace

Command UpgradeCommand() {
  std::vector<FlagSpec> flags = SetupFlags();
  flags.push_back({"budget", "USD", "only options up to this price; the itinerary stays within it"});
  flags.push_back({"workload", "W", "chat | coding | agentic | rag | reasoning (default chat)"});
  return {"upgrade", "upgrade paths from a setup: what each purchase unlocks and at what cost",
          "fitrank upgrade --gpu NAME [--gpu NAME ...] [--gpus N] [--ram GB] [--budget USD] "
          "[--workload W] [--mode M]",
          flags, RunUpgrade};
}

}  // namespace fitrank::cli
