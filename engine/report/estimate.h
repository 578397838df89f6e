// The estimate report (`fitrank estimate`): the raw estimator numbers for one model, weights
// format, runtime and setup, with their basis (which formulas, constants and defaults produced
// them). Filled by engine/report/estimate.cc, rendered by cli/render_estimate.cc (table, JSON,
// CSV, markdown) like every other report.
//
// Values stay typed (FitKind, KvCacheType, Parallelism, Backend in `estimate`); they become
// names only in the renderer.
#ifndef FITRANK_ENGINE_REPORT_ESTIMATE_H_
#define FITRANK_ENGINE_REPORT_ESTIMATE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/estimator/basis.h"
#include "engine/estimator/estimator.h"

namespace fitrank {

struct EstimateReport {
  std::string model;          // display name, e.g. "Qwen3 32B"
  std::string model_id;       // catalog id, or the id a config.json / GGUF file gave it
  std::string quant;          // quantization id; "" when the weights are given in bits/weight
  double requested_bpw = 0;   // bits per weight asked for (--bpw, a GGUF file's own); 0 if none
  std::string runtime;        // runtime id the estimate assumes
  std::string setup_label;    // "2x GeForce RTX 3090"
  int gpu_count = 0;
  double host_ram_gb = 0;          // as given or from the host profile
  double host_bandwidth_gbps = 0;
  KvCacheType kv_cache = KvCacheType::kF16;  // the KV cache asked for (estimate.kv_cache: used)
  Estimate estimate;          // every number, typed
  Basis basis;                // why: formulas, constants, defaults (the caller's first), problems
  bool runnable() const { return estimate.runnable(); }
};

// Runs `in` (setup, model and runtime set) through the estimator with its basis. `defaults`
// (the caller's choices the user did not make, e.g. "quant: Q4_K_M (default)") come first in
// basis.defaults. A combination that cannot run is still a report: runnable() is false and
// basis.problems says why.
EstimateReport BuildEstimateReport(const Estimator& estimator, const EstimateInput& in,
                                   const std::vector<std::string>& defaults);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_ESTIMATE_H_
