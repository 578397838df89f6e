// Ranking many setups at once: every GPU x workload x mode of a sweep (and `rules diff`),
// spread over worker threads and delivered in a deterministic order.
//
//   SweepPlan plan;                         // which GPUs, workloads, modes (default: all)
//   RunSweep(evaluator, plan, [&](const SweepCell& cell) { ...write rows... });
//
// Each GPU is ranked as one setup of one GPU with its class's default host RAM (scale-out
// modes try 2, 4 and 8 of it). Cells arrive on the calling thread in plan order (GPU, then
// workload, then mode) whatever the thread count, so output is the same byte for byte. All
// cells of one GPU are ranked in one pass (Evaluator::RankGroups), sharing their sizings.
#ifndef FITRANK_ENGINE_SCORING_SWEEP_H_
#define FITRANK_ENGINE_SCORING_SWEEP_H_

#include <functional>
#include <string>
#include <vector>

#include "engine/scoring/evaluate.h"

namespace fitrank {

struct SweepPlan {
  std::vector<const Gpu*> gpus;             // empty: every GPU of the catalog
  std::vector<const Workload*> workloads;   // empty: every workload
  std::vector<const Mode*> modes;           // empty: every mode
  int threads = 2;                          // worker threads (>= 1)
  int top = 0;                              // keep the top K of each ranking; 0: all
};

// One ranking of a sweep. `query` and the candidates' pointers stay valid only during the
// callback.
struct SweepCell {
  const Gpu* gpu = nullptr;
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
  const Query* query = nullptr;  // null if the setup could not be built (see `error`)
  Ranking ranking;  // `excluded` left empty: a sweep ranks only the models that run
  std::string error;
};

// Runs `plan`, calling `emit` for every cell in plan order and `progress(done, total)` (may be
// empty) after each GPU. Returns the number of candidates estimated.
long long RunSweep(const Evaluator& evaluator, const SweepPlan& plan,
                   const std::function<void(const SweepCell&)>& emit,
                   const std::function<void(int, int)>& progress = {});

// RunSweep under several rule trees at once (`rules diff`): the evaluators share the catalog,
// estimator and profiles of the first, so each candidate is estimated once and scored with
// every evaluator's rules. `emit(e, cell)` gets evaluator e's ranking of each cell: cells in
// plan order, and for each cell the evaluators in order.
long long RunSweeps(const std::vector<const Evaluator*>& evaluators, const SweepPlan& plan,
                    const std::function<void(int, const SweepCell&)>& emit,
                    const std::function<void(int, int)>& progress = {});

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_SWEEP_H_
