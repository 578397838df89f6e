// Detect(): runs the probes of cli/detect.h in order and reads the sysfs and /proc files.
#include "cli/detect.h"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace fitrank::cli {
namespace {

// /proc and /sys files are small and report a size of 0, so they are read to EOF with a cap.
constexpr size_t kMaxSysFileBytes = 1 << 20;

std::string ReadSmallFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::string out(kMaxSysFileBytes, '\0');
  f.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(f.gcount()));
  return out;
}

std::string Trimmed(const std::string& path) {
  return std::string(absl::StripAsciiWhitespace(ReadSmallFile(path)));
}

// card0, card1 ... (not the connectors card0-DP-1), in numeric order.
std::vector<int> DrmCards(const std::string& dir) {
  std::vector<int> cards;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return cards;
  while (dirent* e = readdir(d)) {
    absl::string_view n = e->d_name;
    int index;
    if (absl::ConsumePrefix(&n, "card") && absl::SimpleAtoi(n, &index) && index >= 0 &&
        n.find_first_not_of("0123456789") == absl::string_view::npos) {
      cards.push_back(index);
    }
  }
  closedir(d);
  std::sort(cards.begin(), cards.end());
  return cards;
}

// "0000:01:00.0" and nvidia-smi's "00000000:01:00.0" name the same device: the domain is
// dropped and case ignored.
std::string PciKey(absl::string_view pci) {
  if (std::count(pci.begin(), pci.end(), ':') == 2) pci = pci.substr(pci.find(':') + 1);
  return absl::AsciiStrToLower(pci);
}

bool Listed(const Detection& d, const std::string& pci_id) {
  if (pci_id.empty()) return false;
  for (const DetectedGpu& g : d.gpus) {
    if (!g.pci_id.empty() && PciKey(g.pci_id) == PciKey(pci_id)) return true;
  }
  return false;
}

// A byte count in a sysfs file, or 0.
double Bytes(const std::string& path) {
  double v = 0;
  return absl::SimpleAtod(Trimmed(path), &v) && v > 0 ? v : 0;
}

// An Intel card's local memory (total, and available or -1), in bytes; total 0: not exposed
// (an integrated GPU has none; an older driver does not say).
std::pair<double, double> IntelLocalMemory(const std::string& card_dir) {
  // xe: one file per tile, summed (a Max 1550 has two).
  double total = 0;
  for (int tile = 0; tile < 8; ++tile) {
    total += Bytes(absl::StrCat(card_dir, "/device/tile", tile, "/physical_vram_size_bytes"));
  }
  if (total > 0) return {total, -1};
  // The i915 backport driver (intel-i915-dkms) of Flex and Max cards.
  for (absl::string_view prefix : {"", "prelim_"}) {
    total = Bytes(absl::StrCat(card_dir, "/", prefix, "lmem_total_bytes"));
    if (total > 0) {
      const std::string avail = Trimmed(absl::StrCat(card_dir, "/", prefix, "lmem_avail_bytes"));
      double free = -1;
      if (!absl::SimpleAtod(avail, &free) || free < 0) free = -1;
      return {total, free};
    }
  }
  return {0, -1};
}

// AMD cards the amdgpu driver exposes (used when rocm-smi listed none), and Intel cards
// xpu-smi did not list.
void ReadDrm(const std::string& sysroot, bool want_amd, Detection* out) {
  const std::string dir = sysroot + "/sys/class/drm";
  for (int card : DrmCards(dir)) {
    const std::string card_dir = absl::StrCat(dir, "/card", card);
    const std::string dev = card_dir + "/device/";
    const std::string vendor = Trimmed(dev + "vendor");
    const bool amd = vendor == "0x1002", intel = vendor == "0x8086";
    if (!(amd && want_amd) && !intel) continue;
    DetectedGpu g;
    g.vendor = amd ? "AMD" : "Intel";
    g.source = "sysfs";
    g.name = Trimmed(dev + "product_name");
    if (g.name.empty()) g.name = absl::StrCat(g.vendor, " GPU ", Trimmed(dev + "device"));
    for (absl::string_view line : absl::StrSplit(ReadSmallFile(dev + "uevent"), '\n')) {
      if (absl::ConsumePrefix(&line, "PCI_SLOT_NAME=")) g.pci_id = std::string(line);
    }
    if (Listed(*out, g.pci_id)) continue;  // xpu-smi (or rocm-smi) already has it
    double total = 0, free = -1;
    if (amd) {
      total = Bytes(dev + "mem_info_vram_total");
      double used = 0;
      if (total > 0 && absl::SimpleAtod(Trimmed(dev + "mem_info_vram_used"), &used) && used >= 0)
        free = std::max(total - used, 0.0);
    } else {
      std::tie(total, free) = IntelLocalMemory(card_dir);
    }
    if (total > 0) {
      g.memory_total_gib = total / kBytesPerGib;
      if (free >= 0) g.memory_free_gib = std::min(free, total) / kBytesPerGib;
    }
    if (amd && total > 0 && total < 2.0 * kBytesPerGib) {
      // An APU's carve-out (512 MiB - 2 GiB): its models live in system RAM, not counted as VRAM.
      out->notes.push_back(absl::StrCat("sysfs: card", card, " (", g.name, "): ",
                                        std::lround(total / (1024.0 * 1024.0)),
                                        " MiB of VRAM, an integrated GPU's carve-out: not counted"));
      continue;
    }
    if (total <= 0) {
      out->notes.push_back(absl::StrCat(
          "sysfs: card", card, " (", g.name, "): memory size not readable",
          intel ? " (an integrated GPU has no local memory; for a discrete card install xpu-smi "
                  "or a driver that exposes it)"
                : ""));
    }
    out->gpus.push_back(std::move(g));
  }
}

