// fitrank rules lint|explain|test|diff|schema: the analyst's tools for the rule files.
#include "cli/cmd_rules.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/commands.h"
#include "cli/input_file.h"
#include "cli/render_json.h"
#include "cli/report_context.h"
#include "cli/rules_env.h"
#include "engine/scoring/evaluate.h"
#include "engine/report/traits.h"
#include "profiles/profiles.h"
#include "rules/lint.h"

namespace fitrank::cli {
namespace {

constexpr const char* kSubcommands[] = {"lint", "explain", "test", "diff", "schema"};

// The *.yaml files named by `paths` (files as given, directories' *.yaml sorted), with or
// without the *.test.yaml rule tests.
std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths, bool tests) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::directory_iterator(p, ec)) {
        std::string name = e.path().filename().string();
        if (!e.is_regular_file() || !absl::EndsWith(name, ".yaml")) continue;
        if (absl::EndsWith(name, ".test.yaml") != tests) continue;
        found.push_back(e.path().string());
      }
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);  // ReadInputFile refuses what is not a regular file, saying why
    } else {
      throw UsageError(absl::StrCat(p, ": no such file or directory"),
                       "give rule files (*.yaml) or directories holding them");
    }
  }
  return out;
}

// The book a file given on the command line belongs to: a trait book if it sits in that
// book's directory (…/traits/gpu/x.yaml, …/traits/compare/x.yaml), else the scoring rules (-1).
int TraitBookOf(const std::string& path) {
  std::filesystem::path p(path);
  const std::vector<TraitBookSpec>& books = TraitBooks();
  for (size_t b = 0; b < books.size(); ++b) {
    std::filesystem::path dir(books[b].local_dir);  // "traits/gpu"
    if (p.parent_path().filename() == dir.filename() &&
        p.parent_path().parent_path().filename() == dir.parent_path().filename()) {
      return static_cast<int>(b);
    }
  }
  return -1;
}

// `unknown-kind` errors for trait rule files whose set is not one of the book's kinds (the
// compiler only warns about unknown sets: for scoring, a new set is allowed).
void CheckKinds(const TraitBookSpec& book, const std::vector<std::pair<std::string,
                std::string>>& files, Diagnostics* diags) {
  Diagnostics scratch;
  std::vector<rules::RuleFile> read;
  for (const auto& [name, content] : files) {
    read.push_back(rules::ReadRuleFile(content, name, true, &scratch));
  }
  CheckTraitKinds(read, book.kinds, book.name, diags);
}

// The shipped *.yaml of `dir` (rule tests aside), path and content, that no file of `given`
// replaces. A given file with a shipped file's name, in a directory named like `dir`'s last
// part, is an edited copy of it (a checkout's rules/fit.yaml or traits/gpu/considerations.yaml):
// it replaces that file rather than clashing with it.
std::vector<std::pair<std::string, std::string>> ShippedNotReplaced(
    const FileSource& data, const std::string& dir, const std::vector<rules::LintFile>& given) {
  const std::filesystem::path dir_name = std::filesystem::path(dir).filename();
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& p : data.List(dir, ".yaml")) {
    if (absl::EndsWith(p, ".test.yaml")) continue;
    bool replaced = false;
    for (const rules::LintFile& f : given) {
      std::filesystem::path fp(f.name);
      replaced |= fp.filename() == std::filesystem::path(p).filename() &&
                  fp.parent_path().filename() == dir_name;
    }
    if (replaced) continue;
    absl::StatusOr<std::string> content = data.Read(p);
    if (!content.ok()) throw UsageError(std::string(content.status().message()));
    out.push_back({p, *std::move(content)});
  }
  return out;
}

// Lints one trait book: `given` on top of the book's shipped files that they do not replace
// (ShippedNotReplaced), or, with nothing given, the shipped files and the local directory's.
absl::Status LintTraitBook(Context& ctx, const TraitBookSpec& book, const rules::Vocabulary& vocab,
                           const FileSource* local, const std::vector<rules::LintFile>* given,
                           Diagnostics* diags, int* files) {
  rules::Vocabulary v = vocab;
  v.sets.clear();  // an unknown set is CheckKinds' error, not the compiler's warning
  std::vector<std::pair<std::string, std::string>> all = ShippedNotReplaced(
      *ctx.data, book.shipped_dir, given != nullptr ? *given : std::vector<rules::LintFile>());
  MemorySource base_files;
  for (const auto& [path, content] : all) base_files.Set(path, content);
  rules::RuleSources base;
  base.shipped = &base_files;
  base.shipped_dir = book.shipped_dir;
  std::vector<rules::LintFile> extra;
  if (given != nullptr) {
    extra = *given;
  } else if (local != nullptr) {
    for (const std::string& p : local->List(book.local_dir, ".yaml")) {
      if (absl::EndsWith(p, ".test.yaml")) continue;
      absl::StatusOr<std::string> content = local->Read(p);
      if (!content.ok()) return content.status();
      extra.push_back({local->DisplayName(p), *content, /*local=*/true});
    }
  }
  for (const rules::LintFile& f : extra) all.push_back({f.name, f.content});
  *files += static_cast<int>(all.size());
  absl::Status status = rules::LintRuleFiles(&base, extra, book.make_schema(), v, diags);
  if (status.ok()) CheckKinds(book, all, diags);
  return status;
}

