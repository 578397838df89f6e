#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <new>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/text.h"
#include "cli/command.h"
#include "cli/input_file.h"
#include "cli/terminal_width.h"
#include "cli/version.h"

namespace fitrank::cli {

const std::vector<FlagSpec>& CommonFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"json", "", "print stable JSON instead of a table"},
      {"format", "FMT", "table | json | csv | markdown | jsonl (where rows make sense)"},
      {"data", "DIR", "data tree overriding the embedded one (also $FITRANK_DATA)"},
      MaxFileFlag(),
      {"help", "", "show this command's usage (also -h)"},
      {"no-color", "", "no colour codes even on a terminal (also $NO_COLOR)"},
  };
  return kFlags;
}

namespace {

void PrintHelp(std::ostream& out) {
  out << "fitrank: which AI models run on your hardware, how fast, and what to buy next.\n\n"
         "Usage: fitrank COMMAND [flags]\n\nCommands:\n";
  for (const Command& c : Commands()) {
    out << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ')
        << c.summary << "\n";
  }
  out << "\nRun `fitrank COMMAND --help` for a command's flags. Exit codes: 0 success, "
         "1 no answer, 2 bad input.\n";
}

void PrintUsage(const Command& c, std::ostream& out) {
  out << "Usage: " << c.usage << "\n\n" << c.summary << "\n\nFlags:\n";
  auto print = [&](const FlagSpec& f) {
    std::string left = absl::StrCat("--", f.name, f.value_name.empty() ? "" : " ", f.value_name);
    out << "  " << left << std::string(left.size() < 22 ? 22 - left.size() : 1, ' ') << f.help
        << (f.repeatable ? " (repeatable)" : "") << "\n";
  };
  for (const FlagSpec& f : c.flags) print(f);
  for (const FlagSpec& f : CommonFlags()) print(f);
}

// The names `--format` takes, by OutputFormat.
constexpr const char* kFormatNames[] = {"table", "json", "csv", "markdown", "jsonl"};

// The format the flags ask for, if `command` prints it.
OutputFormat ParseFormat(const Args& args, const Command& command) {
  const bool json = args.Has("json");
  std::string f = args.GetOr("format", json ? "json" : "table");
  if (json && f != "json") {
    // Two formats asked for: printing one silently would surprise whoever scripted the other.
    throw UsageError(absl::StrCat("`--json` and `--format ", f, "` ask for two formats"),
                     absl::StrCat("give one: `--json` or `--format ", f, "`"));
  }
  if (f == "md") f = "markdown";
  const auto* name = std::find(std::begin(kFormatNames), std::end(kFormatNames), f);
  if (name == std::end(kFormatNames)) {
    throw UsageError(absl::StrCat("unknown format `", f, "`"),
                     DidYouMean(ClosestMatches(f, {std::begin(kFormatNames),
                                                   std::end(kFormatNames)})));
  }
  const auto format = static_cast<OutputFormat>(name - std::begin(kFormatNames));
  if ((command.formats & FormatBit(format)) == 0) {
    std::vector<std::string> printed;
    for (int i = 0; i < static_cast<int>(std::size(kFormatNames)); ++i) {
      if (command.formats & FormatBit(static_cast<OutputFormat>(i))) {
        printed.push_back(kFormatNames[i]);
      }
    }
    throw UsageError(absl::StrCat("`fitrank ", command.name, "` has no ", f, " output"),
                     absl::StrCat("it prints ", absl::StrJoin(printed, " or "),
                                  " (--format ", absl::StrJoin(printed, "|"), ")"));
  }
  return format;
}

}  // namespace

int RunCli(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
           bool out_is_tty, bool err_is_tty) {
  return RunCli(argv, out, err, RunOptions{out_is_tty, err_is_tty, nullptr});
}

namespace {

// Global flags may come before the command (`fitrank --json recommend ...`): moves them after
// it, where every command parses them. Switches: --json, --no-color; with a value: --format,
// --data, --rules (as `--flag value` or `--flag=value`).
std::vector<std::string> GlobalFlagsAfterCommand(const std::vector<std::string>& argv) {
  static const std::set<std::string> kSwitches = {"--json", "--no-color"};
  static const std::set<std::string> kValued = {"--format", "--data", "--rules", "--max-file-mb"};
  std::vector<std::string> globals;
  size_t i = 1;
  while (i < argv.size()) {
    const std::string& a = argv[i];
    const std::string name = a.substr(0, a.find('='));
    if (kSwitches.count(a)) {
      globals.push_back(a);
      ++i;
    } else if (kValued.count(name) && name != a) {
      globals.push_back(a);
      ++i;
    } else if (kValued.count(a) && i + 1 < argv.size()) {
      globals.push_back(a);
      globals.push_back(argv[i + 1]);
      i += 2;
    } else {
      break;
    }
  }
  if (globals.empty()) return argv;
  std::vector<std::string> out = {argv[0]};
  out.insert(out.end(), argv.begin() + i, argv.end());
  out.insert(out.end(), globals.begin(), globals.end());
  return out;
}

}  // namespace

