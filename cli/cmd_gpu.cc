// fitrank gpu G: the GPU page.
#include "cli/commands.h"
#include "cli/render_reports.h"
#include "cli/report_context.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

namespace {

int RunGpu(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx);
  const Mode& mode = ResolveModeFlag(ctx, env);
  Setup setup = ParseSetup(ctx, env, ctx.args.positional());
  absl::StatusOr<GpuReport> r = BuildGpuReport(env, setup, mode);
  if (!r.ok()) {
    *ctx.err << "fitrank gpu: " << r.status().message() << "\n";
    return 1;
  }
  RenderGpu(*r, ctx.format, ctx.style(), *ctx.out);
  return 0;
}

}  // namespace

Command GpuCommand() {
  return {"gpu", "everything about one GPU for local AI: picks, capability, scaling, buying advice",
          "fitrank gpu NAME [--gpus N] [--ram GB] [--mode M]", SetupFlags(), RunGpu};
}

}  // namespace fitrank::cli
