// Command-line parsing for fitrank's subcommands.
//
// Syntax: `fitrank COMMAND [SUBCOMMAND] [--flag value | --flag=value | --switch] [POSITIONAL...]`.
// Each command declares its flags; an unknown flag, a missing value or a bad number is a usage
// error (exit 2) with a did-you-mean. Flags may repeat only if declared repeatable.
//
// Usage errors are raised as UsageError inside the cli module and turned into a message and
// exit code 2 by RunCli(); they never leave the module.
#ifndef FITRANK_CLI_ARGS_H_
#define FITRANK_CLI_ARGS_H_

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace fitrank::cli {

// A problem with what the user typed. `hint` is optional. `code` is a stable identifier for
// programs (the HTTP API's error objects): "bad_input" unless set, "unknown_name",
// "ambiguous_name", "bad_number", "out_of_range", "unknown_flag". `candidates` are the names
// the user may have meant (did-you-mean suggestions, or an ambiguous name's matches).
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(std::string message, std::string hint = "", std::string code = "bad_input",
                      std::vector<std::string> candidates = {})
      : std::runtime_error(message),
        hint_(std::move(hint)),
        code_(std::move(code)),
        candidates_(std::move(candidates)) {}
  const std::string& hint() const { return hint_; }
  const std::string& code() const { return code_; }
  const std::vector<std::string>& candidates() const { return candidates_; }

 private:
  std::string hint_;
  std::string code_;
  std::vector<std::string> candidates_;
};

// Ends the command with `code` after the command has already printed why (e.g. the data
// files' diagnostics). Caught by RunCli().
class ExitNow : public std::exception {
 public:
  explicit ExitNow(int code) : code_(code) {}
  int code() const { return code_; }
  const char* what() const noexcept override { return "exit"; }

 private:
  int code_;
};

struct FlagSpec {
  std::string name;         // without dashes: "gpu"
  std::string value_name;   // "NAME"; empty for a switch
  std::string help;
  bool repeatable = false;
};

class Args {
 public:
  // Parses `argv` (after the command words) against `flags`. Throws UsageError.
  static Args Parse(const std::vector<std::string>& argv, const std::vector<FlagSpec>& flags);

  const std::vector<std::string>& positional() const { return positional_; }
  bool Has(absl::string_view flag) const;
  // Last value of `flag`, if given.
  std::optional<std::string> Get(absl::string_view flag) const;
  std::string GetOr(absl::string_view flag, std::string def) const;
  // Every value of a repeatable flag, in order.
  std::vector<std::string> GetAll(absl::string_view flag) const;
  // Numeric values, in plain decimal only (base/numbers.h: no hex, "inf" or "nan"); throw
  // UsageError naming the flag if not a number, or if outside [min, max], with the range in
  // `unit` ("GB", "tokens") in the message.
  std::optional<double> GetDouble(absl::string_view flag, double min, double max,
                                  absl::string_view unit = "") const;
  std::optional<int> GetInt(absl::string_view flag, int min, int max,
                            absl::string_view unit = "") const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
};

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_ARGS_H_