// Populated memory channels from the EDAC driver's DIMM records (readable without root).
int EdacChannels(const std::string& sysroot) {
  const std::string dir = sysroot + "/sys/devices/system/edac/mc";
  std::set<std::pair<int, int>> channels;
  for (int mc = 0; mc < 16; ++mc) {
    const std::string mc_dir = absl::StrCat(dir, "/mc", mc);
    for (int dimm = 0; dimm < 64; ++dimm) {
      const std::string d = absl::StrCat(mc_dir, "/dimm", dimm, "/");
      const std::string location = Trimmed(d + "dimm_location");
      if (location.empty()) continue;
      double size_mb = 0;
      if (!absl::SimpleAtod(Trimmed(d + "size"), &size_mb) || size_mb <= 0) continue;
      const int channel = EdacChannel(location);
      if (channel < 0) return 0;  // a layout without channels: unknown, not a guess
      channels.insert({mc, channel});
    }
  }
  return static_cast<int>(channels.size());
}

std::string ProbeNote(const std::string& tool, const ProbeResult& r, const ProbeOptions& o) {
  return absl::StrCat(tool, ": ", r.Describe(o));
}

}  // namespace

std::string SysrootFromFlagOrEnv(const std::string* flag) {
  if (flag != nullptr) return *flag;
  const char* env = std::getenv("FITRANK_SYSROOT");
  return env != nullptr ? env : "";
}

Detection Detect(const DetectOptions& options) {
  Detection d;
  const ProbeOptions& po = options.probe;

  ProbeResult nv = RunProbe({"nvidia-smi",
                             "--query-gpu=index,name,memory.total,memory.used,memory.free,"
                             "pci.bus_id,driver_version,compute_cap",
                             "--format=csv,noheader,nounits"},
                            po);
  if (nv.ok()) {
    for (DetectedGpu& g : ParseNvidiaSmi(nv.out, &d.notes)) d.gpus.push_back(std::move(g));
  } else if (nv.found) {
    d.notes.push_back(ProbeNote("nvidia-smi", nv, po));
  }

  ProbeResult rocm =
      RunProbe({"rocm-smi", "--showproductname", "--showmeminfo", "vram", "--json"}, po);
  size_t amd = 0;
  if (rocm.ok()) {
    for (DetectedGpu& g : ParseRocmSmi(rocm.out, &d.notes)) {
      d.gpus.push_back(std::move(g));
      ++amd;
    }
  } else if (rocm.found) {
    d.notes.push_back(ProbeNote("rocm-smi", rocm, po));
  }

  ProbeResult xpu = RunProbe({"xpu-smi", "discovery", "-j"}, po);
  if (xpu.ok()) {
    for (int id : ParseXpuSmiList(xpu.out, &d.notes)) {
      ProbeResult dev =
          RunProbe({"xpu-smi", "discovery", "-d", absl::StrCat(id), "-j"}, po);
      if (!dev.ok()) {
        d.notes.push_back(absl::StrCat("xpu-smi discovery -d ", id, ": ", dev.Describe(po)));
        continue;
      }
      if (std::optional<DetectedGpu> g = ParseXpuSmiDevice(dev.out, &d.notes)) {
        d.gpus.push_back(std::move(*g));
      }
    }
  } else if (xpu.found) {
    d.notes.push_back(ProbeNote("xpu-smi", xpu, po));
  }
  ReadDrm(options.sysroot, /*want_amd=*/amd == 0, &d);

  ProbeResult sp = RunProbe({"system_profiler", "SPDisplaysDataType", "-json"}, po);
  if (sp.ok()) {
    ProbeResult mem = RunProbe({"sysctl", "-n", "hw.memsize"}, po);
    for (DetectedGpu& g : ParseSystemProfiler(sp.out, mem.ok() ? mem.out : "", &d.notes)) {
      d.gpus.push_back(std::move(g));
    }
  } else if (sp.found) {
    d.notes.push_back(ProbeNote("system_profiler", sp, po));
  }

  ParseMeminfo(ReadSmallFile(options.sysroot + "/proc/meminfo"), &d.host);
  ParseCpuinfo(ReadSmallFile(options.sysroot + "/proc/cpuinfo"), &d.host);
  if (d.host.cpu_model.empty()) {
    ProbeResult lscpu = RunProbe({"lscpu"}, po);
    if (lscpu.ok()) ParseLscpu(lscpu.out, &d.host);
  }
  if (d.host.ram_total_gib <= 0) {
    // macOS has no /proc: the unified memory is the RAM.
    for (const DetectedGpu& g : d.gpus) {
      if (g.vendor == "Apple") d.host.ram_total_gib = g.memory_total_gib;
    }
  }
  if (d.host.ram_total_gib <= 0) d.notes.push_back("/proc/meminfo: host RAM not readable");

  if (int n = EdacChannels(options.sysroot); n > 0) {
    d.host.memory_channels = n;
    d.host.memory_channels_source = "sysfs EDAC";
  } else {
    // Root only: as a user dmidecode exits 1, which is no news and no note.
    ProbeResult dmi = RunProbe({"dmidecode", "-t", "17"}, po);
    if (dmi.ok()) {
      d.host.memory_channels = ParseDmidecodeChannels(dmi.out);
      if (d.host.memory_channels > 0) d.host.memory_channels_source = "dmidecode";
    } else if (dmi.timed_out) {
      d.notes.push_back(ProbeNote("dmidecode", dmi, po));
    }
  }
  return d;
}

}  // namespace fitrank::cli
