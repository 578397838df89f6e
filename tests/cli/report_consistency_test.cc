// The reports agree with the estimator, with each other, and with common sense:
// - fit numbers equal `fitrank estimate` for the same inputs;
// - the scaling table's "models that fit" equals an independent count over the catalog;
// - "runs N of the top 50" never exceeds the top models that fit;
// - an upgrade never unlocks a model the current setup already runs well;
// - bad input gets did-you-mean and exit 2; questions with no answer exit 1.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/render_json.h"
#include "cli/report_context.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

const ReportEnv& Env() {
  static Context* ctx = [] {
    auto* c = new Context;
    static std::ostringstream sink;
    c->out = &sink;
    c->err = &sink;
    c->data = DefaultSource("");
    return c;
  }();
  return LoadReportEnv(*ctx);
}

TEST(ReportConsistency, FitEqualsEstimate) {
  for (const char* gpu : {"geforce-rtx-4090", "instinct-mi325x", "apple-m4-max-40-core-gpu-64gb"}) {
    for (const char* model : {"llama-3.1-8b-instruct", "llama-3.3-70b-instruct", "qwen3-30b-a3b"}) {
      Json fit = FitrankJson({"fit", model, "--gpu", gpu, "--quant", "Q4_K_M", "--workload", "coding"});
      const Workload* w = Env().profiles->FindWorkload("coding").found;
      const Model* m = Env().catalog->ModelById(model);
      int context = std::min(w->context_tokens, m->max_context);
      Json est = FitrankJson({"estimate", "--gpu", gpu, "--model", model, "--quant", "Q4_K_M",
                          "--runtime", fit["runtime"].get<std::string>(), "--context",
                          std::to_string(context), "--prompt",
                          std::to_string(std::min(w->prompt_tokens, context)), "--gen",
                          std::to_string(w->output_tokens), "--kv-cache",
                          fit["kv_cache"].get<std::string>()});
      SCOPED_TRACE(std::string(gpu) + " " + model);
      EXPECT_NEAR(fit["decode_tok_s"].get<double>(), est["decode_tok_s"].get<double>(), 0.06);
      EXPECT_NEAR(fit["ttft_ms"].get<double>(), est["ttft_ms"].get<double>(), 0.6);
      EXPECT_NEAR(fit["memory"]["total_gb"].get<double>(), est["memory"]["total_gb"].get<double>(), 0.006);
      EXPECT_EQ(fit["fit"]["kind"], est["fit"]["kind"]);
      EXPECT_EQ(fit["safe_context"], est["safe_context"]);
    }
  }
}

// An independent count: every assistant model at the count quant with the count workload's
// context, straight through the estimator (a q8_0 KV cache where f16 does not fit natively and
// the runtime can quantize it, as reports do).
int CountNative(const fitrank::Setup& setup) {
  const ReportEnv& env = Env();
  const Quant* q = env.catalog->QuantById(env.policy->count_quant.id);
  const Workload* w = env.profiles->FindWorkload(env.policy->count_workload.id).found;
  int n = 0;
  for (const Model& m : env.catalog->models()) {
    if (m.kind == "embedding" || m.kind == "base" || m.kind == "code-completion") continue;
    EstimateInput in;
    in.setup = &setup;
    in.model = &m;
    in.quant = q;
    in.runtime = env.estimator->DefaultRuntime(*env.catalog, setup, q);
    in.context = std::min(w->context_tokens, m.max_context);
    in.prompt_tokens = std::min(w->prompt_tokens, in.context);
    in.gen_tokens = w->output_tokens;
    Estimate e;
    env.estimator->Run(in, &e);
    if (!e.runs_natively() && e.memory.kv_gb > 0) {
      in.kv_cache = env.estimator->FallbackKvCache(in.runtime);
      if (in.kv_cache != KvCacheType::kF16) env.estimator->Run(in, &e);
    }
    n += e.runs_natively();
  }
  return n;
}

