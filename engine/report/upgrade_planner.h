// The upgrade planner: from a setup, the purchases worth considering (another GPU, more of the
// same GPU, a second different GPU, more host RAM, a unified-memory machine), what each
// unlocks for a workload, and a greedy itinerary within a budget.
//
// "Unlocks" is strict: a model counts only if the new setup runs it natively at or above the
// workload's decode target and the current setup does not (fits-natively: it did not run
// natively before; reaches-speed: it did, below the target), and faster than the current setup
// runs it at all (an offloaded MoE may already run fast). Models are the catalog's assistant
// models at the policy's count quant, so the counts agree with the GPU page's scaling table.
// Options that unlock nothing are not upgrades: they are counted in the notes, not listed.
#ifndef FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_
#define FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_

#include <string>
#include <vector>

#include "engine/report/env.h"
#include "engine/report/survey.h"
#include "engine/report/upgrade.h"

namespace fitrank {

// GPUs worth buying: every priced GPU of the catalog (not CPUs or embedded boards, not the
// setup's own) with more usable memory or more bandwidth than the setup, pruned only by
// dominance on (price, usable memory, bandwidth, platform): a GPU goes when another of the same
// platform costs no more and has at least its memory and bandwidth. Price ascending.
// GPUs without a known price are appended to `unpriced` (if not null) instead.
std::vector<const Gpu*> CandidateGpus(const ReportEnv& env, const Setup& setup,
                                      std::vector<const Gpu*>* unpriced = nullptr);

// What the planner left out, for the report's notes.
struct PlannerNotes {
  int no_gain = 0;                    // options that unlocked nothing
  int cross_platform_skipped = 0;     // second GPUs of another platform (no runtime splits)
  std::vector<std::string> unpriced;  // candidate GPU names without a known price
};

// Options from `setup` that unlock at least one model, ranked by the best model unlocked (its
// workload quality, lowered once for its uncertainty), then $ per unlocked model, then price;
// each filled with unlocks against `now` (the kFull survey of `setup`). The options' setups are
// surveyed (kNativeOnly) by `survey`, made for `shape`. `first_step` allows replace/unified
// options. `notes` (may be null) collects what was left out.
std::vector<UpgradeOption> UpgradeOptions(const ReportEnv& env, const Setup& setup,
                                          const std::vector<ModelState>& now,
                                          const WorkloadShape& shape, ModelSurvey* survey,
                                          bool first_step, double budget_usd,
                                          PlannerNotes* notes = nullptr);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_
