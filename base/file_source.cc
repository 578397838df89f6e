#include "base/file_source.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fitrank {
namespace {

// True if `path` is directly under `dir` and ends in `suffix`.
bool InDir(absl::string_view path, absl::string_view dir, absl::string_view suffix) {
  std::string prefix = dir.empty() ? "" : absl::StrCat(dir, "/");
  if (!absl::StartsWith(path, prefix) || !absl::EndsWith(path, suffix)) return false;
  return path.substr(prefix.size()).find('/') == absl::string_view::npos;
}

}  // namespace

absl::StatusOr<std::string> EmbeddedSource::Read(absl::string_view path) const {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (path == f.path) return std::string(f.begin, f.end);
  }
  return absl::NotFoundError(absl::StrCat("no embedded file ", path));
}

std::vector<std::string> EmbeddedSource::List(absl::string_view dir,
                                              absl::string_view suffix) const {
  std::vector<std::string> out;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (InDir(f.path, dir, suffix)) out.emplace_back(f.path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string EmbeddedSource::DisplayName(absl::string_view path) const { return std::string(path); }

std::optional<absl::string_view> EmbeddedSource::Embedded(absl::string_view path) const {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (path == f.path) return absl::string_view(f.begin, f.end - f.begin);
  }
  return std::nullopt;
}

absl::Status EmbeddedSource::Stat(absl::string_view path) const {
  if (Embedded(path)) return absl::OkStatus();
  return absl::NotFoundError(absl::StrCat("no embedded file ", path));
}

absl::StatusOr<std::string> DiskSource::Read(absl::string_view path) const {
  return ReadRegularFile(DisplayName(path), max_file_bytes_);
}

absl::Status DiskSource::Stat(absl::string_view path) const {
  return CheckRegularFile(DisplayName(path));
}

std::vector<std::string> DiskSource::List(absl::string_view dir, absl::string_view suffix) const {
  std::vector<std::string> out;
  std::error_code ec;
  std::filesystem::path base = std::filesystem::path(root_) / std::string(dir);
  for (auto it = std::filesystem::directory_iterator(base, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string name = it->path().filename().string();
    if (!absl::EndsWith(name, suffix)) continue;
    out.push_back(dir.empty() ? name : absl::StrCat(dir, "/", name));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string DiskSource::DisplayName(absl::string_view path) const {
  if (root_.empty()) return std::string(path);
  return (std::filesystem::path(root_) / std::string(path)).string();
}

absl::StatusOr<std::string> OverlaySource::Read(absl::string_view path) const {
  auto top = top_->Read(path);
  if (top.ok() || !absl::IsNotFound(top.status())) return top;
  return bottom_->Read(path);
}

absl::Status OverlaySource::Stat(absl::string_view path) const {
  absl::Status top = top_->Stat(path);
  if (!absl::IsNotFound(top)) return top;
  return bottom_->Stat(path);
}

std::optional<absl::string_view> OverlaySource::Embedded(absl::string_view path) const {
  if (auto top = top_->Embedded(path)) return top;
  if (!absl::IsNotFound(top_->Stat(path))) return std::nullopt;
  return bottom_->Embedded(path);
}

std::vector<std::string> OverlaySource::List(absl::string_view dir,
                                             absl::string_view suffix) const {
  std::set<std::string> all;
  for (auto& p : top_->List(dir, suffix)) all.insert(p);
  for (auto& p : bottom_->List(dir, suffix)) all.insert(p);
  return {all.begin(), all.end()};
}

std::string OverlaySource::DisplayName(absl::string_view path) const {
  // A file the top has, or cannot serve (a directory in its place): the top's name, so that
  // the error names the path the user gave.
  if (!absl::IsNotFound(top_->Stat(path))) return top_->DisplayName(path);
  return bottom_->DisplayName(path);
}

absl::StatusOr<std::string> MemorySource::Read(absl::string_view path) const {
  auto it = files_.find(std::string(path));
  if (it == files_.end()) return absl::NotFoundError(absl::StrCat("no file ", path));
  return it->second;
}

std::vector<std::string> MemorySource::List(absl::string_view dir, absl::string_view suffix) const {
  std::vector<std::string> out;
  for (const auto& [path, content] : files_) {
    if (InDir(path, dir, suffix)) out.push_back(path);
  }
  return out;
}

std::shared_ptr<const FileSource> DefaultSource(absl::string_view data_dir,
                                                int64_t max_file_bytes) {
  std::string dir(data_dir);
  if (dir.empty()) {
    if (const char* env = std::getenv("FITRANK_DATA")) dir = env;
  }
  auto embedded = std::make_shared<EmbeddedSource>();
  if (dir.empty()) return embedded;
  return std::make_shared<OverlaySource>(std::make_shared<DiskSource>(dir, max_file_bytes),
                                         embedded);
}

absl::StatusOr<std::string> DataDir(absl::string_view data_dir) {
  std::string dir(data_dir);
  const bool from_env = dir.empty();
  if (from_env) {
    if (const char* env = std::getenv("FITRANK_DATA")) dir = env;
  }
  if (dir.empty()) return dir;
  absl::Status st = CheckDirectory(dir);
  if (!st.ok()) {
    return absl::Status(st.code(), absl::StrCat(from_env ? "FITRANK_DATA " : "--data ",
                                                st.message()));
  }
  return dir;
}

}  // namespace fitrank
