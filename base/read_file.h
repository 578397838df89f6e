// Reading one file from disk under fitrank's input contract (SECURITY.md): the file is opened
// once, must be a regular file (a FIFO, device, socket or directory is refused at once, without
// blocking), and is read up to a size limit; every failure is a status whose message names the
// path and says what is wrong. Every reader of a user-given path goes through here (DiskSource,
// `calibrate --measurements`, `estimate --model-config`, `rules lint|test PATHS`).
//
// Thread safety: the functions are thread-safe.
#ifndef FITRANK_BASE_READ_FILE_H_
#define FITRANK_BASE_READ_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fitrank {

// The default largest file fitrank reads, in bytes: 64 MiB. The shipped catalog, the largest
// data file, is ~2 MB; a rule file is a few KB. `--max-file-mb N` raises (or lowers) it.
inline constexpr int64_t kDefaultMaxFileBytes = int64_t{64} << 20;
// The largest limit `--max-file-mb` accepts, in MiB (4 GiB: a YamlTree addresses text with
// 32-bit offsets).
inline constexpr int kMaxFileMbLimit = 4096;

// The content of the regular file `path`, at most `max_bytes` long. Errors (the message always
// starts with the path):
//   NotFound            "PATH: no such file"
//   FailedPrecondition  "PATH: is a directory, not a file" / "PATH: is not a regular file (a
//                       FIFO, device or socket)"
//   ResourceExhausted   "PATH: is larger than the 64 MB limit" (with the limit given)
//   PermissionDenied / Unknown: "PATH: cannot read: <strerror>"
absl::StatusOr<std::string> ReadRegularFile(const std::string& path,
                                            int64_t max_bytes = kDefaultMaxFileBytes);

// What kind of thing is at `path`, without opening it: OK for a regular file, the errors of
// ReadRegularFile otherwise (never ResourceExhausted).
absl::Status CheckRegularFile(const std::string& path);

// OK if `path` is a directory fitrank can list; NotFound "PATH: no such directory",
// FailedPrecondition "PATH: is not a directory", PermissionDenied "PATH: cannot list: ...".
absl::Status CheckDirectory(const std::string& path);

// "64 MB", "1.5 MB", "300 bytes": a size for messages, in MiB written as MB.
std::string SizeText(int64_t bytes);

}  // namespace fitrank

#endif  // FITRANK_BASE_READ_FILE_H_
