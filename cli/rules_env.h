// What the analyst commands (`rules ...`, `sweep`) share: the local rules directory, and an
// evaluator over the shipped rules followed by the local ones.
//
// Rule load order (documented for analysts in README.md):
//   1. the shipped rules/*.yaml, embedded in the binary (a --data DIR overlays them file by
//      file: DIR/rules/fit.yaml replaces the shipped fit.yaml), sorted by name;
//   2. the local directory's *.yaml, sorted by name: `--rules DIR`, else $FITRANK_RULES.
// Local files add rules, and override or disable shipped rules by id, key by key.
#ifndef FITRANK_CLI_RULES_ENV_H_
#define FITRANK_CLI_RULES_ENV_H_

#include <memory>
#include <string>

#include "cli/command.h"
#include "engine/scoring/evaluate.h"
#include "engine/report/env.h"

namespace fitrank::cli {

// The --rules flag every command that scores takes.
FlagSpec RulesFlag();

// `--rules DIR` if the command declares and got it, else $FITRANK_RULES, else "".
std::string LocalRulesDir(const Context& ctx);

// The local rules as a FileSource rooted at the directory, or null when there is none.
// Throws UsageError if the directory does not exist.
std::shared_ptr<const FileSource> LocalRulesSource(const Context& ctx);

// The evaluator over the shipped rules of ctx.data followed by the local rules
// (LocalRulesSource): the report environment's own, which LoadReportEnv compiled once.
const Evaluator& LoadEvaluator(const ReportEnv& env);

// An evaluator over the rule tree in `dir` only (a directory of *.yaml, or a tree whose
// rules/ holds them), for `rules diff`. Errors as above, naming the tree.
std::unique_ptr<Evaluator> LoadEvaluatorFromTree(Context& ctx, const ReportEnv& env,
                                                 const std::string& dir);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RULES_ENV_H_
