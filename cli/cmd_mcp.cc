// fitrank mcp: a Model Context Protocol server on stdin/stdout (cli/mcp_server.h). Each line
// read is one JSON-RPC message; each answer is written as one line and flushed at once. Tool
// calls run the commands in this process (RunCli) on one Engine snapshot, loaded before the
// first message is read: the data and rules are read once per session.
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/mcp_server.h"
#include "cli/report_context.h"
#include "cli/rules_env.h"

namespace fitrank::cli {
namespace {

int RunMcp(Context& ctx) {
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "`fitrank mcp` takes no arguments; an MCP client starts it and talks on "
                     "stdin/stdout");
  }
  if (ctx.args.Has("json") || ctx.args.Has("format")) {
    throw UsageError("`fitrank mcp` always answers in JSON-RPC",
                     "drop --json/--format; each tool's result is already its command's JSON");
  }
  // One snapshot for the session: --data, --rules (or $FITRANK_DATA, $FITRANK_RULES) are
  // read here, once; a broken file ends the command now, with every problem on stderr.
  LoadReportEnv(ctx);
  const RunOptions options{.engine = ctx.engine};
  McpCommandRunner run = [&options](const std::vector<std::string>& argv, std::ostream& out,
                                    std::ostream& err) { return RunCli(argv, out, err, options); };
  std::string line;
  while (std::getline(std::cin, line)) {
    if (std::optional<std::string> answer = HandleMcpLine(line, run)) {
      *ctx.out << *answer << "\n" << std::flush;
    }
  }
  return 0;
}

}  // namespace

Command McpCommand() {
  return {"mcp",
          "serve the commands to AI agents: a Model Context Protocol server on stdin/stdout",
          "fitrank mcp [--data DIR] [--rules DIR]   (started by an MCP client; JSON-RPC 2.0, "
          "one message a line)",
          {RulesFlag()},
          RunMcp};
}

}  // namespace fitrank::cli
