// Reading a file the user named on the command line (`--measurements F`, `--model-config F`,
// `rules lint|test PATHS`), under the input contract of SECURITY.md: opened once, a regular
// file only, at most the --max-file-mb limit (Context::max_file_bytes).
#ifndef FITRANK_CLI_INPUT_FILE_H_
#define FITRANK_CLI_INPUT_FILE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "cli/command.h"

namespace fitrank::cli {

// The content of `path`. Throws UsageError (exit 2) naming the path and what is wrong, with
// `hint` (what the file should be, e.g. "give the path of a Hugging Face config.json") when
// the file is missing or not a regular file, and the flag to raise the limit when too large.
std::string ReadInputFile(const Context& ctx, const std::string& path, absl::string_view hint);

// The --max-file-mb flag every command takes, and its value in bytes (default 64 MB).
FlagSpec MaxFileFlag();
int64_t MaxFileBytes(const Args& args);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_INPUT_FILE_H_
