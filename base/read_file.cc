#include "base/read_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fitrank {
namespace {

absl::Status KindError(const std::string& path, mode_t mode) {
  if (S_ISDIR(mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": is a directory, not a file"));
  }
  return absl::FailedPreconditionError(
      absl::StrCat(path, ": is not a regular file (a FIFO, device or socket)"));
}

absl::Status OpenError(const std::string& path, int err) {
  if (err == ENOENT || err == ENOTDIR) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  const std::string what = absl::StrCat(path, ": cannot read: ", std::strerror(err));
  return err == EACCES ? absl::PermissionDeniedError(what) : absl::UnknownError(what);
}

absl::Status TooLarge(const std::string& path, int64_t max_bytes) {
  return absl::ResourceExhaustedError(
      absl::StrCat(path, ": is larger than the ", SizeText(max_bytes),
                   " limit on input files (raise it with --max-file-mb)"));
}

}  // namespace

std::string SizeText(int64_t bytes) {
  if (bytes < (1 << 20)) return absl::StrCat(bytes, " bytes");
  const double mb = static_cast<double>(bytes) / (1 << 20);
  if (bytes % (1 << 20) == 0) return absl::StrCat(bytes >> 20, " MB");
  return absl::StrFormat("%.1f MB", mb);
}

absl::StatusOr<std::string> ReadRegularFile(const std::string& path, int64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO without a writer must not wait; the fstat below then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return OpenError(path, errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) return OpenError(path, errno);
  if (!S_ISREG(st.st_mode)) return KindError(path, st.st_mode);
  if (st.st_size > max_bytes) return TooLarge(path, max_bytes);
  std::string out;
  out.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  // The file may grow while it is read: read until end of file, and stop at the limit.
  while (true) {
    if (got == out.size()) {
      if (static_cast<int64_t>(got) >= max_bytes + 1) break;
      out.resize(static_cast<size_t>(std::min<int64_t>(max_bytes + 1, got + 65536)));
    }
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return OpenError(path, errno);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (static_cast<int64_t>(got) > max_bytes) return TooLarge(path, max_bytes);
  out.resize(got);
  return out;
}

absl::Status CheckRegularFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return OpenError(path, errno);
  if (!S_ISREG(st.st_mode)) return KindError(path, st.st_mode);
  return absl::OkStatus();
}

absl::Status CheckDirectory(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return absl::NotFoundError(absl::StrCat(path, ": no such directory"));
    }
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot list: ", std::strerror(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": is not a directory"));
  }
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot list: ", std::strerror(errno)));
  }
  ::closedir(dir);
  return absl::OkStatus();
}

}  // namespace fitrank
