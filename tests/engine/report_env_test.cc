// engine/report/run_command.h: run commands built from the runtimes' templates run exactly
// the candidate estimated (quant checkpoint, GPU count and split, context, KV cache, offload).
#include "engine/report/run_command.h"

#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

Estimate NativeEstimate(Parallelism p = Parallelism::kLayer) {
  Estimate e;
  e.fit.kind = FitKind::kNativeComfortable;
  e.parallelism = p;
  return e;
}

TEST(RunCommand, LlamaCppUsesAKnownGgufRepoElseNamesALocalFile) {
  const testing::ShippedEngine& e = Shipped();
  const Runtime& llama = *e.catalog->RuntimeById("llama.cpp");
  const Quant& q4 = *e.catalog->QuantById("Q4_K_M");
  fitrank::Setup setup = e.SetupOf("RTX 4090");
  const Model& known = *e.catalog->ModelById("qwen3-30b-a3b-instruct-2507");
  ASSERT_FALSE(known.gguf_repo.empty());
  Estimate q8 = NativeEstimate();
  q8.kv_cache = KvCacheType::kQ8_0;
  EXPECT_EQ(PlanRun(*e.catalog, llama, known, q4, setup, q8, 32768).command,
            "llama-server -hf " + known.gguf_repo +
                ":Q4_K_M -c 32768 -ngl 99 -ctk q8_0 -ctv q8_0");
  Model unknown = known;
  unknown.gguf_repo.clear();
  EXPECT_EQ(PlanRun(*e.catalog, llama, unknown, q4, setup, NativeEstimate(), 4096).command,
            "llama-server -m qwen3-30b-a3b-instruct-2507-Q4_K_M.gguf -c 4096 -ngl 99 -ctk f16 "
            "-ctv f16");
  // No template is left with a placeholder it does not fill.
  for (const Runtime& r : e.catalog->runtimes()) {
    RunPlan plan = PlanRun(*e.catalog, r, known, q4, setup, NativeEstimate(), 4096);
    EXPECT_EQ(plan.command.find('{'), std::string::npos) << r.id << ": " << plan.command;
    for (const std::string& step : plan.steps) {
      EXPECT_EQ(step.find('{'), std::string::npos) << r.id << ": " << step;
    }
  }
}

TEST(RunCommand, OffloadKeepsOnlyTheEstimatedLayersOnTheGpu) {
  const testing::ShippedEngine& e = Shipped();
  const Model& m = *e.catalog->ModelById("llama-3.3-70b-instruct");
  Estimate offload;
  offload.fit.kind = FitKind::kOffload;
  offload.fit.offload_pct = 51;
  RunPlan plan = PlanRun(*e.catalog, *e.catalog->RuntimeById("llama.cpp"), m,
                         *e.catalog->QuantById("Q4_K_M"), e.SetupOf("RTX 4090"), offload, 8192);
  // 80 layers, 49% of them on the GPU.
  EXPECT_NE(plan.command.find(" -ngl 39 "), std::string::npos) << plan.command;
}

TEST(RunCommand, AwqLoadsAnAwqCheckpointElseSaysToQuantizeFirst) {
  const testing::ShippedEngine& e = Shipped();
  const Runtime& vllm = *e.catalog->RuntimeById("vllm");
  const Quant& awq = *e.catalog->QuantById("AWQ-4bit");
  fitrank::Setup setup = e.SetupOf("H100 SXM");
  const Model& listed = *e.catalog->ModelById("llama-3.1-70b-instruct");
  ASSERT_EQ(listed.awq_repo, "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4");
  RunPlan plan = PlanRun(*e.catalog, vllm, listed, awq, setup, NativeEstimate(), 8192);
  EXPECT_EQ(plan.command,
            "vllm serve hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 "
            "--tensor-parallel-size 1 --pipeline-parallel-size 1 --max-model-len 8192");
  EXPECT_TRUE(plan.steps.empty());

  const Model& unlisted = *e.catalog->ModelById("llama-3.1-405b-instruct");
  ASSERT_TRUE(unlisted.awq_repo.empty());
  plan = PlanRun(*e.catalog, vllm, unlisted, awq, setup, NativeEstimate(), 8192);
  EXPECT_EQ(plan.command,
            "vllm serve ./Llama-3.1-405B-Instruct-AWQ-4bit --tensor-parallel-size 1 "
            "--pipeline-parallel-size 1 --max-model-len 8192");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0],
            "# quantize first: meta-llama/Llama-3.1-405B-Instruct to AWQ-4bit in "
            "./Llama-3.1-405B-Instruct-AWQ-4bit with AutoAWQ or llm-compressor (AWQ, W4A16, "
            "group size 128) (no AWQ-4bit checkpoint of this model is known)");
  // FP8: the FP8 checkpoint the catalog lists.
  plan = PlanRun(*e.catalog, vllm, unlisted, *e.catalog->QuantById("FP8"), setup,
                 NativeEstimate(), 8192);
  EXPECT_EQ(plan.checkpoint, "nvidia/Llama-3.1-405B-Instruct-FP8");
}