int RunCli(const std::vector<std::string>& given_argv, std::ostream& out, std::ostream& err,
           const RunOptions& options) {
  UsageProblem* problem = options.problem;
  const std::vector<std::string> argv = GlobalFlagsAfterCommand(given_argv);
  if (argv.size() < 2 || argv[1] == "help" || argv[1] == "--help" || argv[1] == "-h") {
    PrintHelp(out);
    return argv.size() < 2 ? 2 : 0;
  }
  if (argv[1] == "--version" || argv[1] == "version") {
    return PrintVersion(out, err);
  }
  const Command* cmd = nullptr;
  std::vector<std::string> names;
  for (const Command& c : Commands()) {
    names.push_back(c.name);
    if (c.name == argv[1]) cmd = &c;
  }
  if (cmd == nullptr) {
    err << "fitrank: error: unknown command `" << EscapeControl(Clip(argv[1])) << "`\n";
    std::vector<std::string> close = ClosestMatches(argv[1], names);
    std::string hint = DidYouMean(close);
    if (problem != nullptr) {
      *problem = {"unknown_command", absl::StrCat("unknown command `", Clip(argv[1]), "`"), hint,
                  close};
    }
    err << "  hint: " << (hint.empty() ? "run `fitrank help` for the list of commands" : hint)
        << "\n";
    return 2;
  }
  try {
    std::vector<FlagSpec> flags = cmd->flags;
    flags.insert(flags.end(), CommonFlags().begin(), CommonFlags().end());
    Context ctx;
    ctx.out = &out;
    ctx.err = &err;
    std::vector<std::string> rest(argv.begin() + 2, argv.end());
    const bool short_help = std::find(rest.begin(), rest.end(), "-h") != rest.end();
    if (short_help) {
      PrintUsage(*cmd, out);
      return 0;
    }
    ctx.args = Args::Parse(rest, flags);
    if (ctx.args.Has("help")) {
      PrintUsage(*cmd, out);
      return 0;
    }
    ctx.format = ParseFormat(ctx.args, *cmd);
    ctx.max_file_bytes = MaxFileBytes(ctx.args);
    if (options.engine != nullptr) {
      for (const char* fixed : {"data", "rules"}) {
        if (ctx.args.Has(fixed)) {
          throw UsageError(absl::StrCat("--", fixed, " cannot be set here"),
                           "this process answers from the data and rules it was started with");
        }
      }
      ctx.engine = options.engine;
      ctx.data = options.engine->sources().data;
    } else {
      absl::StatusOr<std::string> data_dir = DataDir(ctx.args.GetOr("data", ""));
      if (!data_dir.ok()) {
        throw UsageError(std::string(data_dir.status().message()),
                         "give a directory laid out like the shipped tree (catalog/, rules/, "
                         "profiles/, engine/), or none for the embedded data");
      }
      ctx.data = DefaultSource(*data_dir, ctx.max_file_bytes);
    }
    ctx.color = options.out_is_tty && std::getenv("NO_COLOR") == nullptr &&
                !ctx.args.Has("no-color");
    ctx.tty = options.err_is_tty;
    ctx.width = TerminalColumns(options.out_is_tty);
    return cmd->run(ctx);
  } catch (const ExitNow& e) {
    return e.code();
  } catch (const UsageError& e) {
    // A usage error may list candidates on lines of its own: each line is escaped, the line
    // breaks kept (names from the user are escaped where the message quotes them).
    std::vector<std::string> lines = absl::StrSplit(e.what(), '\n');
    for (std::string& line : lines) line = EscapeControl(line);
    err << "fitrank " << cmd->name << ": error: " << absl::StrJoin(lines, "\n") << "\n";
    if (!e.hint().empty()) err << "  hint: " << EscapeControl(e.hint()) << "\n";
    if (problem != nullptr) *problem = {e.code(), e.what(), e.hint(), e.candidates()};
    return 2;
  } catch (const std::bad_alloc&) {
    err << "fitrank " << cmd->name << ": error: out of memory\n"
        << "  hint: the input is too large for this machine; see SECURITY.md for the limits\n";
    return 2;
  } catch (const std::exception& e) {
    // A safety net, not the way errors are reported: readers catch their libraries'
    // exceptions and say where the input is wrong. Whatever escapes is still the input's
    // doing as far as the user can tell: exit 2, never a stack trace or another code.
    err << "fitrank " << cmd->name << ": error: " << EscapeControl(e.what()) << "\n"
        << "  hint: this input hit an unexpected path in fitrank; please report it with the "
           "command line (SECURITY.md)\n";
    return 2;
  } catch (...) {
    err << "fitrank " << cmd->name << ": error: unexpected failure\n"
        << "  hint: please report it with the command line (SECURITY.md)\n";
    return 2;
  }
}

}  // namespace fitrank::cli
