// One candidate: a model at a quantization on a setup, for a workload and mode. What the
// evaluator computes for it (estimate, rule results, score, grade) and what it needs prepared
// per query (the runtime each quantization would use, the setups scale-out may try).
#ifndef FITRANK_ENGINE_SCORING_CANDIDATE_H_
#define FITRANK_ENGINE_SCORING_CANDIDATE_H_

#include <memory>
#include <string>
#include <vector>

#include "catalog/types.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/facts.h"
#include "engine/scoring/grade.h"
#include "engine/estimator/setup.h"

namespace fitrank {

// How one quantization would run on one setup: decided once per query, not per model.
struct QuantPlan {
  const Quant* quant = nullptr;
  const Runtime* runtime = nullptr;  // null: no runtime runs it here
  Backend backend = Backend::kAuto;
  bool serving = false;              // `runtime` serves concurrent users
  // The KV cache `runtime` falls back to when f16 does not fit natively (kF16: none).
  KvCacheType kv_fallback = KvCacheType::kF16;
  uint32_t problems = 0;             // model-independent blocking problems (0 = runs)
  ResolvedNames names;               // for estimates of this quant with `runtime`, `backend`
  bool runs() const { return runtime != nullptr && problems == 0; }
};

// A setup a query may estimate on, with everything that depends only on it.
struct SetupVariant {
  std::unique_ptr<Setup> setup;     // stable address: estimates point at it
  SetupPrice price;
  std::vector<QuantPlan> plans;     // one per catalog quant, catalog order
};

struct CandidateEval {
  const Model* model = nullptr;
  const Quant* quant = nullptr;
  const Runtime* runtime = nullptr;  // the runtime the estimate assumed (null: none runs it)
  const Setup* setup = nullptr;      // the setup estimated on (scale-out: N of the GPU)
  int variant = 0;                   // index into the query's setup variants
  int quant_index = 0;               // index into catalog.quants()
  Estimate estimate;
  Score score;
  double quality = 0;                // the workload's quality figure x quant retention, 0-100
  double user_tok_s = 0;             // decode speed each user sees in this mode
  int context = 0;                   // usable context: min(safe context, model max)
  int cap_rule = -1;                 // rule that capped the grade (index into the rule book)
  int gate_rule = -1;                // rule that excluded it
  bool evaluated = false;            // false: not scored (skipped)

  int gpus() const { return setup != nullptr ? setup->device_count : 0; }
};

// Fit ordered best first: native-comfortable 0, native-tight 1, offload 2, no-fit 3; a
// candidate no runtime runs counts as no-fit.
int FitOrder(const CandidateEval& c);

// Ranking order: higher score first; ties by the higher score before any cap (candidates a cap
// lowered to the same score keep the order the rules gave them), then higher quality, then
// faster decode, then model id and quant id, so every ordering is deterministic.
bool RanksBefore(const CandidateEval& a, const CandidateEval& b);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_CANDIDATE_H_
