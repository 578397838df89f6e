#include "rules/lint.h"

#include "absl/status/statusor.h"

namespace fitrank::rules {

absl::Status LintRuleFiles(const RuleSources* base, const std::vector<LintFile>& files,
                           std::shared_ptr<const FactSchema> schema, const Vocabulary& vocab,
                           Diagnostics* diags) {
  std::vector<RuleFile> read;
  if (base != nullptr) {
    absl::StatusOr<std::vector<RuleFile>> b = ReadRuleFiles(*base, diags);
    if (!b.ok()) return b.status();
    read = std::move(*b);
  }
  for (const LintFile& f : files) read.push_back(ReadRuleFile(f.content, f.name, f.local, diags));
  RuleBook book = MergeRuleFiles(read, diags);
  CompileOptions options;
  options.vocab = vocab;
  options.warnings = true;
  CompileRules(book, std::move(schema), options, diags);
  return absl::OkStatus();
}

absl::Status LintRules(const RuleSources& sources, std::shared_ptr<const FactSchema> schema,
                       const Vocabulary& vocab, Diagnostics* diags) {
  return LintRuleFiles(&sources, {}, std::move(schema), vocab, diags);
}

nlohmann::json DiagnosticsToJson(const Diagnostics& diags) {
  nlohmann::json list = nlohmann::json::array();
  for (const Diagnostic& d : diags.all()) {
    nlohmann::json j;
    j["severity"] = std::string(SeverityName(d.severity));
    j["code"] = d.code;
    j["message"] = d.message;
    j["file"] = d.where.file;
    j["line"] = d.where.line;
    j["col"] = d.where.col;
    if (!d.hint.empty()) j["hint"] = d.hint;
    list.push_back(std::move(j));
  }
  nlohmann::json out;
  out["errors"] = diags.error_count();
  out["warnings"] = diags.warning_count();
  out["diagnostics"] = std::move(list);
  return out;
}

}  // namespace fitrank::rules
