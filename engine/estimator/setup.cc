#include "engine/estimator/setup.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/estimator/estimator.h"

namespace fitrank {

absl::string_view BackendName(Backend b) {
  switch (b) {
    case Backend::kAuto: return "auto";
    case Backend::kCuda: return "CUDA";
    case Backend::kRocm: return "ROCm";
    case Backend::kMetal: return "Metal";
    case Backend::kVulkan: return "Vulkan";
    case Backend::kSycl: return "SYCL";
    case Backend::kCpu: return "CPU";
  }
  return "auto";
}

bool ParseBackend(absl::string_view text, Backend* out) {
  std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (t == "cuda") *out = Backend::kCuda;
  else if (t == "rocm" || t == "hip" || t == "rocm/hip" || absl::StartsWith(t, "rocm")) *out = Backend::kRocm;
  else if (t == "metal" || t == "mlx" || absl::StartsWith(t, "metal")) *out = Backend::kMetal;
  else if (t == "vulkan" || absl::StartsWith(t, "vulkan")) *out = Backend::kVulkan;
  else if (t == "sycl" || t == "oneapi" || absl::StartsWith(t, "sycl")) *out = Backend::kSycl;
  else if (t == "cpu") *out = Backend::kCpu;
  else if (t == "auto") *out = Backend::kAuto;
  else return false;
  return true;
}

absl::string_view ParallelismName(Parallelism p) {
  return p == Parallelism::kTensor ? "tensor" : "layer";
}

namespace {

// absl::StrContains(AsciiStrToUpper(text), upper_needle) without the copy: MemoryKindOf runs
// for every device of every estimate.
bool ContainsUpper(absl::string_view text, absl::string_view upper_needle) {
  if (upper_needle.size() > text.size()) return false;
  for (size_t i = 0; i + upper_needle.size() <= text.size(); ++i) {
    size_t j = 0;
    while (j < upper_needle.size() && absl::ascii_toupper(static_cast<unsigned char>(text[i + j])) ==
                                          upper_needle[j]) {
      ++j;
    }
    if (j == upper_needle.size()) return true;
  }
  return false;
}

}  // namespace

MemoryKind MemoryKindOf(const Gpu& gpu) {
  absl::string_view t = gpu.memory_type;
  if (ContainsUpper(t, "HBM")) return MemoryKind::kHbm;
  if (ContainsUpper(t, "GDDR")) return MemoryKind::kGddr;
  if (ContainsUpper(t, "LPDDR") || gpu.unified_memory) return MemoryKind::kLpddr;
  if (ContainsUpper(t, "DDR")) return MemoryKind::kDdr;
  return MemoryKind::kGddr;  // discrete cards without a stated type: GDDR is the common case
}

absl::string_view MemoryKindName(MemoryKind k) {
  switch (k) {
    case MemoryKind::kGddr: return "gddr";
    case MemoryKind::kHbm: return "hbm";
    case MemoryKind::kLpddr: return "lpddr";
    case MemoryKind::kDdr: return "ddr";
  }
  return "gddr";
}

bool SameSetup(const Setup& a, const Setup& b) {
  if (a.devices.size() != b.devices.size()) return false;
  for (size_t i = 0; i < a.devices.size(); ++i) {
    if (a.devices[i].gpu != b.devices[i].gpu || a.devices[i].count != b.devices[i].count) return false;
  }
  return a.host_ram_gb == b.host_ram_gb && a.host_bandwidth_gbps == b.host_bandwidth_gbps &&
         a.host_tflops == b.host_tflops && a.host_defaulted == b.host_defaulted &&
         a.host_profile == b.host_profile && a.parallelism == b.parallelism &&
         a.parallelism_defaulted == b.parallelism_defaulted &&
         a.link_bandwidth_gbps == b.link_bandwidth_gbps && a.link_latency_us == b.link_latency_us &&
         a.link_name == b.link_name && a.label == b.label && a.device_count == b.device_count &&
         a.unified == b.unified && a.mixed == b.mixed;
}

bool SameGpuOtherCount(const Setup& a, const Setup& b) {
  return a.devices.size() == 1 && b.devices.size() == 1 && a.devices[0].gpu == b.devices[0].gpu &&
         a.device_count != b.device_count;
}

std::string SetupLabel(const std::vector<DeviceGroup>& devices) {
  std::string label;
  for (const DeviceGroup& d : devices) {
    if (!label.empty()) absl::StrAppend(&label, " + ");
    if (d.count > 1) absl::StrAppend(&label, d.count, "x ");
    absl::StrAppend(&label, d.gpu != nullptr ? d.gpu->name : "?");
  }
  return label;
}

absl::StatusOr<Setup> BuildSetup(const Estimator& estimator, std::vector<DeviceGroup> devices,
                                 const SetupOptions& options) {
  if (devices.empty()) return absl::InvalidArgumentError("a setup needs at least one GPU");
  if (static_cast<int>(devices.size()) > kMaxDeviceGroups) {
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxDeviceGroups, " kinds of GPU in one setup"));
  }
  Setup s;
  int total = 0;
  for (const DeviceGroup& d : devices) {
    if (d.gpu == nullptr) return absl::InvalidArgumentError("a device group has no GPU");
    if (d.count < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("GPU count for ", d.gpu->name, " must be at least 1 (got ", d.count, ")"));
    }
    if (d.gpu->memory_gb <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(d.gpu->name, " has no memory size"));
    }
    total += d.count;
  }
  if (total > kMaxDevices) {
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxDevices, " GPUs in one setup (got ", total, ")"));
  }
  for (const DeviceGroup& d : devices) {
    if (d.gpu->unified_memory && total > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          d.gpu->name, " uses unified memory and cannot be combined with other GPUs"));
    }
  }
  s.devices = std::move(devices);
  s.device_count = total;
  s.unified = s.devices[0].gpu->unified_memory;
  for (const DeviceGroup& d : s.devices) {
    if (d.gpu != s.devices[0].gpu) s.mixed = true;
  }
  s.label = SetupLabel(s.devices);

  // Host profile: the most server-like GPU class decides what CPU host it sits in.
  const Constants& k = estimator.constants();
  Segment seg = s.devices[0].gpu->segment;
  for (const DeviceGroup& d : s.devices) {
    if (d.gpu->segment == Segment::kDatacenter) seg = Segment::kDatacenter;
    else if (d.gpu->segment == Segment::kWorkstation && seg == Segment::kConsumer) seg = d.gpu->segment;
  }
  ConstantKey key;
  key.segment = static_cast<int8_t>(seg);
  if (s.unified) {
    const Gpu& g = *s.devices[0].gpu;
    s.host_ram_gb = g.memory_gb;
    s.host_bandwidth_gbps = g.bandwidth_gbps * k.Get(K::kUnifiedCpuBwShare, key);
    s.host_profile = absl::StrCat("unified memory (", absl::StrFormat("%.0f", g.memory_gb),
                                  " GB shared by CPU and GPU)");
  } else {
    s.host_ram_gb = k.Get(K::kHostRamGb, key);
    s.host_bandwidth_gbps = k.Get(K::kHostBandwidthGbps, key);
    switch (seg) {
      case Segment::kDatacenter: s.host_profile = "server host (multi-channel DDR5)"; break;
      case Segment::kWorkstation: s.host_profile = "workstation host (quad/octa-channel DDR5)"; break;
      default: s.host_profile = "consumer desktop (dual-channel DDR5)"; break;
    }
  }
  s.host_tflops = k.Get(K::kHostTflops, key);
  s.host_defaulted = true;
  if (options.host_ram_gb) {
    s.host_ram_gb = *options.host_ram_gb;
    s.host_defaulted = false;
  }
  if (options.host_bandwidth_gbps) {
    s.host_bandwidth_gbps = *options.host_bandwidth_gbps;
    s.host_defaulted = false;
  }
  if (options.parallelism) {
    s.parallelism = *options.parallelism;
    s.parallelism_defaulted = false;
  }

  // GPU-to-GPU link for tensor parallelism.
  const Interconnect* link = options.link;
  const Gpu& g0 = *s.devices[0].gpu;
  if (link == nullptr && !s.mixed && !g0.interconnect.empty() && options.interconnects != nullptr) {
    for (const Interconnect& ic : *options.interconnects) {
      if (ic.id == g0.interconnect) link = &ic;
    }
    // PCIe cards: a bridge (NVLink on 3090/A100 PCIe) joins only pairs and most rigs have
    // none, so they talk over PCIe; SXM/OAM modules use their fabric.
    bool pcie_card = absl::StartsWith(g0.form_factor, "pcie") || g0.form_factor.empty();
    if (link != nullptr && (pcie_card || link->bandwidth_gbps <= 0)) link = nullptr;
  }
  if (link != nullptr) {
    s.link_bandwidth_gbps = link->bandwidth_gbps;
    s.link_latency_us = link->latency_us;
    s.link_name = link->name.empty() ? link->id : link->name;
  } else {
    double pcie = 0;
    for (const DeviceGroup& d : s.devices) {
      double p = d.gpu->pcie_gbps > 0 ? d.gpu->pcie_gbps : 16;
      pcie = pcie == 0 ? p : std::min(pcie, p);
    }
    s.link_bandwidth_gbps = pcie;
    s.link_latency_us = 0;  // the estimator uses tp.link_latency_us
    s.link_name = absl::StrFormat("PCIe (%.0f GB/s)", pcie);
  }
  return s;
}

}  // namespace fitrank