TEST(ReportConsistency, ScalingCountsAgreeWithFits) {
  const ReportEnv& env = Env();
  for (const char* gpu : {"geforce-rtx-4060", "geforce-rtx-4090", "nvidia-h100-sxm5-80gb"}) {
    Json page = FitrankJson({"gpu", gpu});
    const Gpu* g = env.catalog->GpuById(gpu);
    for (const Json& row : page["multi_gpu"]["rows"]) {
      int n = row["gpus"].get<int>();
      absl::StatusOr<fitrank::Setup> s = SetupOfCount(env, *g, n);
      ASSERT_TRUE(s.ok());
      EXPECT_EQ(row["models_fit"].get<int>(), CountNative(*s)) << gpu << " x" << n;
    }
    // Runs N of the top 50 well: never more than the top models that fit at all.
    const Json& b = page["buying_advice"];
    EXPECT_LE(b["runs_well"].get<int>(), b["top_n"].get<int>());
    EXPECT_LE(b["runs_well"].get<int>(), page["multi_gpu"]["rows"][0]["models_fit"].get<int>());
  }
}

TEST(ReportConsistency, UpgradesNeverUnlockWhatAlreadyRuns) {
  const ReportEnv& env = Env();
  for (const char* gpu : {"geforce-rtx-4060", "geforce-rtx-4090"}) {
    Json up = FitrankJson({"upgrade", "--gpu", gpu, "--workload", "coding"});
    Json fits = Json::object();
    const Gpu* g = env.catalog->GpuById(gpu);
    absl::StatusOr<fitrank::Setup> s = SetupOfCount(env, *g, 1);
    ASSERT_TRUE(s.ok());
    const Quant* q = env.catalog->QuantById(env.policy->count_quant.id);
    WorkloadShape shape =
        ShapeFor(*env.profiles->FindWorkload("coding").found, env.profiles->default_mode());
    for (const Json& o : up["options"]) {
      for (const Json& u : o["unlocks"]) {
        const Model* m = env.catalog->ModelById(u["model_id"].get<std::string>());
        ASSERT_NE(m, nullptr);
        LlmRun now = RunLlm(env, *s, *m, *q, shape);
        bool native = now.runnable() && (now.estimate.fit.kind == FitKind::kNativeComfortable ||
                                         now.estimate.fit.kind == FitKind::kNativeTight);
        SCOPED_TRACE(o["action"].get<std::string>() + ": " + m->id);
        if (u["how"] == "fits-natively") {
          EXPECT_FALSE(native);
        } else {
          EXPECT_EQ(u["how"], "reaches-speed");
          EXPECT_TRUE(native);
          EXPECT_LT(now.estimate.decode_tok_s, shape.decode_target_tok_s);
        }
      }
    }
  }
}

TEST(ReportErrors, UnknownNamesAndImpossibleSetups) {
  CliRun r = Fitrank({"recommend", "--gpu", "RTX 4909"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("did you mean"), std::string::npos) << r.err;
  r = Fitrank({"gpu", "geforce-rtx-4090", "--gpus", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--gpus"), std::string::npos) << r.err;
  r = Fitrank({"recommend", "--gpu", "geforce-rtx-4090", "--workload", "codng"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("did you mean `coding`?"), std::string::npos) << r.err;
  r = Fitrank({"recommend", "--gpu", "geforce-rtx-4090", "--mode", "interactiv"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("interactive"), std::string::npos) << r.err;
  r = Fitrank({"fit", "llama 9.9 1b", "--gpu", "geforce-rtx-4090"});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"fit", "--gpu", "geforce-rtx-4090"});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"compare", "geforce-rtx-4090"});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"compare", "geforce-rtx-4090", "rtx 4090"});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"recommend"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--gpu"), std::string::npos);
  r = Fitrank({"recommend", "--gpu", "geforce-rtx-4090", "--min-grade", "Z"});
  EXPECT_EQ(r.code, 2);
}

TEST(ReportErrors, NoAnswerExitsOne) {
  CliRun r = Fitrank({"upgrade", "--gpu", "geforce-rtx-4090", "--budget", "5"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("below every upgrade option"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(ReportErrors, ColourOnlyOnATerminal) {
  CliRun r = Fitrank({"recommend", "--gpu", "geforce-rtx-4090"});
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace fitrank::cli
