// The Model Context Protocol server behind `fitrank mcp`: JSON-RPC 2.0 messages, one per line.
//
// HandleMcpLine() is the whole protocol as a function of one input line: it returns the one
// line to write back (without the newline), or nothing (a notification, a blank line). It does
// no I/O of its own; tools run through the `run` callback (RunCli in the server), so tests and
// the fuzzer drive it directly. The protocol (shared/reference/formats.md):
//   initialize          -> {protocolVersion, capabilities {tools}, serverInfo {name, version}}
//                          protocolVersion is the client's if this server speaks it, else
//                          kMcpProtocolVersion.
//   ping                -> {}
//   tools/list          -> {tools: [{name, description, inputSchema}]} (cli/mcp_tools.h)
//   tools/call          -> {content: [{type: "text", text}], structuredContent, isError}
//       The command ran: its --json report is `structuredContent` and, compact, the text;
//       what it wrote on stderr (e.g. "Using the detected setup: ..." when no GPU was named)
//       follows as a second text.
//       The command refused (exit 2: an unknown GPU, a bad mode) or had no answer without a
//       report (exit 1): isError true, the text is its message and hint ("did you mean ...").
//   notifications/*     -> no answer
// JSON-RPC errors: -32700 the line is not JSON; -32600 not a request (not an object, no
// "jsonrpc": "2.0", no method, a batch array); -32601 unknown method (with a did-you-mean);
// -32602 bad params: an unknown tool or argument (with a did-you-mean), a missing argument or
// a value of the wrong type; the hint is in the message and in error.data.hint.
//
// Thread safety: HandleMcpLine is reentrant; `run` is called on the caller's thread.
#ifndef FITRANK_CLI_MCP_SERVER_H_
#define FITRANK_CLI_MCP_SERVER_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::cli {

// The newest protocol revision this server speaks; it also accepts 2025-03-26 and 2024-11-05
// (the tool messages it uses are the same in all three).
inline constexpr absl::string_view kMcpProtocolVersion = "2025-06-18";

// Runs one command line (argv[0] = "fitrank"), like RunCli: returns the exit code.
using McpCommandRunner = std::function<int(const std::vector<std::string>& argv,
                                           std::ostream& out, std::ostream& err)>;

// One JSON-RPC message in, zero or one out. Never throws; output is always one line of
// valid UTF-8 JSON (invalid bytes in a tool's output are replaced by U+FFFD).
std::optional<std::string> HandleMcpLine(absl::string_view line, const McpCommandRunner& run);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_MCP_SERVER_H_
