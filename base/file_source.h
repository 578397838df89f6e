// The one interface through which fitrank reads data files (catalog, rules, profiles,
// estimator constants). Tests and fuzzers use MemorySource and never touch the disk.
//
// Paths are relative and use '/', e.g. "catalog/gpus.yaml", "rules/fit.yaml". The shipped
// tree is embedded in the binary (EmbeddedSource); `--data DIR` stacks a DiskSource over it
// (OverlaySource): a file present in DIR replaces the embedded file of the same path, and
// List() returns the union.
//
// All implementations are immutable after construction and safe to share across threads.
#ifndef FITRANK_BASE_FILE_SOURCE_H_
#define FITRANK_BASE_FILE_SOURCE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "base/read_file.h"

namespace fitrank {

class FileSource {
 public:
  virtual ~FileSource() = default;
  // The content of `path`, or a NotFound status when the source has no such file. Any other
  // error (a directory or FIFO where the file should be, a file over the size limit, an
  // unreadable file) is not NotFound, so that an overlay reports it instead of falling back.
  virtual absl::StatusOr<std::string> Read(absl::string_view path) const = 0;
  // What Read(path) would return, without reading: OK, NotFound or the error. The default
  // reads; DiskSource and EmbeddedSource answer without reading.
  virtual absl::Status Stat(absl::string_view path) const { return Read(path).status(); }
  // Files directly under `dir` whose names end in `suffix`, as full relative paths, sorted.
  virtual std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const = 0;
  // The name to show in diagnostics for `path` (the real path for disk files).
  virtual std::string DisplayName(absl::string_view path) const = 0;
  // The bytes of `path` if this source serves it straight from the data embedded in the
  // binary (no copy, valid for the whole process), else nullopt. Readers use it to take the
  // build-time YAML image of a shipped file without reading its text.
  virtual std::optional<absl::string_view> Embedded(absl::string_view path) const {
    return std::nullopt;
  }
};

// The data tree compiled into the binary (see cmake/embed.cmake).
class EmbeddedSource : public FileSource {
 public:
  absl::StatusOr<std::string> Read(absl::string_view path) const override;
  absl::Status Stat(absl::string_view path) const override;
  std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const override;
  std::string DisplayName(absl::string_view path) const override;
  std::optional<absl::string_view> Embedded(absl::string_view path) const override;
};

// The embedded files as plain text: Embedded() is not offered, so readers take their text path
// (as for a --data file) instead of a build-time image. For tests and benchmarks that compare
// the two paths.
class EmbeddedTextSource : public FileSource {
 public:
  absl::StatusOr<std::string> Read(absl::string_view path) const override {
    return inner_.Read(path);
  }
  std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const override {
    return inner_.List(dir, suffix);
  }
  std::string DisplayName(absl::string_view path) const override {
    return inner_.DisplayName(path);
  }

 private:
  EmbeddedSource inner_;
};

// Files under a directory on disk, each read through ReadRegularFile (base/read_file.h): a
// regular file of at most `max_file_bytes`, else an error naming the path. List() lists
// regular files only.
class DiskSource : public FileSource {
 public:
  explicit DiskSource(std::string root, int64_t max_file_bytes = kDefaultMaxFileBytes)
      : root_(std::move(root)), max_file_bytes_(max_file_bytes) {}
  absl::StatusOr<std::string> Read(absl::string_view path) const override;
  absl::Status Stat(absl::string_view path) const override;
  std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const override;
  std::string DisplayName(absl::string_view path) const override;

 private:
  std::string root_;
  int64_t max_file_bytes_;
};

// `top` shadows `bottom` file by file.
class OverlaySource : public FileSource {
 public:
  OverlaySource(std::shared_ptr<const FileSource> top, std::shared_ptr<const FileSource> bottom)
      : top_(std::move(top)), bottom_(std::move(bottom)) {}
  absl::StatusOr<std::string> Read(absl::string_view path) const override;
  absl::Status Stat(absl::string_view path) const override;
  std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const override;
  std::string DisplayName(absl::string_view path) const override;
  // The bottom's embedded bytes, unless the top has the file.
  std::optional<absl::string_view> Embedded(absl::string_view path) const override;

 private:
  std::shared_ptr<const FileSource> top_, bottom_;
};

// An in-memory tree, for tests.
class MemorySource : public FileSource {
 public:
  MemorySource() = default;
  explicit MemorySource(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  void Set(std::string path, std::string content) { files_[std::move(path)] = std::move(content); }
  absl::StatusOr<std::string> Read(absl::string_view path) const override;
  std::vector<std::string> List(absl::string_view dir, absl::string_view suffix) const override;
  std::string DisplayName(absl::string_view path) const override { return std::string(path); }

 private:
  std::map<std::string, std::string> files_;
};

// The embedded tree, overlaid by `data_dir` when it is not empty. `data_dir` comes from
// --data, else the FITRANK_DATA environment variable. Files of `data_dir` are read with
// `max_file_bytes` as their size limit.
std::shared_ptr<const FileSource> DefaultSource(absl::string_view data_dir,
                                                int64_t max_file_bytes = kDefaultMaxFileBytes);

// The data directory DefaultSource would overlay (`data_dir`, else $FITRANK_DATA, else ""),
// checked: an error naming the directory (and whether it came from --data or FITRANK_DATA)
// if it does not exist, is not a directory or cannot be listed.
absl::StatusOr<std::string> DataDir(absl::string_view data_dir);

// The raw embedded table, generated at build time.
struct EmbeddedFile {
  const char* path;
  const char* begin;
  const char* end;
};
const std::vector<EmbeddedFile>& EmbeddedFiles();
// YamlTree images of the embedded .yaml files, path + ".img" (base/yaml_tree.h).
const std::vector<EmbeddedFile>& EmbeddedYamlImages();

}  // namespace fitrank

#endif  // FITRANK_BASE_FILE_SOURCE_H_
