// `fitrank rules lint`: every problem of a rule tree, at once.
//
// Lint runs the same read -> merge -> compile pipeline as loading, with warnings on, and goes
// on after every problem. It reports, as diagnostics (file:line:col, the source line, a caret
// pointing into the expression, a hint):
//   errors    YAML syntax, unknown or mistyped keys (did-you-mean), malformed ids, syntax
//             errors in expressions and sentences, unknown facts and functions (did-you-mean),
//             type mismatches, bad regexes, unknown workloads/modes/grades (did-you-mean),
//             duplicate rule ids, overrides of ids that do not exist, too long/deep expressions
//   warnings  unknown rule sets (a new set is allowed), rules that can never fire (`when`
//             always false, empty `workloads`/`modes`), rules without effect, missing `say`
//             or `desc`, constant division by zero, a key overridden twice
// The CLI exits 2 if `diags.HasErrors()`, else 0; --json prints DiagnosticsToJson().
#ifndef FITRANK_RULES_LINT_H_
#define FITRANK_RULES_LINT_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/diagnostics.h"
#include "nlohmann/json.hpp"
#include "rules/compiled_rules.h"
#include "rules/facts.h"
#include "rules/rule_book.h"
#include "rules/vocabulary.h"

namespace fitrank::rules {

// A file given on the command line.
struct LintFile {
  std::string name;     // display name for diagnostics
  std::string content;
  bool local = true;    // an analyst's file (overrides shipped rules)
};

// Lints the files of `base` (may be null; e.g. the shipped rules, so that local overrides
// resolve) followed by `files`, in that order, as one rule book. Problems go to `diags`.
// Returns a non-OK status only if a file of `base` cannot be read.
absl::Status LintRuleFiles(const RuleSources* base, const std::vector<LintFile>& files,
                           std::shared_ptr<const FactSchema> schema, const Vocabulary& vocab,
                           Diagnostics* diags);

// Lints the rule tree of `sources`, in load order.
absl::Status LintRules(const RuleSources& sources, std::shared_ptr<const FactSchema> schema,
                       const Vocabulary& vocab, Diagnostics* diags);

// Diagnostics as JSON for --json:
//   {"errors": N, "warnings": N, "diagnostics": [{"severity": "error", "code": "unknown-fact",
//     "message": "...", "file": "...", "line": 3, "col": 12, "hint": "..."}, ...]}
nlohmann::json DiagnosticsToJson(const Diagnostics& diags);

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_LINT_H_
