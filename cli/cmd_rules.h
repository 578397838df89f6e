// The subcommands of `fitrank rules`, one file each (cmd_rules_*.cc); cmd_rules.cc dispatches.
#ifndef FITRANK_CLI_CMD_RULES_H_
#define FITRANK_CLI_CMD_RULES_H_

#include "cli/command.h"
#include "engine/report/env.h"

namespace fitrank::cli {

int RunRulesExplain(Context& ctx, const ReportEnv& env);  // cmd_rules_explain.cc
int RunRulesTest(Context& ctx, const ReportEnv& env);     // cmd_rules_test.cc
int RunRulesDiff(Context& ctx, const ReportEnv& env);     // cmd_rules_diff.cc
int RunRulesSchema(Context& ctx);                         // cmd_rules_schema.cc
int RunLintExplain(Context& ctx);                         // cmd_rules_codes.cc

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_CMD_RULES_H_
