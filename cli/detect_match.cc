#include "cli/detect_match.h"

#include <cmath>
#include <deque>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace fitrank::cli {
namespace {

// The architecture a compute capability or gfx target belongs to, as the catalog names it.
// Sources: NVIDIA, "CUDA GPUs - Compute Capability" (developer.nvidia.com/cuda-gpus); AMD, the
// LLVM AMDGPU processor table (llvm.org/docs/AMDGPUUsage.html#processors).
struct ArchOf {
  absl::string_view prefix;  // "8.9", "gfx110"
  absl::string_view architecture;
};
constexpr ArchOf kArchitectures[] = {
    {"6.0", "Pascal"},
    {"6.1", "Pascal"},
    {"7.0", "Volta"},
    {"7.2", "Volta"},
    {"7.5", "Turing"},
    {"8.0", "Ampere"},
    {"8.6", "Ampere"},
    {"8.7", "Ampere"},
    {"8.9", "Ada Lovelace"},
    {"9.0", "Hopper"},
    {"10.", "Blackwell"},
    {"12.", "Blackwell"},
    {"gfx906", "Vega 20 (GCN5)"},
    {"gfx908", "CDNA 1"},
    {"gfx90a", "CDNA 2"},
    {"gfx94", "CDNA 3"},
    {"gfx950", "CDNA 4"},
    {"gfx101", "RDNA 1"},
    {"gfx103", "RDNA 2"},
    {"gfx110", "RDNA 3"},
    {"gfx115", "RDNA 3.5"},
    {"gfx120", "RDNA 4"},
};

absl::string_view Architecture(const DetectedGpu& g) {
  if (g.vendor == "Apple") return "";
  for (const ArchOf& a : kArchitectures) {
    if (!g.compute_capability.empty() && absl::StartsWith(g.compute_capability, a.prefix)) {
      return a.architecture;
    }
  }
  return "";
}

// Names to try, most specific first.
std::vector<std::string> Queries(const DetectedGpu& g) {
  std::vector<std::string> q;
  // Apple's catalog names carry the GPU core count: "Apple M3 Max (40-core GPU) 128GB".
  if (g.gpu_cores > 0) q.push_back(absl::StrCat(g.name, " (", g.gpu_cores, "-core GPU)"));
  q.push_back(g.name);
  absl::string_view s = g.name;
  for (absl::string_view prefix : {"NVIDIA ", "AMD ", "Apple ", "Intel(R) ", "Intel "}) {
    if (absl::ConsumePrefix(&s, prefix)) {
      q.push_back(std::string(s));
      break;
    }
  }
  // "Navi 31 [Radeon RX 7900 XT/7900 XTX]": each product in the brackets.
  const size_t open = g.name.find('['), close = g.name.rfind(']');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    const std::string inside = g.name.substr(open + 1, close - open - 1);
    std::vector<std::string> parts = absl::StrSplit(inside, '/');
    std::string stem;
    for (const std::string& p : parts) {
      // "Radeon RX 7900 XT" then "7900 XTX": later parts reuse the first one's leading words.
      const size_t digit = p.find_first_of("0123456789");
      if (stem.empty() && digit != std::string::npos) stem = p.substr(0, digit);
      q.push_back(digit == 0 ? stem + p : p);
    }
  }
  return q;
}

bool SizeMatches(const Gpu& gpu, int nominal_gb) {
  return nominal_gb <= 0 || std::abs(gpu.memory_gb - nominal_gb) <= 0.15 * nominal_gb;
}

}  // namespace

absl::string_view GpuMatchKindName(GpuMatchKind k) {
  switch (k) {
    case GpuMatchKind::kExact:
      return "exact";
    case GpuMatchKind::kAlias:
      return "alias";
    case GpuMatchKind::kUnknown:
      return "unknown";
    case GpuMatchKind::kUnusable:
      return "unusable";
  }
  return "unusable";
}

int NominalMemoryGb(double memory_gib) { return static_cast<int>(std::lround(memory_gib)); }

