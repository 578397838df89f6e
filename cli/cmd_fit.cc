// fitrank fit MODEL --gpu G: one model on one setup.
#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/render_reports.h"
#include "cli/report_context.h"
#include "cli/resolve.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

namespace {

int RunFit(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx, /*trait_books=*/false);
  const auto& pos = ctx.args.positional();
  const std::optional<std::string> gguf = ctx.args.Get("model-gguf");
  if (pos.empty() && !gguf) {
    throw UsageError("no model given", "fitrank fit MODEL --gpu NAME, or --model-gguf file.gguf");
  }
  if (pos.size() + (gguf ? 1 : 0) > 1) {
    throw UsageError("one model at a time", "quote a model name with spaces: \"llama 3.1 405b\"");
  }
  FitQuery q;
  if (gguf) {
    FileModel file = LoadGgufModel(*env.catalog, *gguf);
    q.model = file.model;
    q.quant = file.quant;  // the file's recipe heads the page, sized from its tensors
  } else {
    q.model = &ResolveModel(*env.catalog, pos[0]);
  }
  if (std::optional<std::string> quant = ctx.args.Get("quant")) {
    q.quant = &ResolveQuant(*env.catalog, *quant);
  }
  q.workload = ResolveWorkloadFlag(ctx, env, "chat", false).front();
  q.mode = &ResolveModeFlag(ctx, env);
  Setup setup = ParseSetup(ctx, env);
  absl::StatusOr<FitReport> r = BuildFitReport(env, setup, q);
  if (!r.ok()) {
    *ctx.err << "fitrank fit: " << r.status().message() << "\n";
    return 1;
  }
  RenderFit(*r, ctx.format, ctx.style(), *ctx.out);
  return 0;
}

}  // namespace

Command FitCommand() {
  std::vector<FlagSpec> flags = SetupFlags();
  flags.push_back({"quant", "Q", "quantization for the headline numbers (default: the best here)"});
  flags.push_back({"model-gguf", "PATH", "a local GGUF file instead of a catalog MODEL"});
  flags.push_back({"workload", "W", "chat | coding | agentic | rag | reasoning (default chat)"});
  return {"fit", "how one model fits and runs on a GPU setup, at every quantization",
          "fitrank fit (MODEL | --model-gguf PATH) --gpu NAME [--gpu NAME ...] [--gpus N] [--ram GB] [--quant Q] "
          "[--workload W] [--mode M]",
          flags, RunFit};
}

}  // namespace fitrank::cli
