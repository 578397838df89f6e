// `fitrank compare A B [C ...]`: side by side specs, models that fit, speed on the policy's
// reference models, cost per million generated tokens (owned: purchase over a stated lifetime
// plus electricity; cloud: $/hour where the catalog knows it), and a decision list.
//
// The decision list is written by the rules of engine/report/traits/compare/*.yaml (see
// engine/report_traits.h): each GPU gets a "pick it if" line for each rule that fires over its
// facts compared with the others' (memory, models only it runs, decode speed, price, cost per
// token, software platforms, FP8/FP4, power, form factor); the margins are in the YAML.
//
// The comparison report (`fitrank compare A B [C ...]`). Plain structs, filled by
// engine/compare.cc, rendered by cli/render_compare.cc.
#ifndef FITRANK_ENGINE_REPORT_COMPARE_H_
#define FITRANK_ENGINE_REPORT_COMPARE_H_

#include <string>
#include <vector>

#include "engine/report/report.h"
#include "engine/report/gpu.h"

namespace fitrank {

struct CompareGpu {
  SpecsView specs;
  int models_fit = 0;        // catalog LLMs that run natively (counting quant, workload context)
  int models_total = 0;
  double price_usd = 0;      // street, else MSRP; 0 = unknown
  std::string price_basis;
  const Model* best_model = nullptr;  // the workload's top pick (the catalog's); null: none
  int best_grade_index = -1; // its grade, into CompareReport::grades; -1 no pick
};

// One reference model on every compared GPU (same order as CompareReport::gpus).
struct RefModelCell {
  FitView fit;
  std::string quant;
  double decode_tok_s = 0;
  double ttft_ms = 0;
  double memory_gb = 0;
  int gpus_needed = 0;       // smallest count of this GPU that runs it natively (0 = > max)
};

struct RefModelRow {
  std::string label;         // "8B dense"
  const Model* model = nullptr;  // the catalog's
  double params_b = 0;
  std::vector<RefModelCell> cells;
};

struct CostRow {
  std::string gpu_id;
  double price_usd = 0;
  double lifetime_years = 0;
  double utilization = 0;          // share of hours generating
  double power_w = 0;
  double usd_per_kwh = 0;
  const Model* throughput_model = nullptr;  // reference model the token count uses
  double throughput_tok_s = 0;     // aggregate tok/s at the serving concurrency
  double usd_per_mtok_owned = 0;   // (price + electricity) / tokens over the lifetime
  double cloud_usd_per_hour = 0;   // 0 = unknown
  double usd_per_mtok_cloud = 0;   // 0 = unknown
};

struct Decision {
  std::string gpu_id;
  std::string gpu;
  std::vector<std::string> reasons;  // "pick X if ..." conditions from engine/report/traits/compare
  std::vector<std::string> rules;    // same index: the id of the rule that wrote each reason
};

struct CompareReport {
  const Workload* workload = nullptr;  // the profiles'
  const Mode* mode = nullptr;
  const GradeScale* grades = nullptr;  // the profiles' scale best_grade_index points into
  std::vector<CompareGpu> gpus;
  std::vector<RefModelRow> reference_models;
  std::vector<CostRow> cost;
  std::string cost_basis;            // the stated assumptions, one sentence
  std::vector<Decision> decisions;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_COMPARE_H_