TEST(RunCommand, ParallelSizeIsTheGpuCountOfTheEstimate) {
  const testing::ShippedEngine& e = Shipped();
  const Model& m = *e.catalog->ModelById("llama-3.1-405b-instruct");
  const Quant& fp8 = *e.catalog->QuantById("FP8");
  fitrank::Setup two = e.SetupOf("MI325X", 2);
  RunPlan plan = PlanRun(*e.catalog, *e.catalog->RuntimeById("vllm"), m, fp8, two,
                         NativeEstimate(Parallelism::kTensor), 8192);
  EXPECT_NE(plan.command.find("--tensor-parallel-size 2 --pipeline-parallel-size 1"),
            std::string::npos)
      << plan.command;
  EXPECT_EQ(plan.gpus, 2);
  plan = PlanRun(*e.catalog, *e.catalog->RuntimeById("sglang"), m, fp8, two,
                 NativeEstimate(Parallelism::kLayer), 8192);
  EXPECT_NE(plan.command.find("--tp 1 --pp-size 2"), std::string::npos) << plan.command;
}

TEST(RunCommand, OllamaPinsTheQuantFromAGgufRepoElseServesItsTagsQuant) {
  const testing::ShippedEngine& e = Shipped();
  const Runtime& ollama = *e.catalog->RuntimeById("ollama");
  const Quant& iq1 = *e.catalog->QuantById("IQ1_S");
  const Model& known = *e.catalog->ModelById("qwen3-30b-a3b-instruct-2507");
  fitrank::Setup setup = e.SetupOf("RTX 4090");
  EXPECT_EQ(ServedQuant(*e.catalog, ollama, known, iq1), &iq1);
  RunPlan plan = PlanRun(*e.catalog, ollama, known, iq1, setup, NativeEstimate(), 8192);
  EXPECT_EQ(plan.command, "ollama run hf.co/" + known.gguf_repo + ":IQ1_S");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0], "OLLAMA_CONTEXT_LENGTH=8192 ollama serve");

  Model tag_only = known;
  tag_only.gguf_repo.clear();
  ASSERT_FALSE(tag_only.ollama_tag.empty());
  EXPECT_EQ(ServedQuant(*e.catalog, ollama, tag_only, iq1)->id, "Q4_K_M");
  plan = PlanRun(*e.catalog, ollama, tag_only, iq1, setup, NativeEstimate(), 8192);
  ASSERT_NE(plan.quant, nullptr);
  EXPECT_EQ(plan.quant->id, "Q4_K_M");
  EXPECT_EQ(plan.command, "ollama run " + tag_only.ollama_tag);
}

TEST(RunCommand, GgufReposAreNamedHuggingFaceGgufRepos) {
  int with = 0;
  for (const Model& m : Shipped().catalog->models()) {
    if (m.gguf_repo.empty()) continue;
    ++with;
    EXPECT_NE(m.gguf_repo.find('/'), std::string::npos) << m.id;
    EXPECT_NE(m.gguf_repo.find("GGUF"), std::string::npos) << m.id << ": " << m.gguf_repo;
  }
  EXPECT_GT(with, 100);
}

}  // namespace
}  // namespace fitrank
