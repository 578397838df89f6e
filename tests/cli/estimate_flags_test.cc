// `fitrank estimate`'s runtime flags: serving at load (--batch beyond the KV budget,
// --max-num-seqs, --kv-cache fp8) and the runtime options (--backend, --flash-attn, --ubatch).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

nlohmann::json EstimateJson(std::vector<std::string> args) {
  args.insert(args.begin(), "estimate");
  args.push_back("--json");
  CliRun r = Fitrank(args);
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

const std::vector<std::string> kServing = {"--gpu", "h100 sxm", "--gpus", "8", "--model",
                                           "llama 3.3 70b", "--quant", "FP8", "--runtime", "vllm"};

std::vector<std::string> With(std::vector<std::string> base, std::vector<std::string> more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// vLLM queues offered load beyond what its KV budget holds: 4000 sequences on 8 H100s are not a
// "does not fit" but the running concurrency, its speeds and a queue.
TEST(EstimateFlags, ServingEngineQueuesLoadBeyondTheKvBudget) {
  nlohmann::json j = EstimateJson(With(kServing, {"--batch", "4000"}));
  ASSERT_TRUE(j.contains("serving"));
  EXPECT_EQ(j["fit"]["kind"].get<std::string>().rfind("native", 0), 0u) << j["fit"];
  const int running = j["serving"]["concurrency"];
  EXPECT_GT(running, 16);
  EXPECT_LT(running, 4000);
  EXPECT_EQ(j["serving"]["queued"].get<int>(), 4000 - running);
  const double per_user = j["serving"]["per_user_tok_s"], total = j["serving"]["aggregate_tok_s"];
  EXPECT_GT(per_user, 0);
  EXPECT_NEAR(total, per_user * running, 0.01 * total + 1);
  EXPECT_GT(total, 10 * j["decode_tok_s"].get<double>());  // batching pays
  EXPECT_LE(j["memory"]["total_gb"].get<double>(), j["memory"]["usable_gb"].get<double>());
}

TEST(EstimateFlags, Fp8KvCacheDoublesTheSequencesAndMaxNumSeqsCapsThem) {
  nlohmann::json f16 = EstimateJson(With(kServing, {"--batch", "4000"}));
  nlohmann::json fp8 = EstimateJson(With(kServing, {"--batch", "4000", "--kv-cache", "fp8",
                                                    "--max-num-seqs", "4096"}));
  EXPECT_EQ(fp8["workload"]["kv_cache"], "fp8");
  EXPECT_GE(fp8["serving"]["max_concurrency"].get<int>(),
            19 * f16["serving"]["max_concurrency"].get<int>() / 10);
  nlohmann::json capped = EstimateJson(With(kServing, {"--batch", "4000", "--max-num-seqs", "16"}));
  EXPECT_EQ(capped["serving"]["concurrency"], 16);
  EXPECT_EQ(capped["serving"]["queued"], 3984);
}

TEST(EstimateFlags, KvCacheTypesBelongToTheirRuntimes) {
  CliRun fp8 = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--kv-cache", "fp8"});
  EXPECT_EQ(fp8.code, 2);
  EXPECT_NE(fp8.err.find("error: --kv-cache fp8 is a serving-engine cache (vLLM, SGLang, "
                         "TensorRT-LLM); llama.cpp does not have it\n  hint: use --kv-cache q8_0, "
                         "or --runtime vllm"),
            std::string::npos)
      << fp8.err;
  CliRun q8 = Fitrank(With({"estimate"}, With(kServing, {"--kv-cache", "q8_0"})));
  EXPECT_EQ(q8.code, 2);
  EXPECT_NE(q8.err.find("error: --kv-cache q8_0 is a llama.cpp cache type; vllm quantizes its "
                        "cache to fp8\n  hint: use --kv-cache fp8"),
            std::string::npos)
      << q8.err;
}

// Vulkan and ROCm on the same AMD card differ in prefill; the backend is reported.
TEST(EstimateFlags, BackendIsTheUsersChoice) {
  const std::vector<std::string> base = {"--gpu", "7900 xtx", "--model", "llama 3.1 8b", "--quant", "Q4_K_M"};
  nlohmann::json rocm = EstimateJson(With(base, {"--backend", "rocm"}));
  nlohmann::json vulkan = EstimateJson(With(base, {"--backend", "vulkan"}));
  EXPECT_EQ(rocm["backend"], "ROCm");
  EXPECT_EQ(vulkan["backend"], "Vulkan");
  EXPECT_GT(rocm["prefill_tok_s"].get<double>(), 1.2 * vulkan["prefill_tok_s"].get<double>());
  CliRun metal = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--backend", "metal"});
  EXPECT_EQ(metal.code, 2);
  EXPECT_NE(metal.err.find("llama.cpp does not run on GeForce RTX 4090 with Metal"), std::string::npos)
      << metal.err;
  CliRun bad = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--backend", "opencl"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("error: unknown --backend `opencl`\n  hint: use cuda, rocm, vulkan, metal, "
                         "sycl or cpu"),
            std::string::npos)
      << bad.err;
}

TEST(EstimateFlags, FlashAttentionOffMaterialisesTheScores) {
  const std::vector<std::string> base = {"--gpu", "4090", "--model", "llama 3.1 8b", "--quant",
                                         "Q4_K_M", "--context", "16384", "--prompt", "8192"};
  nlohmann::json on = EstimateJson(With(base, {"--flash-attn", "on"}));
  nlohmann::json off = EstimateJson(With(base, {"--flash-attn", "off"}));
  // 512 x 16384 x 32 heads x 4 B = 1.07 GB of scores.
  EXPECT_NEAR(off["memory"]["overhead_gb"].get<double>() - on["memory"]["overhead_gb"].get<double>(),
              1.07, 0.02);
  EXPECT_LT(off["prefill_tok_s"].get<double>(), on["prefill_tok_s"].get<double>());
  CliRun bad = Fitrank(With({"estimate"}, With(base, {"--flash-attn", "auto"})));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("error: unknown --flash-attn `auto`\n  hint: use on or off"), std::string::npos)
      << bad.err;
}

TEST(EstimateFlags, SmallMicroBatchesSlowPrefill) {
  const std::vector<std::string> base = {"--gpu", "4090", "--model", "llama 3.1 8b", "--prompt", "2048"};
  nlohmann::json def = EstimateJson(base);
  nlohmann::json small = EstimateJson(With(base, {"--ubatch", "32"}));
  EXPECT_LT(small["prefill_tok_s"].get<double>(), 0.8 * def["prefill_tok_s"].get<double>());
  EXPECT_EQ(Fitrank(With({"estimate"}, With(base, {"--ubatch", "0"}))).code, 2);
}

}  // namespace
}  // namespace fitrank::cli
