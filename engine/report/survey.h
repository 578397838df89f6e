// The model survey: how every assistant model of the catalog runs on a setup, at the policy's
// count quant for one workload shape (the upgrade planner's and compare's "what runs here").
//
// Each model is estimated as RunLlm estimates it (engine/report/env.h: the workload's lengths,
// the setup's default runtime for the count quant, a q8_0 KV cache where f16 does not fit
// natively), but in two steps: Estimator::Size for every model, then the decode speed alone
// (Estimator::FinishDecodeTokS; no prefill or serving) only for the models whose speed the
// caller reads. The numbers are those RunLlm gives, to the bit.
#ifndef FITRANK_ENGINE_REPORT_SURVEY_H_
#define FITRANK_ENGINE_REPORT_SURVEY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/report/env.h"

namespace fitrank {

// Per model of env.catalog->models() (same order): how it runs on a setup.
struct ModelState {
  bool assistant = false;  // IsAssistantModel; the other fields stay false/0 when not
  bool native = false;     // runnable, and natively (all in accelerator memory)
  bool fast = false;       // native and at the workload's decode target
  double decode_tok_s = 0;  // RunLlm's decode speed; 0 when it does not run (see SurveyDepth)
};

// How much of the decode speeds a survey works out.
enum class SurveyDepth : uint8_t {
  kFull,        // decode_tok_s of every model that runs, natively or offloaded
  kNativeOnly,  // decode_tok_s of the models that run natively; 0 for offloaded ones
};

// Surveys of one workload shape over any number of setups, each setup surveyed once: a survey
// is kept (per SameSetup setup and depth) for as long as the ModelSurvey lives. A request at
// kNativeOnly may be answered by a kept kFull survey (it holds the same native states and
// speeds, plus the offloaded speeds).
//
// Not thread-safe (one per report builder); `env` and its objects must outlive it.
class ModelSurvey {
 public:
  ModelSurvey(const ReportEnv& env, const WorkloadShape& shape);
  ~ModelSurvey();
  ModelSurvey(const ModelSurvey&) = delete;
  ModelSurvey& operator=(const ModelSurvey&) = delete;

  // The states of every catalog model on `setup`. The reference stays valid as long as this
  // object. All states are default (not native) when the policy has no count quant.
  const std::vector<ModelState>& Of(const Setup& setup, SurveyDepth depth);

  // Surveys actually computed (not answered from those kept), for tests.
  int computed() const { return computed_; }

 private:
  struct Kept;
  std::vector<ModelState> Compute(const Setup& setup, SurveyDepth depth) const;

  const ReportEnv& env_;
  const Quant* quant_;  // the policy's count quant; may be null
  // Per catalog model: RunLlm's input with setup and runtime left null (set per survey);
  // model == nullptr for models that are not assistant models.
  std::vector<EstimateInput> inputs_;
  double decode_target_tok_s_;
  std::vector<std::unique_ptr<Kept>> kept_;
  int computed_ = 0;
};

// One full survey (kFull), nothing kept: ModelSurvey(env, shape).Of(setup, SurveyDepth::kFull).
std::vector<ModelState> Survey(const ReportEnv& env, const Setup& setup,
                               const WorkloadShape& shape);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_SURVEY_H_
