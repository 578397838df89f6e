// Running a hardware tool (nvidia-smi, rocm-smi, ...) safely for `fitrank detect`.
//
// The tool is found on PATH and run with fork/exec (never through a shell), its stdin from
// /dev/null, its stderr discarded, in its own process group. Its stdout is read up to a byte
// cap; a tool that runs past the timeout is killed (SIGKILL to the whole group) and reported as
// timed out. A missing tool is not an error: `found` is false.
//
// Thread safety: safe to call from several threads (no shared state); it forks, so callers
// must not hold locks a child would need (the child only calls async-signal-safe functions
// before exec).
#ifndef FITRANK_CLI_DETECT_PROBE_H_
#define FITRANK_CLI_DETECT_PROBE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace fitrank::cli {

struct ProbeOptions {
  int timeout_ms = 3000;              // kill the tool after this long
  size_t max_output_bytes = 1 << 20;  // stdout beyond this is discarded (and `truncated` set)
};

struct ProbeResult {
  bool found = false;      // the program exists on PATH and could be started
  bool timed_out = false;  // killed after timeout_ms
  bool truncated = false;  // stdout was longer than max_output_bytes
  int exit_code = -1;      // the tool's exit status; -1 if it was killed by a signal
  std::string out;         // stdout (at most max_output_bytes)

  // Ran and exited 0 in time.
  bool ok() const { return found && !timed_out && exit_code == 0; }
  // For notes: "not found", "timed out after 3.0 s (killed)", "exited with status 2".
  std::string Describe(const ProbeOptions& options) const;
};

// Runs argv[0] (looked up on PATH unless it contains '/') with the arguments argv[1..].
ProbeResult RunProbe(const std::vector<std::string>& argv, const ProbeOptions& options = {});

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_DETECT_PROBE_H_
