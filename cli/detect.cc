// Detect(): runs the probes of cli/detect.h in order and reads the sysfs and /proc files.
#include "cli/detect.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

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

// AMD cards the amdgpu driver exposes (used when rocm-smi listed none), and Intel cards.
void ReadDrm(const std::string& sysroot, bool want_amd, Detection* out) {
  const std::string dir = sysroot + "/sys/class/drm";
  for (int card : DrmCards(dir)) {
    const std::string dev = absl::StrCat(dir, "/card", card, "/device/");
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
    double total = 0, used = 0;
    const bool has_total =
        absl::SimpleAtod(Trimmed(dev + "mem_info_vram_total"), &total) && total > 0;
    if (has_total) {
      g.memory_total_gb = total / 1e9;
      if (absl::SimpleAtod(Trimmed(dev + "mem_info_vram_used"), &used) && used >= 0) {
        g.memory_free_gb = std::max(total - used, 0.0) / 1e9;
      }
    }
    if (amd && has_total && total < 2e9) {
      // An APU's carve-out (512 MB - 2 GB): its models live in system RAM, not counted as VRAM.
      out->notes.push_back(absl::StrCat("sysfs: card", card, " (", g.name, "): ", total / 1e6,
                                        " MB of VRAM, an integrated GPU's carve-out: not counted"));
      continue;
    }
    if (!has_total) {
      out->notes.push_back(
          absl::StrCat("sysfs: card", card, " (", g.name, "): memory size not readable"));
    }
    out->gpus.push_back(std::move(g));
  }
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
  if (d.host.ram_total_gb <= 0) {
    // macOS has no /proc: the unified memory is the RAM.
    for (const DetectedGpu& g : d.gpus) {
      if (g.vendor == "Apple") d.host.ram_total_gb = g.memory_total_gb;
    }
  }
  if (d.host.ram_total_gb <= 0) d.notes.push_back("/proc/meminfo: host RAM not readable");
  return d;
}

}  // namespace fitrank::cli
