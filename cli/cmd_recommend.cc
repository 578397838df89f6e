// fitrank recommend --gpu G: ranked picks for a workload and mode.
#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/commands.h"
#include "cli/installed.h"
#include "cli/model_file.h"
#include "cli/render_reports.h"
#include "cli/report_context.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

namespace {

int RunRecommend(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx, /*trait_books=*/false);
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "give GPUs with --gpu NAME");
  }
  RecommendQuery q;
  q.workloads = ResolveWorkloadFlag(ctx, env, "chat", true);
  q.mode = &ResolveModeFlag(ctx, env);
  q.top_k = ctx.args.GetInt("top", 1, 1000, "picks").value_or(5);
  if (std::optional<std::string> g = ctx.args.Get("min-grade")) {
    // The letters are the profiles' (profiles/grades.yaml), best first.
    const GradeScale& scale = env.profiles->grades();
    q.min_grade = scale.IndexOf(*g);
    if (q.min_grade < 0) {
      throw UsageError(absl::StrCat("--min-grade must be a letter ", scale.grades.front().letter,
                                    "-", scale.grades.back().letter, ", not `", *g, "`"));
    }
  }
  q.capability = ctx.args.GetOr("capability", "");
  if (!q.capability.empty()) {
    bool known = false;
    std::vector<std::string> caps;
    for (const Model& m : env.catalog->models()) {
      for (const std::string& c : m.capabilities) {
        known |= c == q.capability;
        if (std::find(caps.begin(), caps.end(), c) == caps.end()) caps.push_back(c);
      }
    }
    if (!known) {
      std::string hint = DidYouMean(ClosestMatches(q.capability, caps));
      throw UsageError(absl::StrCat("unknown capability `", q.capability, "`"),
                       hint.empty() ? absl::StrCat("one of ", QuotedList(caps)) : hint);
    }
  }
  Setup setup = ParseSetup(ctx, env);
  const bool installed = ctx.args.Has("installed");
  const int top_k = q.top_k;
  std::vector<LocalModel> local;
  if (installed) {
    std::vector<std::string> notes;
    local = InstalledModels(*env.catalog, &notes);
    for (const std::string& n : notes) *ctx.err << "fitrank recommend: note: " << n << "\n";
    q.top_k = 10000;  // every candidate, filtered to the installed ones below
  }
  absl::StatusOr<RecommendReport> r = BuildRecommendReport(env, setup, q);
  if (!r.ok()) {
    *ctx.err << "fitrank recommend: " << r.status().message() << "\n";
    return 1;
  }
  if (installed) {
    std::vector<Pick> file_picks;
    if (std::optional<std::string> path = ctx.args.Get("model-gguf")) {
      FileModel file = LoadGgufModel(*env.catalog, *path);
      if (q.capability.empty()) {
        file_picks = FilePicks(env, setup, *file.model, file.quant, *path, *r);
        if (q.min_grade >= 0) {
          std::erase_if(file_picks, [&](const Pick& p) {
            return p.grade_index < 0 || p.grade_index > q.min_grade;
          });
        }
      }
    }
    KeepInstalled(*env.policy, local, std::move(file_picks), top_k, &*r);
  } else if (ctx.args.Has("model-gguf")) {
    throw UsageError("--model-gguf needs --installed on recommend",
                     "fitrank recommend --installed --model-gguf file.gguf");
  }
  RenderRecommend(*r, ctx.format, ctx.style(), *ctx.out);
  size_t picks = 0;
  for (const WorkloadPicks& w : r->workloads) picks += w.picks.size();
  return picks > 0 ? 0 : 1;
}

}  // namespace

Command RecommendCommand() {
  std::vector<FlagSpec> flags = SetupFlags();
  flags.push_back({"workload", "W", "chat | coding | agentic | rag | reasoning | all (default chat)"});
  flags.push_back({"top", "K", "picks per workload (default 5)"});
  flags.push_back({"min-grade", "X", "only picks graded X or better (A-F)"});
  flags.push_back({"capability", "C", "only models with this capability (tools, vision, ...)"});
  flags.push_back({"installed", "", "rank only models installed here (Ollama, Hugging Face cache)"});
  flags.push_back({"model-gguf", "PATH", "with --installed: a local GGUF file ranked with them"});
  return {"recommend", "ranked model picks for a GPU setup, workload and mode",
          "fitrank recommend --gpu NAME [--gpu NAME ...] [--gpus N] [--ram GB] [--workload W|all] "
          "[--mode M] [--top K] [--min-grade X] [--capability C] [--installed [--model-gguf PATH]]",
          flags, RunRecommend};
}

}  // namespace fitrank::cli