GpuMatch MatchGpu(const Catalog& catalog, const DetectedGpu& g) {
  GpuMatch m;
  if (g.memory_total_gib <= 0) {
    m.how = "unusable: memory size unknown";
    return m;
  }
  const int nominal = NominalMemoryGb(g.memory_total_gib);
  for (const std::string& q : Queries(g)) {
    for (const std::string& name : {absl::StrCat(q, " ", nominal, "GB"), q}) {
      Lookup<Gpu> l = catalog.FindGpu(name);
      const Gpu* hit = l.found;
      if (hit == nullptr) {
        for (const Gpu* c : l.ambiguous) {
          if (SizeMatches(*c, nominal) &&
              (hit == nullptr ||
               std::abs(c->memory_gb - nominal) < std::abs(hit->memory_gb - nominal))) {
            hit = c;
          }
        }
      }
      if (hit == nullptr || !SizeMatches(*hit, nominal) || hit->vendor != g.vendor) continue;
      m.gpu = hit;
      if (absl::EqualsIgnoreCase(hit->name, q) || absl::EqualsIgnoreCase(hit->name, name)) {
        m.kind = GpuMatchKind::kExact;
        m.how = "exact";
      } else {
        m.kind = GpuMatchKind::kAlias;
        m.how = absl::StrCat("by alias `", name, "`");
      }
      return m;
    }
  }
  // Unknown: the class entry.
  const absl::string_view arch = Architecture(g);
  const std::string apple_chip =
      g.vendor == "Apple" ? std::string(absl::StripPrefix(g.name, "Apple ")) : "";
  const Gpu* best = nullptr;
  for (const Gpu& c : catalog.gpus()) {
    if (c.vendor != g.vendor) continue;
    if (!arch.empty() && c.architecture != arch) continue;
    if (!apple_chip.empty() && !absl::StartsWith(c.name, absl::StrCat("Apple ", apple_chip, " ")))
      continue;
    if (best == nullptr || std::abs(c.memory_gb - nominal) < std::abs(best->memory_gb - nominal))
      best = &c;
  }
  if (best == nullptr) {
    m.how = absl::StrCat("unusable: no ", g.vendor, arch.empty() ? "" : absl::StrCat(" ", arch),
                         " GPU in the catalog to estimate its bandwidth from");
    return m;
  }
  m.kind = GpuMatchKind::kUnknown;
  m.gpu = best;
  m.how = absl::StrFormat(
      "unknown: using the detected memory and a bandwidth estimate from the device's published "
      "class (%s, like %s: %.0f GB/s)",
      arch.empty() ? absl::StrCat(g.vendor, " GPUs") : std::string(arch), best->name,
      best->bandwidth_gbps);
  return m;
}

const Gpu* SetupGpu(const GpuMatch& match, const DetectedGpu& g, bool free_memory) {
  if (match.gpu == nullptr) return nullptr;
  const bool use_free = free_memory && g.memory_free_gib >= 0;
  if (match.kind != GpuMatchKind::kUnknown && !use_free) return match.gpu;
  static std::mutex mu;
  static auto* store = new std::deque<Gpu>();
  Gpu copy = *match.gpu;
  if (match.kind == GpuMatchKind::kUnknown) {
    copy.id = absl::StrCat("detected:", g.name);
    copy.name = g.name;
    copy.aliases.clear();
    copy.memory_gb = NominalMemoryGb(g.memory_total_gib);
    copy.msrp_usd = 0;
    copy.notes = match.how;
  }
  if (use_free) {
    // The catalog's memory_gb is the size as sold (24 for a card with 24564 MiB); the free
    // memory keeps the same scale: its share of the detected total.
    const double free_gb =
        copy.memory_gb * std::min(1.0, g.memory_free_gib / g.memory_total_gib);
    copy.id = absl::StrCat(copy.id, "@free");
    copy.name = absl::StrFormat("%s (%.1f GB free)", copy.name, free_gb);
    copy.memory_gb = free_gb;
  }
  std::lock_guard<std::mutex> lock(mu);
  store->push_back(std::move(copy));
  return &store->back();
}

}  // namespace fitrank::cli
