// What the report commands (recommend, gpu, fit, upgrade, compare) share: the engine snapshot
// (ctx.engine, or loaded once per process and data source), parsing the setup flags,
// resolving workload and mode names, and printing a report.
//
// Loading errors print every diagnostic and end the command with exit 2 (ExitNow). Unknown
// names are UsageErrors with a did-you-mean (exit 2).
#ifndef FITRANK_CLI_REPORT_CONTEXT_H_
#define FITRANK_CLI_REPORT_CONTEXT_H_

#include <string>
#include <vector>

#include "cli/command.h"
#include "engine/engine.h"
#include "engine/report/env.h"

namespace fitrank::cli {

// The snapshot's report environment (every member non-null; `traits` null unless
// `trait_books`: only `gpu`, `compare` and rule tooling read them). Sets ctx.engine when it
// loads.
const ReportEnv& LoadReportEnv(Context& ctx, bool trait_books = true);

// The setup flags every report command declares: --gpu (repeatable), --gpus, --ram, --mode.
// --gpu (optional), --gpus, --ram, --mode and --rules (RulesFlag, cli/rules_env.h).
std::vector<FlagSpec> SetupFlags(bool gpu_flag = true);

// Builds the setup from --gpu/--gpus/--ram (and `extra_gpus`, e.g. a positional GPU name).
// Throws UsageError for no GPU, --gpus without exactly one kind, an unknown name, or a setup
// the estimator refuses.
Setup ParseSetup(Context& ctx, const ReportEnv& env, std::vector<std::string> extra_gpus = {});

// Names become profiles here, once: --mode (absent: the default mode); --workload (absent:
// `def`; "all" expands to every workload where `allow_all`).
const Mode& ResolveModeFlag(Context& ctx, const ReportEnv& env);
const Workload& ResolveWorkload(const ReportEnv& env, const std::string& name);
std::vector<const Workload*> ResolveWorkloadFlag(Context& ctx, const ReportEnv& env,
                                                 const std::string& def, bool allow_all);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_REPORT_CONTEXT_H_
