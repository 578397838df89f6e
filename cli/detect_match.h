// Mapping a detected GPU (cli/detect.h) to the catalog, and the Gpu a detected setup uses.
//
// Matching tries the name as the tool prints it, then without the vendor's prefix, then (for
// rocm-smi's "Navi 31 [Radeon RX 7900 XT/7900 XTX]") each product in brackets; each name with
// the detected memory size first ("GeForce RTX 3060 12GB"), so variants that differ only in
// memory resolve. A GPU the catalog lacks is `unknown`: it keeps its detected memory and borrows
// bandwidth and compute from the catalog entry of its published class (same vendor and
// architecture, from the compute capability or gfx version, closest in memory), said as such.
#ifndef FITRANK_CLI_DETECT_MATCH_H_
#define FITRANK_CLI_DETECT_MATCH_H_

#include <string>

#include "catalog/catalog.h"
#include "cli/detect.h"

namespace fitrank::cli {

enum class GpuMatchKind { kExact, kAlias, kUnknown, kUnusable };
// "exact" | "alias" | "unknown" | "unusable"
absl::string_view GpuMatchKindName(GpuMatchKind k);

struct GpuMatch {
  GpuMatchKind kind = GpuMatchKind::kUnusable;
  // kExact, kAlias: the entry. kUnknown: the class entry whose bandwidth and compute are
  // borrowed. kUnusable (memory unknown, or no entry of the vendor): nullptr.
  const Gpu* gpu = nullptr;
  // For people: "exact", "by alias `nvidia geforce rtx 4090`", "unknown: using the detected
  // memory and a bandwidth estimate from the device's published class (Ada Lovelace, like
  // GeForce RTX 4080: 717 GB/s)", "unusable: memory size unknown".
  std::string how;
};

GpuMatch MatchGpu(const Catalog& catalog, const DetectedGpu& gpu);

// The catalog GPU a setup uses for `gpu`, owned by a process-wide store (valid until exit):
// the matched entry itself; for kUnknown a copy of the class entry with the detected name and
// memory; with `free_memory`, a copy whose memory_gb is the free share of it (free / total as
// detected, times the entry's memory_gb; unknown free memory: the total). Returns nullptr for
// kUnusable.
const Gpu* SetupGpu(const GpuMatch& match, const DetectedGpu& gpu, bool free_memory);

// Memory size as the product is sold ("24 GB"): the detected GiB, rounded (24564 MiB -> 24).
int NominalMemoryGb(double memory_gib);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_DETECT_MATCH_H_
