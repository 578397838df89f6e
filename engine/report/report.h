// Building blocks shared by every user-facing report (recommend, gpu, fit, upgrade, compare).
//
// Reports are plain structs: the engine fills them from the catalog, the estimator and the
// rules; cli/render_*.cc print them as a table, JSON, markdown or CSV. No I/O here, no
// formatting: numbers keep their units in their names and are never NaN or infinite (a value
// that does not exist is 0 and its meaning is carried by a status field, e.g. fit.kind
// "no-fit" has decode_tok_s 0).
#ifndef FITRANK_ENGINE_REPORT_REPORT_H_
#define FITRANK_ENGINE_REPORT_REPORT_H_

#include <string>
#include <vector>

#include "engine/estimator/estimator.h"
#include "profiles/profiles.h"

namespace fitrank {

// The hardware a report is about: one GPU, N of the same, or a mixed rig, plus host RAM.
struct SetupView {
  std::string label;                 // "GeForce RTX 4090", "2x GeForce RTX 4090",
                                     // "GeForce RTX 4090 + GeForce RTX 3090"
  std::vector<std::string> gpu_ids;  // one entry per device, catalog ids
  int gpu_count = 0;
  double memory_gb = 0;              // accelerator memory on the spec sheet, all devices
  double usable_gb = 0;              // what models may use (reserve / working-set limit applied)
  double host_ram_gb = 0;            // host RAM available for offload
  double bandwidth_gbps = 0;         // peak memory bandwidth of the fastest device
};

// How a model fits a setup. `kind` (engine/estimator/estimator.h), best first:
//   kNativeComfortable  whole working set in accelerator memory with headroom to spare
//   kNativeTight        fits in accelerator memory, little headroom
//   kOffload            part of the working set lives in host RAM (offload_pct, host_ram_gb)
//   kNoFit              does not fit even with host RAM
// Renderers and JSON writers name it (FitKindName: "native-comfortable" ... "no-fit").
struct FitView {
  FitKind kind = FitKind::kNoFit;
  double headroom_pct = 0;  // free share of usable accelerator memory (native fits)
  double offload_pct = 0;   // share of the working set in host RAM (offload)
  double host_ram_gb = 0;   // host RAM the offloaded part needs
};

inline bool IsNative(const FitView& f) { return IsNative(f.kind); }
inline bool Runs(const FitView& f) { return f.kind != FitKind::kNoFit; }

// One ranked candidate: a model at a quantization on a setup, scored for a workload and mode.
// Grades are indices into the profiles' grade scale (profiles/grades.yaml, best first); the
// report that holds the pick carries that scale (`grades`) so renderers can name them.
struct Pick {
  int rank = 0;                      // 1-based within its list
  const Workload* workload = nullptr;  // the workload it was scored for (the profiles')
  const Model* model = nullptr;      // the catalog's (or a --model-gguf file's: process-wide)
  const Quant* quant = nullptr;      // the chosen quantization, the catalog's
  int grade_index = -1;              // into the profiles' grade scale, best first (0 = "A")
  double score = 0;                  // 0-100
  double quality = 0;                // model quality score, 0-100 (catalog)
  double decode_tok_s = 0;           // batch-1 decode at the workload's context
  double decode_low_tok_s = 0;       // estimator's range
  double decode_high_tok_s = 0;
  double ttft_ms = 0;                // time to first token at the workload's prompt
  int context = 0;                   // usable context: min(safe context, model max)
  KvCacheType kv_cache = KvCacheType::kF16;  // estimated (q8_0 when f16 does not fit)
  FitView fit;
  const Runtime* runtime = nullptr;  // the runtime the estimate assumed (the catalog's)
  std::vector<std::string> tags;     // rule tags that fired ("recent", "coder", ...)
  std::vector<std::string> reasons;  // sentences from the rules that fired, in rule order
  int gpus = 0;                      // GPUs the estimate used (scale-out: can exceed the setup's)
  std::string run_command;           // copy-paste command, "" if no runtime template applies
  std::vector<std::string> run_steps;  // to run before it (download, quantize first)
  // Why the estimate had less memory than the setup's usable figure (the runtime claims a
  // share: UsableMemoryNote in env.h); "" when it had all of it.
  std::string usable_note;
};

// A named advice item: stable id, a short title, and one explanatory sentence or two.
struct AdviceItem {
  std::string id;      // "offload-active", "little-headroom", "remove-offload", ...
  std::string title;
  std::string detail;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_REPORT_H_
