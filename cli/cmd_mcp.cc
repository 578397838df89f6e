// fitrank mcp: a Model Context Protocol server on stdin/stdout (cli/mcp_server.h). Each line
// read is one JSON-RPC message; each answer is written as one line and flushed at once. Tool
// calls run the commands in this process (RunCli), so the data is loaded once per session.
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/mcp_server.h"

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
  // --data DIR applies to every tool call of the session.
  std::optional<std::string> data = ctx.args.Get("data");
  McpCommandRunner run = [&data](const std::vector<std::string>& argv, std::ostream& out,
                                 std::ostream& err) {
    if (!data) return RunCli(argv, out, err);
    std::vector<std::string> with_data = argv;
    with_data.insert(with_data.begin() + 2, absl::StrCat("--data=", *data));
    return RunCli(with_data, out, err);
  };
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
          "fitrank mcp [--data DIR]   (started by an MCP client; JSON-RPC 2.0, one message a "
          "line)",
          {},
          RunMcp};
}

}  // namespace fitrank::cli
