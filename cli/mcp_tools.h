// The tools `fitrank mcp` offers to agents, and how a tool call becomes a command line.
//
// Each MCP tool is one fitrank command run with `--json`: the tool's arguments (a JSON object)
// become the command's flags and positional words, so the CLI stays the one place that parses,
// checks and renders, and the result is the command's own report JSON. Argument names are the
// flag names with `_` for `-` (`min_grade` -> `--min-grade`); an argument's description is the
// flag's help text from the command table (cli/commands.cc), so both always agree.
//
// What is checked here is only the shape a JSON Schema states (known names, types, required
// arguments); the values (an unknown GPU, a bad mode) are checked by the command itself, whose
// usage errors carry the did-you-mean hints.
//
// Thread safety: McpTools() is built once and immutable; the functions are pure.
#ifndef FITRANK_CLI_MCP_TOOLS_H_
#define FITRANK_CLI_MCP_TOOLS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {

enum class McpArgType {
  kString,
  kStringList,  // a JSON array of strings; a single string is taken as a list of one
  kInteger,
  kNumber,
  kBoolean,  // a switch: true writes `--flag`, false leaves it out
};

struct McpArg {
  std::string name;      // JSON property, e.g. "min_grade"
  std::string flag;      // the command's flag without dashes ("min-grade"); "" = positional
  McpArgType type = McpArgType::kString;
  bool required = false;
  std::string description;               // "" = the flag's help (positionals must set it)
  std::vector<std::string> enum_values;  // when the command accepts a fixed set only
  int min_items = 0;                     // kStringList: the fewest entries
};

struct McpTool {
  std::string name;     // tool name == command name ("recommend")
  std::string summary;  // one line added before the command's own summary
  std::vector<McpArg> args;
};

// recommend, fit, gpu, compare, upgrade, estimate, detect, in that order. Where the command
// can use the detected setup (no --gpu), the GPU argument is optional: left out, the command
// probes this machine (cli/detect.h) and says so on stderr, which the server adds to the
// result's text (cli/mcp_server.h).
const std::vector<McpTool>& McpTools();

// The tool (nullptr if none is called `name`).
const McpTool* FindMcpTool(absl::string_view name);

// {"name", "description", "inputSchema"} as `tools/list` lists it. The description is
// `summary` plus the command's summary; a property's description is its flag's help unless
// the argument says otherwise (the GPU list, whose CLI help speaks of repeating a flag).
nlohmann::ordered_json McpToolListing(const McpTool& tool);

// A problem with a call's arguments: "unknown argument `gpuu`" + "did you mean `gpu`?".
struct McpArgProblem {
  std::string message;
  std::string hint;
};

// The command line for a call: {"fitrank", tool, "--flag=value"..., "--json", "--",
// positional...} (after `--` a name that starts with a dash is still a name).
// `arguments` must be an object (or null: no arguments). Returns nullopt and fills `problem`
// for an unknown or missing argument or a value of the wrong type. Numbers are written back
// as the shortest text that reads as the same value; integers must be whole.
std::optional<std::vector<std::string>> McpToolArgv(const McpTool& tool,
                                                    const nlohmann::ordered_json& arguments,
                                                    McpArgProblem* problem);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_MCP_TOOLS_H_
