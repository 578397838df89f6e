// Which rule files are read, in what order, and how they merge into one rule book (the
// "merge" stage of the rules pipeline).
//
// Load order
//   1. Shipped files: every `*.yaml` directly under `shipped_dir` ("rules") of the shipped
//      FileSource (the embedded tree, overlaid file by file by --data DIR), sorted by path.
//   2. Local files: every `*.yaml` directly under the local directory (`--rules DIR` or
//      $FITRANK_RULES, decided by the caller), sorted by name.
//   In both, `*.test.yaml` files are rule tests (`fitrank rules test`), not rules: skipped.
//
// Merge
//   - The rules of all files, in load order, form the book; that order is the evaluation and
//     explain order, and new sets get their indexes in it.
//   - A rule id defined twice, in one file or two, is an error reported at the second
//     definition, with a note at the first. There is no implicit replacement.
//   - Then the overrides of all files are applied, in load order. An override names the id of
//     a rule defined in any file (else an error, with did-you-mean). `disable: true` removes
//     the rule. `set: {key: value, ...}` replaces exactly the keys listed, each as a whole
//     (a new `when` replaces the old one; it is not and-ed with it); nothing else changes.
//     Two overrides of the same key of one rule: the later wins, with a warning at it and a
//     note at the earlier one. Overriding a disabled rule is an error.
//   - At most kMaxRules (rule_file.h) rules in all: the first rule past it is a
//     `too-many-rules` error at its id, and no later rule is merged.
//
// A caller uses the result only if `diags` has no errors: nothing is half-loaded.
#ifndef FITRANK_RULES_RULE_BOOK_H_
#define FITRANK_RULES_RULE_BOOK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "rules/rule_file.h"

namespace fitrank::rules {

struct RuleSources {
  const FileSource* shipped = nullptr;  // may be null: no shipped rules
  std::string shipped_dir = "rules";
  const FileSource* local = nullptr;    // may be null: no local rules
  std::string local_dir;                // directory inside `local`; "" for its root
};

struct RuleBook {
  std::vector<RuleDef> rules;       // merged, in load order, disabled rules left out
  std::vector<std::string> files;   // display names of the files read, in load order
  struct Disabled {
    std::string id;
    Location where;  // the override's `id:`
  };
  std::vector<Disabled> disabled;
};

// The paths (FileSource paths, not display names) of the rule files of `sources`, in load
// order, with whether each is local.
std::vector<std::pair<std::string, bool>> RuleFilePaths(const RuleSources& sources);

// Reads every rule file of `sources` in load order. A file that is listed but cannot be read
// is an error status (the problem is the disk, not the content); content problems go to
// `diags`.
absl::StatusOr<std::vector<RuleFile>> ReadRuleFiles(const RuleSources& sources,
                                                    Diagnostics* diags);

// Merges files already in load order. The second form moves each rule out of `files` (its
// rules are left moved-from) instead of copying it: the same book.
RuleBook MergeRuleFiles(const std::vector<RuleFile>& files, Diagnostics* diags);
RuleBook MergeRuleFiles(std::vector<RuleFile>&& files, Diagnostics* diags);

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_RULE_BOOK_H_
