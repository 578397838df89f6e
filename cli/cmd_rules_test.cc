// fitrank rules test: runs the *.test.yaml files next to the rules (shipped and local), and
// reports the rules no test exercised. Exit 0 all pass, 1 a test failed, 2 a test file is bad.
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cli/cmd_rules.h"
#include "cli/input_file.h"
#include "cli/render_json.h"
#include "cli/rules_env.h"
#include "engine/scoring/rule_tests.h"

namespace fitrank::cli {

int RunRulesTest(Context& ctx, const ReportEnv& env) {
  std::shared_ptr<const FileSource> local = LocalRulesSource(ctx);
  const Evaluator* eval = &LoadEvaluator(env);
  // (display name, content) of every test file, in run order.
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> paths(ctx.args.positional().begin() + 1, ctx.args.positional().end());
  if (paths.empty()) {
    auto add = [&](const FileSource& source, const std::string& p) {
      absl::StatusOr<std::string> content = source.Read(p);
      if (!content.ok()) throw UsageError(std::string(content.status().message()));
      files.push_back({source.DisplayName(p), *std::move(content)});
    };
    for (const std::string& p : ctx.data->List("rules", ".test.yaml")) add(*ctx.data, p);
    if (local) {
      for (const std::string& p : local->List("", ".test.yaml")) add(*local, p);
    }
  } else {
    for (const std::string& p : paths) {
      std::error_code ec;
      std::vector<std::string> found;
      if (std::filesystem::is_directory(p, ec)) {
        for (const auto& e : std::filesystem::directory_iterator(p, ec)) {
          if (e.is_regular_file() && absl::EndsWith(e.path().string(), ".test.yaml")) {
            found.push_back(e.path().string());
          }
        }
        std::sort(found.begin(), found.end());
      } else if (std::filesystem::exists(p, ec)) {
        found.push_back(p);  // ReadInputFile refuses what is not a regular file, saying why
      } else {
        throw UsageError(absl::StrCat(p, ": no such file or directory"),
                         "give rule test files (*.test.yaml) or directories holding them");
      }
      for (const std::string& f : found) {
        files.push_back({f, ReadInputFile(ctx, f, "give rule test files (*.test.yaml)")});
      }
    }
  }
  if (files.empty()) {
    *ctx.err << "fitrank rules test: no *.test.yaml files found\n";
    return 2;
  }
  Diagnostics diags;
  std::vector<RuleTest> tests;
  for (const auto& [name, content] : files) {
    std::vector<RuleTest> t = ReadRuleTests(content, name, *eval, &diags);
    tests.insert(tests.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
  }
  if (diags.HasErrors()) {
    *ctx.err << diags.Render();
    return 2;
  }
  RuleTestReport report = RunRuleTests(*eval, tests);
  if (ctx.format == OutputFormat::kJson) {
    Json j;
    j["passed"] = report.passed;
    j["failed"] = report.failed;
    Json results = Json::array();
    for (const RuleTestResult& r : report.results) {
      results.push_back({{"name", r.name},
                         {"file", r.where.file},
                         {"line", r.where.line},
                         {"cases", r.cases},
                         {"passed", r.passed()},
                         {"failures", r.failures}});
    }
    j["tests"] = std::move(results);
    Json unexercised = Json::array();
    for (const auto& [id, where] : report.unexercised) {
      unexercised.push_back({{"id", id}, {"file", where.file}, {"line", where.line}});
    }
    j["unexercised_rules"] = std::move(unexercised);
    PrintJson(*ctx.out, j);
  } else {
    std::ostream& out = *ctx.out;
    for (const RuleTestResult& r : report.results) {
      out << (r.passed() ? "PASS " : "FAIL ") << r.name << "  (" << r.where.file << ":"
          << r.where.line << ", " << r.cases << (r.cases == 1 ? " case)" : " cases)") << "\n";
      for (const std::string& f : r.failures) out << "     " << f << "\n";
    }
    out << "\n" << report.passed << " passed, " << report.failed << " failed, "
        << files.size() << (files.size() == 1 ? " file" : " files") << "\n";
    if (!report.unexercised.empty()) {
      out << "\nRules no test exercised (" << report.unexercised.size() << " of "
          << eval->rules().rule_count() << "):\n";
      for (const auto& [id, where] : report.unexercised) {
        out << "  " << id << "  (" << where.file << ":" << where.line << ")\n";
      }
    } else {
      out << "Every rule fired in at least one test.\n";
    }
  }
  return report.failed > 0 ? 1 : 0;
}

}  // namespace fitrank::cli