// Lint needs the profiles' vocabulary and nothing else of the engine: it compiles the rule
// files itself, and reports their problems as lint findings rather than as a failed load.
int RunLint(Context& ctx) {
  Diagnostics diags;
  std::unique_ptr<Profiles> profiles = Profiles::Load(*ctx.data, &diags);
  if (profiles == nullptr || diags.HasErrors()) {
    *ctx.err << diags.Render();
    *ctx.err << "fitrank rules lint: the profiles did not load; nothing was linted\n";
    return 2;
  }
  auto schema = std::make_shared<rules::FactSchema>();
  Facts facts(schema.get(), profiles->grades().quality_ranking_z);
  rules::Vocabulary vocab = VocabularyOf(*profiles);
  std::shared_ptr<const FileSource> local = LocalRulesSource(ctx);
  rules::RuleSources shipped;
  shipped.shipped = ctx.data.get();
  std::vector<std::string> paths(ctx.args.positional().begin() + 1, ctx.args.positional().end());
  absl::Status status;
  int files = 0;
  const std::vector<TraitBookSpec>& books = TraitBooks();
  if (paths.empty()) {
    // Everything: the scoring rules, then each report rule book (engine/report_traits.h).
    rules::RuleSources all = shipped;
    all.local = local.get();
    files = static_cast<int>(rules::RuleFilePaths(all).size());
    status = rules::LintRules(all, schema, vocab, &diags);
    for (const TraitBookSpec& book : books) {
      if (!status.ok()) break;
      status = LintTraitBook(ctx, book, vocab, local.get(), nullptr, &diags, &files);
    }
  } else {
    std::vector<rules::LintFile> lint_files;
    std::vector<std::vector<rules::LintFile>> trait_files(books.size());
    for (const std::string& path : ExpandPaths(paths, /*tests=*/false)) {
      std::string text = ReadInputFile(ctx, path, "give rule files (*.yaml) or directories");
      // A shipped file given by path replaces its embedded copy rather than clashing with it.
      int book = TraitBookOf(path);
      (book < 0 ? lint_files : trait_files[book]).push_back({path, std::move(text), /*local=*/true});
    }
    for (size_t b = 0; b < books.size() && status.ok(); ++b) {
      if (trait_files[b].empty()) continue;
      status = LintTraitBook(ctx, books[b], vocab, nullptr, &trait_files[b], &diags, &files);
    }
    if (!lint_files.empty() && status.ok()) {
      files += static_cast<int>(lint_files.size());
      // The given files are linted on top of the shipped rules, so that their overrides
      // resolve.
      MemorySource base_files;
      for (const auto& [path, content] : ShippedNotReplaced(*ctx.data, "rules", lint_files)) {
        base_files.Set(path, content);
      }
      rules::RuleSources base;
      base.shipped = &base_files;
      status = rules::LintRuleFiles(&base, lint_files, schema, vocab, &diags);
    }
  }
  if (!status.ok()) {
    *ctx.err << "fitrank rules lint: " << status.message() << "\n";
    return 2;
  }
  if (ctx.format == OutputFormat::kJson) {
    Json j = rules::DiagnosticsToJson(diags);
    j["files"] = files;
    PrintJson(*ctx.out, j);
  } else {
    *ctx.out << diags.Render();
    *ctx.out << files << (files == 1 ? " file" : " files") << " checked: " << diags.error_count()
             << (diags.error_count() == 1 ? " error, " : " errors, ") << diags.warning_count()
             << (diags.warning_count() == 1 ? " warning" : " warnings") << "\n";
  }
  return diags.HasErrors() ? 2 : 0;
}

int RunRules(Context& ctx) {
  const std::vector<std::string>& pos = ctx.args.positional();
  std::vector<std::string> subs(std::begin(kSubcommands), std::end(kSubcommands));
  if (pos.empty()) {
    throw UsageError("which rules subcommand?", absl::StrCat("one of ", QuotedList(subs)));
  }
  const std::string& sub = pos[0];
  if (sub == "schema") return RunRulesSchema(ctx);
  if (sub == "lint" && ctx.args.Has("explain")) return RunLintExplain(ctx);
  if (sub == "lint") return RunLint(ctx);
  const ReportEnv& env = LoadReportEnv(ctx);
  if (sub == "explain") return RunRulesExplain(ctx, env);
  if (sub == "test") return RunRulesTest(ctx, env);
  if (sub == "diff") return RunRulesDiff(ctx, env);
  std::string hint = DidYouMean(ClosestMatches(sub, subs));
  throw UsageError(absl::StrCat("unknown rules subcommand `", sub, "`"),
                   hint.empty() ? absl::StrCat("one of ", QuotedList(subs)) : hint);
}

}  // namespace

Command RulesCommand() {
  std::vector<FlagSpec> flags = SetupFlags();
  flags.push_back({"model", "NAME", "explain: the model"});
  flags.push_back({"quant", "Q", "explain: the quantization (default: the best by the rules)"});
  flags.push_back({"workload", "W", "explain/diff: chat | coding | agentic | rag | reasoning"});
  flags.push_back({"top", "K", "diff: compare the top K picks per GPU (default 5)"});
  flags.push_back({"kind", "KIND",
                   "schema: rules | tests | workloads | modes | grades | gpu-traits | "
                   "compare-decisions | all"});
  flags.push_back({"explain", "CODE", "lint: what a diagnostic code means (`all`: every code)"});
  flags.push_back(RulesFlag());
  return {"rules",
          "lint, explain, test, diff and describe the scoring rules (lint: the report rules too)",
          "fitrank rules lint [PATHS...] | fitrank rules lint --explain CODE|all\n"
          "       fitrank rules explain --gpu G --model M [--quant Q] [--workload W] [--mode M]\n"
          "       fitrank rules test [PATHS...]\n"
          "       fitrank rules diff OLD_DIR NEW_DIR [--workload W] [--mode M] [--top K] [--gpu G ...]\n"
          "       fitrank rules schema [--kind rules|tests|workloads|modes|grades|gpu-traits|\n"
          "                             compare-decisions|all]",
          flags, RunRules, kTableOrJson};
}

}  // namespace fitrank::cli
