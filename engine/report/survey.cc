#include "engine/report/survey.h"

#include <utility>

namespace fitrank {

struct ModelSurvey::Kept {
  Setup setup;
  SurveyDepth depth;
  std::vector<ModelState> states;
};

ModelSurvey::ModelSurvey(const ReportEnv& env, const WorkloadShape& shape)
    : env_(env),
      quant_(env.policy->count_quant.found),
      decode_target_tok_s_(shape.decode_target_tok_s) {
  const std::vector<Model>& models = env.catalog->models();
  inputs_.resize(models.size());
  if (quant_ == nullptr) return;
  // What does not depend on the setup, once per report instead of once per setup surveyed.
  const Setup none;
  for (size_t i = 0; i < models.size(); ++i) {
    if (!IsAssistantModel(models[i])) continue;
    inputs_[i] = LlmInput(env, none, models[i], *quant_, shape, nullptr);
    inputs_[i].setup = nullptr;
  }
}

ModelSurvey::~ModelSurvey() = default;

const std::vector<ModelState>& ModelSurvey::Of(const Setup& setup, SurveyDepth depth) {
  for (const std::unique_ptr<Kept>& k : kept_) {
    if ((k->depth == depth || k->depth == SurveyDepth::kFull) && SameSetup(k->setup, setup)) {
      return k->states;
    }
  }
  auto k = std::make_unique<Kept>();
  k->setup = setup;
  k->depth = depth;
  k->states = Compute(setup, depth);
  ++computed_;
  kept_.push_back(std::move(k));
  return kept_.back()->states;
}

std::vector<ModelState> ModelSurvey::Compute(const Setup& setup, SurveyDepth depth) const {
  const std::vector<Model>& models = env_.catalog->models();
  std::vector<ModelState> out(models.size());
  for (size_t i = 0; i < models.size(); ++i) out[i].assistant = IsAssistantModel(models[i]);
  if (quant_ == nullptr) return out;
  const Estimator& est = *env_.estimator;
  // What depends on the setup and quantization only (not on the model): once per survey.
  const Runtime* runtime = est.DefaultRuntime(*env_.catalog, setup, quant_);
  const KvCacheType fallback = est.FallbackKvCache(runtime);
  EstimateInput in;
  in.setup = &setup;
  in.quant = quant_;
  in.runtime = runtime;
  const ResolvedNames names = est.ResolveNames(in);
  Sizing f16, smaller;
  for (size_t i = 0; i < models.size(); ++i) {
    if (inputs_[i].model == nullptr) continue;  // not an assistant model
    in = inputs_[i];
    in.setup = &setup;
    in.runtime = runtime;
    in.names = &names;
    est.Size(in, &f16);
    if (!f16.estimate.runnable()) continue;
    // RunLlm's KV cache choice, made on the sizings (fit and problems are all it reads).
    EstimateInput x = in;
    const KvCacheType kv =
        ChooseKvCache(f16.estimate, fallback, [&](KvCacheType type) -> const Estimate& {
          x.kv_cache = type;
          est.Size(x, &smaller);
          return smaller.estimate;
        });
    const Sizing& sized = kv != KvCacheType::kF16 ? smaller : f16;
    const EstimateInput& sized_in = kv != KvCacheType::kF16 ? x : in;
    ModelState& s = out[i];
    s.native = IsNative(sized.estimate.fit.kind);
    // A model that does not fit has no speed (Finish leaves it 0); an offloaded one's is only
    // worked out at kFull.
    const bool wanted = s.native || (depth == SurveyDepth::kFull &&
                                     sized.estimate.fit.kind != FitKind::kNoFit);
    if (!wanted) continue;
    s.decode_tok_s = est.FinishDecodeTokS(sized_in, sized);
    s.fast = s.native && s.decode_tok_s >= decode_target_tok_s_;
  }
  return out;
}

std::vector<ModelState> Survey(const ReportEnv& env, const Setup& setup,
                               const WorkloadShape& shape) {
  ModelSurvey survey(env, shape);
  return survey.Of(setup, SurveyDepth::kFull);
}

}  // namespace fitrank
