// The setup `--gpu auto` (or no --gpu at all) stands for: the detected GPUs mapped to the
// catalog (cli/detect_match.h) and the detected host RAM.
#ifndef FITRANK_CLI_DETECT_SETUP_H_
#define FITRANK_CLI_DETECT_SETUP_H_

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "cli/command.h"
#include "cli/detect.h"
#include "cli/detect_match.h"
#include "engine/estimator/setup.h"

namespace fitrank::cli {

struct DetectedSetup {
  std::vector<GpuMatch> matches;      // one per Detection::gpus entry, same order
  std::vector<DeviceGroup> devices;   // the usable ones, identical GPUs grouped
  // Detected RAM total, if readable, in GiB: the unit of Setup::host_ram_gb and of --ram.
  std::optional<double> host_ram_gb;
  // "2x GeForce RTX 3090 (nvidia-smi), 62.5 GiB RAM", "no usable GPU", with ", free memory
  // only" when asked.
  std::string summary;
};

// Maps `detection` to the catalog. `free_memory`: each GPU counts only its free memory.
DetectedSetup BuildDetectedSetup(const Catalog& catalog, const Detection& detection,
                                 bool free_memory);

// The detect options of a command's flags: --sysroot (else $FITRANK_SYSROOT) and
// --probe-timeout-ms.
DetectOptions DetectOptionsFromFlags(const Context& ctx);

// The flags of detection: --sysroot, --probe-timeout-ms.
std::vector<FlagSpec> DetectFlagSpecs();
// The flags of commands whose setup may be the detected one: --free-memory and the above.
std::vector<FlagSpec> DetectedSetupFlagSpecs();

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_DETECT_SETUP_H_
