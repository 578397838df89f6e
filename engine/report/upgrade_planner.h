// The upgrade planner: from a setup, the purchases worth considering (another GPU, more of the
// same GPU, a second different GPU, more host RAM, a unified-memory machine), what each
// unlocks for a workload, and a greedy itinerary within a budget.
//
// "Unlocks" is strict: a model counts only if it did not run natively on the current setup and
// now runs natively at the workload's minimum speed or better (fits-natively), or ran natively
// below the workload's speed target and now meets it (reaches-speed). Models are the catalog's assistant models at the policy's count quant, so
// the counts agree with the GPU page's scaling table.
#ifndef FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_
#define FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_

#include <vector>

#include "engine/report/env.h"
#include "engine/report/upgrade.h"

namespace fitrank {

// Per model of env.catalog->models() (same order): how it runs on a setup.
struct ModelState {
  bool assistant = false;
  bool native = false;
  bool fast = false;       // native and at the workload's decode target
  double decode_tok_s = 0;
};
std::vector<ModelState> Survey(const ReportEnv& env, const Setup& setup,
                               const WorkloadShape& shape);

// GPUs worth buying instead of the setup's: for each memory tier above the setup's usable
// memory, the cheapest priced GPU (a price/memory Pareto frontier), plus the cheapest GPU with
// at least as much memory and much more bandwidth. Deterministic order (price ascending).
std::vector<const Gpu*> CandidateGpus(const ReportEnv& env, const Setup& setup);

// Options from `setup`, ranked (unlocks per dollar), each filled with unlocks against `now`
// (the Survey of `setup`). `first_step` allows replace/unified options.
std::vector<UpgradeOption> UpgradeOptions(const ReportEnv& env, const Setup& setup,
                                          const std::vector<ModelState>& now,
                                          const WorkloadShape& shape, bool first_step,
                                          double budget_usd);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_UPGRADE_PLANNER_H_
