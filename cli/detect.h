// `fitrank detect`: what this machine has. GPUs from the vendors' tools and sysfs, the host
// from /proc, each source optional and probed safely (cli/detect_probe.h): a missing tool is
// skipped, a failing, hanging or garbled one becomes a note and detection goes on.
//
// Sources, in order (formats in shared/reference/formats.md):
//   NVIDIA  nvidia-smi --query-gpu=... --format=csv,noheader,nounits
//   AMD     rocm-smi --showproductname --showmeminfo vram --json; without it (or for cards it
//           did not list) SYSROOT/sys/class/drm/card*/device/mem_info_vram_{total,used}
//   Intel   SYSROOT/sys/class/drm/card*/device (vendor 0x8086): listed, memory unknown
//   Apple   system_profiler SPDisplaysDataType -json and sysctl -n hw.memsize
//   host    SYSROOT/proc/meminfo, SYSROOT/proc/cpuinfo, and lscpu when cpuinfo names no model
// SYSROOT is "" (the real root) unless --sysroot DIR or $FITRANK_SYSROOT says otherwise; tests
// point it at a fake tree and put fake tools first on PATH.
//
// Units: memory in decimal GB (1e9 bytes), converted from the tools' MiB/bytes/kB.
#ifndef FITRANK_CLI_DETECT_H_
#define FITRANK_CLI_DETECT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "cli/detect_probe.h"

namespace fitrank::cli {

struct DetectedGpu {
  std::string vendor;              // "NVIDIA" | "AMD" | "Intel" | "Apple"
  std::string name;                // as the source names it: "NVIDIA GeForce RTX 4090"
  double memory_total_gb = 0;      // 0: unknown
  double memory_free_gb = -1;      // < 0: unknown (Apple, sysfs without _used)
  std::string driver;              // "550.54.14"; empty: unknown
  std::string pci_id;              // "00000000:01:00.0"; empty: unknown
  std::string compute_capability;  // NVIDIA "8.9", AMD "gfx1100"; empty: unknown
  int gpu_cores = 0;               // Apple GPU cores; 0: unknown
  std::string source;              // "nvidia-smi" | "rocm-smi" | "sysfs" | "system_profiler"
};

struct DetectedHost {
  std::string cpu_model;         // "AMD Ryzen 9 7950X 16-Core Processor"; empty: unknown
  int logical_cores = 0;         // processors the kernel lists
  int physical_cores = 0;        // distinct (physical id, core id); 0: unknown
  double ram_total_gb = 0;       // MemTotal
  double ram_available_gb = -1;  // MemAvailable; < 0: unknown
  int memory_channels = 0;       // 0: unknown (not readable without root on Linux)
};

struct Detection {
  std::vector<DetectedGpu> gpus;
  DetectedHost host;
  // What could not be read, one line each: "rocm-smi: timed out after 3.0 s (killed)",
  // "nvidia-smi: line 2: expected 8 fields, got 3". Missing tools are not listed.
  std::vector<std::string> notes;
};

struct DetectOptions {
  std::string sysroot;  // prefix for /proc and /sys paths; "" = the real root
  ProbeOptions probe;
};

// Probes everything. Never fails: what cannot be read is a note.
Detection Detect(const DetectOptions& options);

// --sysroot DIR, else $FITRANK_SYSROOT, else "".
std::string SysrootFromFlagOrEnv(const std::string* flag);

// The parsers, pure, for tests. Problems are appended to `notes` prefixed with the source.
std::vector<DetectedGpu> ParseNvidiaSmi(absl::string_view csv, std::vector<std::string>* notes);
std::vector<DetectedGpu> ParseRocmSmi(absl::string_view json, std::vector<std::string>* notes);
std::vector<DetectedGpu> ParseSystemProfiler(absl::string_view json, absl::string_view memsize,
                                             std::vector<std::string>* notes);
void ParseMeminfo(absl::string_view text, DetectedHost* host);
void ParseCpuinfo(absl::string_view text, DetectedHost* host);
// `lscpu` output: fills what /proc/cpuinfo left unknown (ARM kernels print no model name there).
void ParseLscpu(absl::string_view text, DetectedHost* host);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_DETECT_H_
