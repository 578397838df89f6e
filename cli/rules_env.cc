#include "cli/rules_env.h"

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "base/read_file.h"
#include "engine/report/grader.h"

namespace fitrank::cli {
namespace {

std::unique_ptr<Evaluator> Build(Context& ctx, const ReportEnv& env, const FileSource& shipped,
                                 absl::string_view shipped_dir, const FileSource* local,
                                 absl::string_view what) {
  Diagnostics diags;
  absl::StatusOr<ScoringRules> rules =
      LoadScoringRules(shipped, local, *env.profiles, /*warnings=*/false, &diags, shipped_dir,
                       &rules::ShippedNativePhases());
  if (!rules.ok() || diags.HasErrors()) {
    *ctx.err << diags.Render();
    *ctx.err << "fitrank: cannot load " << what << ": " << rules.status().message() << "\n";
    throw ExitNow(2);
  }
  return std::make_unique<Evaluator>(*env.catalog, *env.estimator, *env.profiles,
                                     *std::move(rules));
}

}  // namespace

FlagSpec RulesFlag() {
  return {"rules", "DIR", "local rule files loaded after the shipped ones (also $FITRANK_RULES)"};
}

std::string LocalRulesDir(const Context& ctx) {
  if (std::optional<std::string> dir = ctx.args.Get("rules")) return *dir;
  if (const char* env = std::getenv("FITRANK_RULES")) return env;
  return "";
}

std::shared_ptr<const FileSource> LocalRulesSource(const Context& ctx) {
  std::string dir = LocalRulesDir(ctx);
  if (dir.empty()) return nullptr;
  absl::Status st = CheckDirectory(dir);
  if (!st.ok()) {
    throw UsageError(absl::StrCat(ctx.args.Has("rules") ? "--rules " : "FITRANK_RULES ",
                                  st.message()),
                     "give the directory of your local rule files (*.yaml)");
  }
  return std::make_shared<DiskSource>(dir, ctx.max_file_bytes);
}

const Evaluator& LoadEvaluator(const ReportEnv& env) {
  return env.grader->evaluator();
}

std::unique_ptr<Evaluator> LoadEvaluatorFromTree(Context& ctx, const ReportEnv& env,
                                                 const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw UsageError(absl::StrCat("rule tree `", dir, "` is not a directory"));
  }
  // A checkout's root (with rules/ inside) or the rules directory itself.
  bool nested = std::filesystem::is_directory(std::filesystem::path(dir) / "rules", ec);
  DiskSource source(dir, ctx.max_file_bytes);
  if (source.List(nested ? "rules" : "", ".yaml").empty()) {
    throw UsageError(absl::StrCat("rule tree `", dir, "` has no *.yaml rule files"));
  }
  return Build(ctx, env, source, nested ? "rules" : "", nullptr,
               absl::StrCat("the rule tree ", dir));
}

}  // namespace fitrank::cli
