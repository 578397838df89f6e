// What every fitrank subcommand gets and declares.
//
// A command is a row in the table of commands.cc: its name, one-line summary, usage, flags and
// the function that runs it. Commands are thin: they build a query, call the engine, and
// render the report in the requested format. They return an exit code (0 success, 1 the query
// had no answer, 2 bad input) and report usage problems by throwing UsageError (args.h).
#ifndef FITRANK_CLI_COMMAND_H_
#define FITRANK_CLI_COMMAND_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "base/file_source.h"
#include "cli/args.h"
#include "cli/render_text.h"
#include "engine/engine.h"

namespace fitrank::cli {

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown, kJsonl };
// Sets of formats, a bit per OutputFormat (Command::formats).
constexpr uint32_t FormatBit(OutputFormat f) { return 1u << static_cast<int>(f); }
inline constexpr uint32_t kEveryFormat = FormatBit(OutputFormat::kJsonl) * 2 - 1;  // the last
inline constexpr uint32_t kTableOrJson =
    FormatBit(OutputFormat::kTable) | FormatBit(OutputFormat::kJson);

struct Context {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  Args args;
  // The data tree: embedded, overlaid by --data DIR / $FITRANK_DATA.
  std::shared_ptr<const FileSource> data;
  // The loaded snapshot to answer from, when the caller has one (a server, an MCP session);
  // null: commands load what they need from `data` and the local rules, once per process.
  std::shared_ptr<const Engine> engine;
  // The size limit on every file read from disk (--max-file-mb; base/read_file.h).
  int64_t max_file_bytes = kDefaultMaxFileBytes;
  OutputFormat format = OutputFormat::kTable;
  bool color = false;  // stdout is a TTY and NO_COLOR is unset
  bool tty = false;    // stderr is a TTY (progress display allowed)
  // Columns text output fits in (cli/terminal_width.h); 0: no limit.
  size_t width = 0;
  // The text style for this run: colour and width.
  Style style() const { return Style{color, width}; }
};

struct Command {
  std::string name;     // "estimate"
  std::string summary;  // one line for `fitrank help`
  std::string usage;    // "fitrank estimate --gpu NAME [--gpu NAME ...] ..."
  std::vector<FlagSpec> flags;
  int (*run)(Context& ctx) = nullptr;
  // The formats it prints; `--format` naming another is refused (exit 2), never ignored.
  uint32_t formats = kEveryFormat;
};

// All commands, in help order.
const std::vector<Command>& Commands();

// Flags every command accepts: --json, --format, --data, --max-file-mb, --help.
const std::vector<FlagSpec>& CommonFlags();

// A usage error (exit 2) as RunCli printed it, structured for callers that answer in JSON
// (the HTTP API): UsageError's message, hint, code and candidates.
struct UsageProblem {
  std::string code;
  std::string message;
  std::string hint;
  std::vector<std::string> candidates;
};

struct RunOptions {
  bool out_is_tty = false;  // colour the output
  bool err_is_tty = false;  // progress displays allowed on `err`
  // Answer from this snapshot instead of loading one (a long-running server or MCP session
  // loads once and swaps snapshots on reload). With an engine, --data and --rules are usage
  // errors: the snapshot's sources are fixed.
  std::shared_ptr<const Engine> engine;
  // When the command ends with a usage error and this is not null, *problem receives it (it
  // is printed to `err` as well).
  UsageProblem* problem = nullptr;
};

// Runs fitrank with `argv` (argv[0] is the program name), writing to `out`/`err`.
// Returns the exit code: 0, 1 or 2, whatever the input. Never throws. Thread-safe: concurrent
// calls share only the immutable snapshots (`options.engine`, or the ones loaded and cached per data source).
int RunCli(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
           const RunOptions& options);
int RunCli(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
           bool out_is_tty = false, bool err_is_tty = false);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_COMMAND_H_
