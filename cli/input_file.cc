#include "cli/input_file.h"

#include "absl/strings/str_cat.h"
#include "base/read_file.h"
#include "base/text.h"

namespace fitrank::cli {

std::string ReadInputFile(const Context& ctx, const std::string& path, absl::string_view hint) {
  absl::StatusOr<std::string> content = ReadRegularFile(path, ctx.max_file_bytes);
  if (content.ok()) return *std::move(content);
  // ReadRegularFile's message names the path and the limit flag already.
  throw UsageError(std::string(content.status().message()),
                   absl::IsResourceExhausted(content.status()) ? "" : std::string(hint));
}

FlagSpec MaxFileFlag() {
  return {"max-file-mb", "MB",
          absl::StrCat("largest input file read, in MB (default ", kDefaultMaxFileBytes >> 20, ")")};
}

int64_t MaxFileBytes(const Args& args) {
  std::optional<int> mb = args.GetInt("max-file-mb", 1, kMaxFileMbLimit, "MB");
  return mb ? int64_t{*mb} << 20 : kDefaultMaxFileBytes;
}

}  // namespace fitrank::cli
