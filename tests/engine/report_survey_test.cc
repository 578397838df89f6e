// engine/report/survey.h: the model survey sizes every model and finishes only the ones whose
// speed it reports, yet every state must be what RunLlm (the one estimate all reports make)
// gives, model by model, whatever the setup, workload or mode; and each setup is surveyed once.
#include <string>
#include <vector>

#include "engine/report/env.h"
#include "engine/report/survey.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

// Setups that cover every branch of the survey: native, offloaded and no-fit models, the q8_0
// KV cache fallback, several GPUs of one kind and a mixed rig, unified memory, another vendor.
std::vector<Setup> Setups() {
  const auto& e = Shipped();
  std::vector<Setup> out = {e.SetupOf("RTX 4090"), e.SetupOf("RTX 3060 12GB"),
                            e.SetupOf("RTX 3090", 2), e.SetupOf("Instinct MI325X"),
                            e.SetupOf("Apple M4 Max (40-core GPU) 48GB"),
                            e.SetupOf("AMD Ryzen AI Max+ 395 (Radeon 8060S) 128GB")};
  SetupOptions small_host;
  small_host.interconnects = &e.catalog->interconnects();
  small_host.host_ram_gb = 16;  // little room to offload: some models do not fit at all
  absl::StatusOr<Setup> mixed =
      BuildSetup(*e.estimator, {{e.catalog->FindGpu("RTX 4090").found, 1},
                                {e.catalog->FindGpu("RTX 3090").found, 1}}, small_host);
  EXPECT_TRUE(mixed.ok()) << mixed.status();
  if (mixed.ok()) out.push_back(*mixed);
  return out;
}

TEST(ModelSurvey, EveryStateIsWhatRunLlmGives) {
  const auto& e = Shipped();
  const ReportEnv& env = e.engine->env();
  const Quant* quant = env.policy->count_quant.found;
  ASSERT_NE(quant, nullptr);
  const std::vector<Model>& models = e.catalog->models();
  int native = 0, offloaded = 0, no_fit = 0, kv_fallback = 0, fast = 0, slow_native = 0;
  for (const fitrank::Setup& setup : Setups()) {
    for (const Workload& w : e.profiles->workloads()) {
      for (const char* mode : {"balanced", "background", "light-api"}) {
        const WorkloadShape shape = ShapeFor(w, *e.profiles->FindMode(mode).found);
        ModelSurvey survey(env, shape);
        const std::vector<ModelState> native_only = survey.Of(setup, SurveyDepth::kNativeOnly);
        const std::vector<ModelState> full = survey.Of(setup, SurveyDepth::kFull);
        ASSERT_EQ(full.size(), models.size());
        ASSERT_EQ(native_only.size(), models.size());
        for (size_t i = 0; i < models.size(); ++i) {
          const std::string where = setup.label + " / " + w.id + " / " + mode + " / " +
                                    models[i].id;
          ModelState want;
          want.assistant = IsAssistantModel(models[i]);
          if (want.assistant) {
            const LlmRun run = RunLlm(env, setup, models[i], *quant, shape);
            if (run.runnable()) {
              want.native = IsNative(run.estimate.fit.kind);
              want.decode_tok_s = run.estimate.decode_tok_s;
              want.fast = want.native && want.decode_tok_s >= shape.decode_target_tok_s;
              native += want.native;
              offloaded += run.estimate.fit.kind == FitKind::kOffload;
              no_fit += run.estimate.fit.kind == FitKind::kNoFit;
              kv_fallback += run.input.kv_cache != KvCacheType::kF16;
              fast += want.fast;
              slow_native += want.native && !want.fast;
            }
          }
          EXPECT_EQ(full[i].assistant, want.assistant) << where;
          EXPECT_EQ(full[i].native, want.native) << where;
          EXPECT_EQ(full[i].fast, want.fast) << where;
          EXPECT_EQ(full[i].decode_tok_s, want.decode_tok_s) << where;  // to the bit
          EXPECT_EQ(native_only[i].assistant, want.assistant) << where;
          EXPECT_EQ(native_only[i].native, want.native) << where;
          EXPECT_EQ(native_only[i].fast, want.fast) << where;
          EXPECT_EQ(native_only[i].decode_tok_s, want.native ? want.decode_tok_s : 0) << where;
        }
      }
    }
  }
  // The comparison went through every branch.
  EXPECT_GT(native, 0);
  EXPECT_GT(offloaded, 0);
  EXPECT_GT(no_fit, 0);
  EXPECT_GT(kv_fallback, 0);
  EXPECT_GT(fast, 0);
  EXPECT_GT(slow_native, 0);
}

TEST(ModelSurvey, EachSetupIsSurveyedOnce) {
  const auto& e = Shipped();
  const ReportEnv& env = e.engine->env();
  const WorkloadShape shape =
      ShapeFor(*e.profiles->FindWorkload("coding").found, e.profiles->default_mode());
  ModelSurvey survey(env, shape);
  const fitrank::Setup a = e.SetupOf("RTX 4090");
  const fitrank::Setup b = e.SetupOf("RTX 4090", 2);
  survey.Of(a, SurveyDepth::kNativeOnly);
  EXPECT_EQ(survey.computed(), 1);
  survey.Of(e.SetupOf("RTX 4090"), SurveyDepth::kNativeOnly);  // an equal setup
  EXPECT_EQ(survey.computed(), 1);
  survey.Of(b, SurveyDepth::kNativeOnly);
  EXPECT_EQ(survey.computed(), 2);
  // A full survey holds more than a native-only one: worked out again, then answers both.
  survey.Of(a, SurveyDepth::kFull);
  EXPECT_EQ(survey.computed(), 3);
  // A kept full survey answers a native-only request for its setup.
  const fitrank::Setup c = e.SetupOf("RTX 3090");
  const std::vector<ModelState>& full = survey.Of(c, SurveyDepth::kFull);
  EXPECT_EQ(survey.computed(), 4);
  const std::vector<ModelState>& native_only = survey.Of(c, SurveyDepth::kNativeOnly);
  EXPECT_EQ(survey.computed(), 4);
  EXPECT_EQ(&full, &native_only);
}

}  // namespace
}  // namespace fitrank
