// The model-on-setup report (`fitrank fit MODEL --gpu G`). Plain structs, filled by
// engine/fit_report.cc, rendered by cli/render_fit.cc.
#ifndef FITRANK_ENGINE_REPORT_FIT_H_
#define FITRANK_ENGINE_REPORT_FIT_H_

#include <string>
#include <vector>

#include "engine/report/report.h"

namespace fitrank {

struct MemoryView {
  double weights_gb = 0;
  double kv_gb = 0;
  double overhead_gb = 0;
  double total_gb = 0;       // needed
  double usable_gb = 0;      // accelerator memory the model may use with the report's runtime
  std::string usable_note;   // why usable_gb is below the setup's (the runtime's memory share)
  double over_gb = 0;        // total - usable when positive, else 0
  double free_gb = 0;        // usable - total when positive, else 0
};

struct FitWorkloadRow {
  const Workload* workload = nullptr;  // the profiles'
  std::string quant;         // the workload's best quant (the report's --quant when given)
  int grade_index = -1;      // into FitReport::grades; -1 not graded
  double score = 0;
  FitView fit;
  double decode_tok_s = 0;
  double ttft_ms = 0;
  int context = 0;           // workload context actually usable (capped by safe context)
};

struct QuantRow {
  const Quant* quant = nullptr;  // the catalog's
  double bits = 0;           // nominal
  double bpw = 0;            // effective bits per weight, as the estimate used for this model
  double memory_gb = 0;      // total needed at the report's workload context
  double quality_retention = 0;
  std::string quality_label; // "Maximum" | "Very high" | "High" | "Medium" | "Low"
  FitView fit;
  double decode_tok_s = 0;
  int grade_index = -1;      // into FitReport::grades; -1 when the quant cannot run here
  double score = 0;
  bool supported = true;     // the hardware/runtimes can run it at all
  std::string note;          // why not supported, e.g. "needs FP8 hardware"
  bool best = false;         // the quant the rules pick for this setup
};

// One runtime's command for the model, and the numbers of what it runs.
struct RunCommand {
  const Runtime* runtime = nullptr;  // the catalog's
  std::string command;
  std::vector<std::string> steps;  // to run first (download, quantize, server); may be empty
  const Quant* quant = nullptr;  // the quant the command loads; the note's numbers are for it
  int gpus = 0;              // GPUs it runs on
  std::string note;          // "AWQ-4bit, native-tight, ~17 tok/s"
};

struct FitReport {
  SetupView setup;
  // The model (the catalog's, or one read from a file by the caller, which keeps it alive as
  // long as the report).
  const Model* model = nullptr;
  const Quant* quant = nullptr;  // the catalog's quant the headline numbers use (best, or --quant)
  const Runtime* runtime = nullptr;  // the catalog's runtime of the headline numbers; null: none
  const Workload* workload = nullptr;  // the profiles'
  const Mode* mode = nullptr;
  const GradeScale* grades = nullptr;  // the profiles' scale every grade_index points into
  std::string summary;        // one sentence answer
  MemoryView memory;
  FitView fit;
  double decode_tok_s = 0;
  double decode_low_tok_s = 0;
  double decode_high_tok_s = 0;
  double prefill_tok_s = 0;
  double ttft_ms = 0;
  int safe_context = 0;
  KvCacheType kv_cache = KvCacheType::kF16;  // estimated (q8_0 when f16 does not fit)
  int grade_index = -1;          // into the profiles' grade scale, best first; -1 not graded
  double score = 0;
  std::vector<std::string> reasons;
  std::vector<AdviceItem> advice;
  std::vector<FitWorkloadRow> workloads;
  std::vector<QuantRow> quants;
  std::vector<RunCommand> run_commands;
  std::vector<std::string> basis;   // estimator basis lines
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_FIT_H_
