#include "rules/lint.h"

#include <algorithm>
#include <tuple>

#include "absl/status/statusor.h"

namespace fitrank::rules {

namespace {

// Adds `raw`'s diagnostics to `out` ordered by file (in load order), line and column, so an
// analyst reads each file top to bottom. A note stays after the diagnostic it belongs to.
void AddSorted(const Diagnostics& raw, const std::vector<std::string>& file_order,
               Diagnostics* out) {
  auto file_index = [&](const std::string& f) {
    auto it = std::find(file_order.begin(), file_order.end(), f);
    return it == file_order.end() ? -1 : static_cast<int>(it - file_order.begin());
  };
  std::vector<std::vector<const Diagnostic*>> groups;
  for (const Diagnostic& d : raw.all()) {
    if (d.severity != Severity::kNote || groups.empty()) groups.emplace_back();
    groups.back().push_back(&d);
  }
  std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
    const Location& x = a[0]->where;
    const Location& y = b[0]->where;
    return std::make_tuple(file_index(x.file), x.line, x.col) <
           std::make_tuple(file_index(y.file), y.line, y.col);
  });
  for (const auto& g : groups) {
    for (const Diagnostic* d : g) out->Add(*d);
  }
}

}  // namespace

absl::Status LintRuleFiles(const RuleSources* base, const std::vector<LintFile>& files,
                           std::shared_ptr<const FactSchema> schema, const Vocabulary& vocab,
                           Diagnostics* diags) {
  Diagnostics raw;
  std::vector<std::string> names;
  std::vector<RuleFile> read;
  auto add = [&](const std::string& name, const std::string& content, bool local) {
    diags->AddSource(name, content);
    names.push_back(name);
    read.push_back(ReadRuleFile(content, name, local, &raw));
  };
  if (base != nullptr) {
    for (const auto& [path, local] : RuleFilePaths(*base)) {
      const FileSource& src = local ? *base->local : *base->shipped;
      absl::StatusOr<std::string> content = src.Read(path);
      if (!content.ok()) return content.status();
      add(src.DisplayName(path), *content, local);
    }
  }
  for (const LintFile& f : files) add(f.name, f.content, f.local);
  RuleBook book = MergeRuleFiles(read, &raw);
  CompileOptions options;
  options.vocab = vocab;
  options.warnings = true;
  CompileRules(book, std::move(schema), options, &raw);
  AddSorted(raw, names, diags);
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
