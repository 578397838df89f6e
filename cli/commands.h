// One factory per command, defined in cmd_<name>.cc; commands.cc lists them in help order.
#ifndef FITRANK_CLI_COMMANDS_H_
#define FITRANK_CLI_COMMANDS_H_

#include "cli/command.h"

namespace fitrank::cli {

Command CatalogCommand();    // cmd_catalog.cc
Command RecommendCommand();  // cmd_recommend.cc
Command GpuCommand();        // cmd_gpu.cc
Command FitCommand();        // cmd_fit.cc
Command UpgradeCommand();    // cmd_upgrade.cc
Command CompareCommand();    // cmd_compare.cc
Command EstimateCommand();   // cmd_estimate.cc
Command CalibrateCommand();  // cmd_calibrate.cc
Command RulesCommand();      // cmd_rules.cc
Command SweepCommand();      // cmd_sweep.cc
Command McpCommand();        // cmd_mcp.cc
Command ServeCommand();      // cmd_serve.cc
Command DetectCommand();     // cmd_detect.cc

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_COMMANDS_H_
