#include "cli/detect_probe.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace fitrank::cli {
namespace {

int64_t NowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1'000'000;
}

bool Executable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The program's path: argv0 itself if it has a '/', else the first executable on PATH.
std::string FindProgram(const std::string& argv0) {
  if (argv0.find('/') != std::string::npos) return Executable(argv0) ? argv0 : "";
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    if (dir.empty()) continue;
    std::string candidate = absl::StrCat(dir, "/", argv0);
    if (Executable(candidate)) return candidate;
  }
  return "";
}

}  // namespace

std::string ProbeResult::Describe(const ProbeOptions& options) const {
  if (!found) return "not found";
  if (timed_out)
    return absl::StrFormat("timed out after %.1f s (killed)", options.timeout_ms / 1000.0);
  if (exit_code < 0) return "killed by a signal";
  if (exit_code != 0) return absl::StrCat("exited with status ", exit_code);
  return "ok";
}

ProbeResult RunProbe(const std::vector<std::string>& argv, const ProbeOptions& options) {
  ProbeResult r;
  if (argv.empty()) return r;
  const std::string program = FindProgram(argv[0]);
  if (program.empty()) return r;

  // Everything the child needs is prepared before fork: it only calls async-signal-safe functions.
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return r;
  const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    if (devnull >= 0) close(devnull);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    if (devnull >= 0) {
      dup2(devnull, 0);
      dup2(devnull, 2);
    }
    dup2(fds[1], 1);
    execv(program.c_str(), cargv.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the kill below reaches the group either way
  close(fds[1]);
  if (devnull >= 0) close(devnull);
  r.found = true;

  const int64_t deadline = NowMs() + options.timeout_ms;
  char buf[65536];
  bool eof = false;
  while (!eof) {
    const int64_t left = deadline - NowMs();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;  // time is checked at the top
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) {
      eof = true;
      break;
    }
    const size_t room = options.max_output_bytes - std::min(options.max_output_bytes, r.out.size());
    if (static_cast<size_t>(got) > room) r.truncated = true;
    r.out.append(buf, std::min(room, static_cast<size_t>(got)));
  }
  close(fds[0]);

  // Stdout closed: the tool should exit now; wait for it until the deadline, polling its
  // status every 10 ms.
  int status = 0;
  pid_t waited = 0;
  while (!r.timed_out) {
    waited = waitpid(pid, &status, WNOHANG);
    if (waited == pid || (waited < 0 && errno != EINTR)) break;
    if (NowMs() >= deadline) {
      r.timed_out = true;
      break;
    }
    poll(nullptr, 0, 10);
  }
  if (r.timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return r;
  }
  if (waited == pid && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace fitrank::cli
