// The GPU report (`fitrank gpu G`): everything a person deciding about one GPU wants to know.
// Plain structs, filled by engine/gpu_report.cc, rendered by cli/render_gpu.cc.
#ifndef FITRANK_ENGINE_REPORT_GPU_H_
#define FITRANK_ENGINE_REPORT_GPU_H_

#include <string>
#include <vector>

#include "catalog/types.h"
#include "engine/report/report.h"
#include "engine/report/upgrade.h"

namespace fitrank {

// Whether a capability row's or a diffusion model's representative runs here: natively (in
// accelerator memory), with host-RAM offload, not at all; kUnknown: the catalog has no model
// of the row's class. Named by RunStatusName: "native" | "offload" | "no" | "unknown".
enum class RunStatus : uint8_t { kNative, kOffload, kNo, kUnknown };
absl::string_view RunStatusName(RunStatus s);
// kNative for native fits, kOffload, else kNo.
RunStatus RunStatusOf(FitKind kind);

// The spec sheet, with the prices the catalog knows.
struct SpecsView {
  Gpu gpu;                          // the catalog record (copied)
  std::string interconnect_name;    // "NVLink 4", "PCIe 4.0 x16"
  double usable_gb = 0;             // what models may use on one device
  double street_usd = 0;            // 0 = unknown
  double cloud_usd_per_hour = 0;    // 0 = unknown
  std::string price_as_of;
};

// One row of the AI capability matrix (LLM chat ~8B ... long video).
struct CapabilityRow {
  std::string id;          // "llm-chat", "llm-coding", "llm-large", "image-sdxl", ...
  std::string label;       // "LLM chat (~8B)"
  RunStatus status = RunStatus::kUnknown;
  std::string model;       // representative model display name
  std::string model_id;
  std::string quant;       // LLM rows: quantization assumed; diffusion rows: denoiser precision
  double decode_tok_s = 0; // LLM rows
  double seconds_per_image = 0;  // image rows
  double ms_per_frame = 0;       // video rows
  double memory_gb = 0;    // memory the representative model needs
  std::string detail;      // one short phrase: "62 tok/s at Q4_K_M", "needs 48 GB, has 22.5"
};

struct WorkloadPicks {
  const Workload* workload = nullptr;  // the profiles' (id "chat", ..., name "Agentic coding")
  std::vector<Pick> picks;
};

// A strong model that does not run natively here, and what would run it.
struct OutOfReach {
  std::string model;
  std::string model_id;
  double params_b = 0;
  double active_params_b = 0;
  double quality = 0;
  std::string quant;           // the quant the memory figure assumes
  double needs_gb = 0;         // memory needed at that quant and the workload's context
  double missing_gb = 0;       // needs_gb - usable_gb on this setup
  int scale_out_gpus = 0;      // smallest N (of this GPU) that runs it natively; 0 = none <= max
  std::string scale_out_via;   // interconnect name
  std::string scale_out_parallel;  // "tensor" | "layer"
  double scale_out_decode_tok_s = 0;
  // The cheapest option of the page's upgrade report that unlocks it (same workload), if any.
  std::string unlocked_by;
  double unlocked_by_usd = 0;
};

struct DiffusionRow {
  std::string model;
  std::string model_id;
  DiffusionKind kind = DiffusionKind::kImage;  // renderers name it (DiffusionKindName)
  RunStatus status = RunStatus::kNo;  // never kUnknown
  std::string precision;        // denoiser weights the estimate chose: "BF16", "FP8", "Q4_0", ...
  int width = 0, height = 0, steps = 0, frames = 0;
  double memory_gb = 0;         // needed at the default resolution and that precision
  double seconds_per_image = 0; // image models
  double ms_per_frame = 0;      // video models
};

struct DiffusionSummary {
  int runnable = 0;            // status native or offload
  int native = 0;
  int total = 0;
  std::vector<DiffusionRow> rows;
  std::string basis;           // resolution/steps/precision assumptions, one sentence
};

struct ScalingRow {
  int gpu_count = 0;
  double memory_gb = 0;         // usable memory of the N-GPU setup
  int models_fit = 0;           // catalog LLMs that fit natively at the counting quant/context
  int models_total = 0;
  double bandwidth_gbps = 0;    // effective aggregate bandwidth under tensor parallelism
  double decode_speedup = 0;    // vs 1x, on the reference model of the table
};

struct MultiGpuView {
  std::string interconnect;     // name
  double interconnect_gbps = 0;
  int max_gpus = 0;             // largest N in the table
  double scaling_efficiency = 0;  // per added GPU, from the estimator's tensor-parallel model
  std::vector<ScalingRow> rows;
  std::string basis;            // what the counts assume (quant, workload context)
};

struct BuyingAdvice {
  std::string verdict_id;       // "excellent" | "good" | "limited" | "not-recommended"
  std::string verdict;          // "Excellent choice for local AI"
  std::string summary;          // "Runs 41 of the top 50 models well (grade B or better for chat)."
  int runs_well = 0;
  int top_n = 0;
  int top_native = 0;           // of the top models, those that fit natively at the counting quant
  int top_native_slow = 0;      // of those, the ones decoding below decode_target_tok_s
  double decode_target_tok_s = 0;  // the top models' workload's target in the page's mode
  // What limits first and the red flags are rules of engine/report/traits/gpu (limiters.yaml,
  // red_flags.yaml) over the counts above and the GPU's facts.
  std::string limiter_id;       // the limiter rule's id without `limiter.`: "memory", "bandwidth" ...
  std::string limiter;          // sentence
  std::vector<std::string> red_flags;
  std::vector<std::string> itinerary;  // best upgrade steps, in order, one sentence each
};

struct GpuReport {
  const GradeScale* grades = nullptr;  // the profiles' scale the picks' grade_index points into
  SpecsView specs;
  SetupView setup;
  const Mode* mode = nullptr;             // the operating mode in force (the profiles')
  std::vector<std::string> mode_changes;  // what it changes in the ranking, one phrase each:
                                          // "responsiveness weight x1.5", "concurrency 8"
  // Sentences of the rules of engine/report/traits/gpu/*.yaml that fired, and (same index) the id of
  // the rule that wrote each.
  std::vector<std::string> strengths;
  std::vector<std::string> strength_rules;
  std::vector<std::string> considerations;
  std::vector<std::string> consideration_rules;
  std::vector<CapabilityRow> capability_matrix;
  std::vector<WorkloadPicks> recommendations;
  std::vector<OutOfReach> out_of_reach;
  DiffusionSummary diffusion;
  MultiGpuView multi_gpu;
  BuyingAdvice buying_advice;
  std::vector<UpgradeOption> upgrades;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_GPU_H_
