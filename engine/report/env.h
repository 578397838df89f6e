// What every report builder reads: the catalog, the estimator, the profiles, the report policy
// and (once loaded) the scoring engine; plus the small helpers all builders share, so that a
// number printed by one report is computed exactly as in every other (and as `fitrank
// estimate` computes it for the same inputs).
//
// A ReportEnv only points at objects owned by the caller; they must outlive it. Builders are
// pure functions of it and their arguments; thread-safe if the pointed-to objects are.
#ifndef FITRANK_ENGINE_REPORT_ENV_H_
#define FITRANK_ENGINE_REPORT_ENV_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/facts.h"
#include "engine/report/report.h"
#include "engine/report/gpu.h"
#include "engine/report/policy.h"
#include "engine/estimator/setup.h"
#include "profiles/profiles.h"

namespace fitrank {

class Grader;        // engine/report/grader.h: grades and ranked picks from the rules
class ReportTraits;  // engine/report/traits.h: strengths, considerations, decisions from rules

struct ReportEnv {
  const Catalog* catalog = nullptr;
  const Estimator* estimator = nullptr;
  const Profiles* profiles = nullptr;
  const ReportPolicy* policy = nullptr;
  const Grader* grader = nullptr;
  const ReportTraits* traits = nullptr;  // null when the snapshot skipped them (engine.h)
};

// One LLM estimate the way every report makes it: the workload's context (capped at the
// model's maximum), prompt and output lengths, concurrency 1, the runtime fitrank suggests for
// the setup and quant unless `runtime` is given, and, like the ranker, a q8_0 KV cache where
// f16 does not fit natively and the runtime can quantize it (input.kv_cache says which).
struct LlmRun {
  EstimateInput input;
  Estimate estimate;
  const Runtime* runtime = nullptr;
  bool runnable() const { return estimate.runnable(); }
};
LlmRun RunLlm(const ReportEnv& env, const Setup& setup, const Model& model, const Quant& quant,
              const WorkloadShape& shape, const Runtime* runtime = nullptr);
// RunLlm's input before its KV cache choice (f16): the workload's lengths as above, `runtime`
// as given (may be null), the catalog's GGUF size of the pair. For callers that estimate in
// steps (Estimator::Size, then Finish) and must agree with RunLlm.
EstimateInput LlmInput(const ReportEnv& env, const Setup& setup, const Model& model,
                       const Quant& quant, const WorkloadShape& shape, const Runtime* runtime);

SetupView ViewOf(const ReportEnv& env, const Setup& setup);
// Why an estimate had less memory than the setup's usable figure, when its runtime claims only
// a share of device memory (vLLM, SGLang): "vLLM takes 97% of device memory by default: 247 GB
// of the setup's 275 GB usable". "" when the runtime uses the setup's figure. Every page that
// shows an estimate made with such a runtime prints this same sentence: reports.yaml's
// `fit.usable-share` note, said when the gap is at least its min_gap_gb.
std::string UsableMemoryNote(const Estimator& estimator, const ReportPolicy& policy,
                             const Runtime* runtime, const Setup& setup,
                             double estimate_usable_gb);
FitView ViewOf(const FitEstimate& fit);

// Builds N of `gpu` (layer split by default; `tensor` asks for tensor parallelism), with the
// host RAM of `like` (or the GPU class default when null). Error text fit for users.
absl::StatusOr<Setup> SetupOfCount(const ReportEnv& env, const Gpu& gpu, int count,
                                   const Setup* like = nullptr, bool tensor = false);

// The spec sheet of `gpu` with its catalog prices and interconnect name.
SpecsView SpecsOf(const ReportEnv& env, const Gpu& gpu);
// What buying `gpu` costs: street price, else MSRP; 0 when unknown. `basis` gets "street
// 2026-03" / "MSRP".
double PriceOf(const ReportEnv& env, const Gpu& gpu, std::string* basis = nullptr);

// The first id of `ids` the catalog knows, or nullptr.
const Model* FirstKnownModel(const Catalog& catalog, const std::vector<std::string>& ids);
const DiffusionModel* FirstKnownDiffusion(const Catalog& catalog,
                                          const std::vector<std::string>& ids);

// Chat/instruct/reasoning/code LLMs: everything but embedding and base models.
bool IsAssistantModel(const Model& m);
// The policy's top models: assistant models by catalog quality, best first (ties by id).
std::vector<const Model*> TopModels(const ReportEnv& env, int count);

// Whether `quant` can run on `setup` with its default runtime (hardware precision, platform).
bool QuantUsable(const ReportEnv& env, const Setup& setup, const Quant& quant);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_ENV_H_
