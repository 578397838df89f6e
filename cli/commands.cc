// The table of fitrank's commands. Each command's code lives in cmd_<name>.cc.
#include "cli/commands.h"

namespace fitrank::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      RecommendCommand(),
      GpuCommand(),
      FitCommand(),
      UpgradeCommand(),
      CompareCommand(),
      EstimateCommand(),
      CalibrateCommand(),
      RulesCommand(),
      SweepCommand(),
      CatalogCommand(),
      McpCommand(),
      ServeCommand(),
      DetectCommand(),
  };
  return kCommands;
}

}  // namespace fitrank::cli
