// libFuzzer target for the MCP server's JSON-RPC layer (cli/mcp_server.h): any bytes as one
// input line. The answer, when there is one, must be one line of valid JSON. Tool calls run
// the real commands in process, so well-formed calls reach the CLI too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cli/command.h"
#include "cli/mcp_server.h"
#include "nlohmann/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fitrank::cli::McpCommandRunner run =
      [](const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
        return fitrank::cli::RunCli(argv, out, err);
      };
  std::string line(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> answer = fitrank::cli::HandleMcpLine(line, run);
  if (answer) {
    if (answer->find('\n') != std::string::npos) std::abort();
    if (!nlohmann::json::accept(*answer)) std::abort();
  }
  return 0;
}
