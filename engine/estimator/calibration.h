// Calibration: the estimator's error against public measurements.
//
// ParseMeasurements reads a TSV with the columns of shared/calibration/measured.tsv (gpu,
// gpu_count, model, params_b, active_params_b, quant, runtime, batch, prompt_tokens,
// gen_tokens, decode_tok_s, prefill_tok_s, source; an empty cell = not measured).
// RunCalibration maps every row onto the catalog and estimates it:
//   - GPU by forgiving lookup, after stripping vendor prefixes and parentheses ("(32-core
//     GPU)", "(PCIe)" keeps the word PCIe, "(..., 128GB)" keeps the memory size); among memory
//     variants of one chip (Apple, Strix Halo) the largest is taken, since speed does not
//     depend on the size.
//   - model by name when the catalog has it with matching parameters (within 10%), else a
//     synthesized shape from params_b / active_params_b (id "estimated:<name>"): a Llama-like
//     dense model whose layers = hidden/128 and 12 x layers x hidden^2 = params, GQA with 8
//     KV heads of 128 dims, vocabulary unknown; MoE: 64 experts, top-k = 64 x active/total.
//   - quant: catalog lookup after dropping "(i1)"-style notes and trailing words ("GPTQ-4bit
//     g128 act-order" -> GPTQ-4bit); "EXL2-4.0bpw" -> EXL2 at 4.0 bpw; UD-*_XL are catalog
//     aliases of the matching K-quant.
//   - runtime "engine (backend, notes)": "llama.cpp (Vulkan AMDVLK, fa=1)" -> llama.cpp on
//     Vulkan with flash attention; "b=256" -> micro-batches of 256 tokens; llama.cpp rows
//     without fa=1 ran without flash attention (llama-bench's default then); multi-GPU rows use
//     the runtime's default parallelism.
// Rows that cannot be mapped are kept with the reason; never dropped silently. Prefill rows
// whose source says "prefill=prompt/TTFT" are compared as prompt / predicted TTFT.
#ifndef FITRANK_ENGINE_ESTIMATOR_CALIBRATION_H_
#define FITRANK_ENGINE_ESTIMATOR_CALIBRATION_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"

namespace fitrank {

struct MeasuredRow {
  int line = 0;  // 1-based line in the file
  std::string gpu, model, quant, runtime, source;
  int gpu_count = 1, batch = 1, prompt_tokens = 0, gen_tokens = 0;
  double params_b = 0, active_params_b = 0;
  double decode_tok_s = 0, prefill_tok_s = 0;  // 0 = not measured
  bool prefill_from_ttft = false;
};

// Parses the TSV. Problems (missing columns, bad numbers) are errors at file:line:col; rows
// with errors are skipped. Returns false if any error was reported.
bool ParseMeasurements(absl::string_view content, absl::string_view file,
                       std::vector<MeasuredRow>* rows, Diagnostics* diags);

struct CalibrationStats {
  int rows = 0;
  double median_ape = 0;  // percent
  double mean_ape = 0;    // percent
  double within_25 = 0;   // share of rows within +-25%, percent
};

struct CalibrationRow {
  MeasuredRow row;
  bool mapped = false;
  std::string reason;          // why not mapped
  std::string gpu_id, model_id, quant_id, runtime_id;
  std::string backend;
  std::vector<std::string> groups;  // "vendor=NVIDIA", "runtime=llama.cpp/CUDA", ...
  std::vector<std::string> notes;   // mapping assumptions
  double decode_pred = 0, prefill_pred = 0;
  double decode_ape = -1, prefill_ape = -1;  // percent; -1 = not compared
};

struct CalibrationGroup {
  std::string name;  // "overall", "vendor=NVIDIA", ...
  CalibrationStats decode, prefill;
};

struct CalibrationReport {
  std::vector<CalibrationRow> rows;      // every row, mapped or not, file order
  std::vector<CalibrationGroup> groups;  // "overall" first, then sorted by name
  int unmapped = 0;
};

CalibrationReport RunCalibration(const Catalog& catalog, const Estimator& estimator,
                                 const std::vector<MeasuredRow>& rows);

CalibrationStats ComputeStats(std::vector<double> apes);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ESTIMATOR_CALIBRATION_H_
