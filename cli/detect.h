// `fitrank detect`: what this machine has. GPUs from the vendors' tools and sysfs, the host
// from /proc, each source optional and probed safely (cli/detect_probe.h): a missing tool is
// skipped, a failing, hanging or garbled one becomes a note and detection goes on.
//
// Sources, in order (formats in shared/reference/formats.md):
//   NVIDIA  nvidia-smi --query-gpu=... --format=csv,noheader,nounits
//   AMD     rocm-smi --showproductname --showmeminfo vram --json; without it (or for cards it
//           did not list) SYSROOT/sys/class/drm/card*/device/mem_info_vram_{total,used}
//   Intel   xpu-smi discovery -j, then xpu-smi discovery -d ID -j per device (memory in bytes);
//           without it (or for cards it did not list) SYSROOT/sys/class/drm/card*/device
//           (vendor 0x8086) with the local memory the driver exposes: xe's
//           device/tile*/physical_vram_size_bytes, or the i915 backport's card*/lmem_total_bytes
//           and lmem_avail_bytes (prelim_ prefixed in some releases); none: memory unknown
//   Apple   system_profiler SPDisplaysDataType -json and sysctl -n hw.memsize
//   host    SYSROOT/proc/meminfo, SYSROOT/proc/cpuinfo, and lscpu when cpuinfo names no model
//   memory channels, where readable: the EDAC driver's
//           SYSROOT/sys/devices/system/edac/mc/mc*/dimm*/{size,dimm_location} (no root needed),
//           else `dmidecode -t 17` (root only: as a user it fails, and channels stay unknown)
// SYSROOT is "" (the real root) unless --sysroot DIR or $FITRANK_SYSROOT says otherwise; tests
// point it at a fake tree and put fake tools first on PATH.
//
// Units: memory in GiB (2^30 bytes), converted from the tools' MiB/bytes/kB. GiB is the unit
// memory is sold in and the one the catalog's capacities use: a "24 GB" RTX 4090 reports 24564
// MiB = 23.99 GiB, shown next to the GPU pages' "24 GB" (engine/estimator/setup.h kGbPerGib);
// 64 GB of DIMMs show a MemTotal a little under 64 GiB. Every place that shows these says GiB.
#ifndef FITRANK_CLI_DETECT_H_
#define FITRANK_CLI_DETECT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "cli/detect_probe.h"

namespace fitrank::cli {

inline constexpr double kBytesPerGib = 1073741824.0;  // 2^30, a unit

struct DetectedGpu {
  std::string vendor;              // "NVIDIA" | "AMD" | "Intel" | "Apple"
  std::string name;                // as the source names it: "NVIDIA GeForce RTX 4090"
  double memory_total_gib = 0;     // 0: unknown
  double memory_free_gib = -1;     // < 0: unknown (Apple, sysfs without _used)
  std::string driver;              // "550.54.14"; empty: unknown
  std::string pci_id;              // "00000000:01:00.0"; empty: unknown
  std::string compute_capability;  // NVIDIA "8.9", AMD "gfx1100"; empty: unknown
  int gpu_cores = 0;               // Apple GPU cores; 0: unknown
  std::string source;  // "nvidia-smi" | "rocm-smi" | "xpu-smi" | "sysfs" | "system_profiler"
};

struct DetectedHost {
  std::string cpu_model;         // "AMD Ryzen 9 7950X 16-Core Processor"; empty: unknown
  int logical_cores = 0;         // processors the kernel lists
  int physical_cores = 0;        // distinct (physical id, core id); 0: unknown
  double ram_total_gib = 0;       // MemTotal
  double ram_available_gib = -1;  // MemAvailable; < 0: unknown
  int memory_channels = 0;        // populated memory channels; 0: unknown
  std::string memory_channels_source;  // "sysfs EDAC" | "dmidecode"; empty: unknown
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
// `xpu-smi discovery -j`: the device ids of its device_list (at most 64).
std::vector<int> ParseXpuSmiList(absl::string_view json, std::vector<std::string>* notes);
// `xpu-smi discovery -d ID -j`: one device (name, memory_physical_size_byte,
// memory_free_size_byte, driver_version, pci_bdf_address); nullopt (and a note) if it names no
// device.
std::optional<DetectedGpu> ParseXpuSmiDevice(absl::string_view json,
                                             std::vector<std::string>* notes);
std::vector<DetectedGpu> ParseSystemProfiler(absl::string_view json, absl::string_view memsize,
                                             std::vector<std::string>* notes);
void ParseMeminfo(absl::string_view text, DetectedHost* host);
void ParseCpuinfo(absl::string_view text, DetectedHost* host);
// `lscpu` output: fills what /proc/cpuinfo left unknown (ARM kernels print no model name there).
void ParseLscpu(absl::string_view text, DetectedHost* host);
// `dmidecode -t 17` (Memory Device records): the number of distinct channels holding a module,
// from each populated record's Bank Locator or Locator ("P0 CHANNEL A", "ChannelB-DIMM0",
// "P0_Node0_Channel1_Dimm0"); 0 (unknown) if any populated record names no channel.
int ParseDmidecodeChannels(absl::string_view text);
// An EDAC dimm_location ("channel 1 slot 0", "csrow 0 channel 1"): the channel number, or -1.
int EdacChannel(absl::string_view location);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_DETECT_H_
