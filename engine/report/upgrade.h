// The upgrade report (`fitrank upgrade --gpu G [--budget USD]`): what each purchase unlocks
// and what it costs per unlocked model. Plain structs, filled by engine/upgrade.cc.
#ifndef FITRANK_ENGINE_REPORT_UPGRADE_H_
#define FITRANK_ENGINE_REPORT_UPGRADE_H_

#include <string>
#include <vector>

#include "engine/estimator/setup.h"
#include "engine/report/report.h"

namespace fitrank {

// A model an upgrade unlocks: the new setup runs it natively at or above the workload's decode
// target, the current one does not. `how` is "fits-natively" (it did not run natively before)
// or "reaches-speed" (it ran natively before, below the target). `quality` is its workload
// quality figure as ranked (lowered once for its uncertainty), 0-100.
struct UnlockedModel {
  std::string model;
  std::string model_id;
  double params_b = 0;
  double quality = 0;
  std::string how;
  double decode_tok_s = 0;   // on the upgraded setup
};

struct UpgradeOption {
  // "replace" another GPU instead of the current one; "add-same" more of the same GPU;
  // "add-different" a second, different GPU in the same machine; "host-ram" more system RAM;
  // "unified" a unified-memory machine (Apple, Strix Halo, DGX Spark).
  std::string kind;
  SetupView setup;           // the setup after the upgrade
  std::vector<DeviceGroup> devices;  // its devices (catalog records): the itinerary's next step
  // The host it was priced on, which the itinerary's next step keeps: the setup's own host RAM
  // (host-ram: the new amount) and memory bandwidth; a unified machine's own memory.
  double host_ram_gb = 0;
  double host_bandwidth_gbps = 0;
  std::string action;        // "Replace with GeForce RTX 5090", "Add a GeForce RTX 3090"
  double price_usd = 0;      // what this step costs (street price, else MSRP; RAM per GB)
  std::string price_basis;   // "street 2026-03", "MSRP", "host RAM at $3.0/GB"
  std::string runtime;       // add-different: which runtime splits a model across both GPUs
  std::vector<UnlockedModel> unlocks;  // best first (quality)
  double best_unlocked_quality = 0;    // unlocks.front().quality, 0 if none
  int unlock_count = 0;
  double usd_per_unlocked_model = 0;   // price / unlock_count; 0 when nothing is unlocked
  const Model* best_model_after = nullptr;  // best model for the workload after the step
  double best_decode_tok_s_after = 0;
};

struct ItineraryStep {
  int step = 0;
  UpgradeOption option;
  double cumulative_usd = 0;
  std::string why;           // one sentence
};

struct UpgradeReport {
  SetupView current;
  const Workload* workload = nullptr;  // the profiles'
  const Mode* mode = nullptr;
  double budget_usd = 0;                 // 0 = no budget given
  int current_native_models = 0;         // models that run natively now
  int current_fast_models = 0;           // natively and at the workload's speed target
  double speed_target_tok_s = 0;
  const Model* best_model_now = nullptr;
  std::vector<UpgradeOption> options;    // ranked: best model unlocked first, then $ per model
  std::vector<ItineraryStep> itinerary;  // best sequence within the budget
  std::vector<std::string> notes;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_UPGRADE_H_
