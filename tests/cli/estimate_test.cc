// `fitrank estimate` and `fitrank calibrate` end to end through RunCli.
#include <sstream>

#include "cli/command.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

TEST(EstimateCli, JsonHasTheInterfaceKeys) {
  CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--quant", "Q4_K_M", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"decode_tok_s", "prefill_tok_s", "ttft_ms", "memory", "fit", "safe_context", "range", "basis"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  for (const char* k : {"weights_gb", "kv_gb", "overhead_gb", "total_gb", "usable_gb"}) EXPECT_TRUE(j["memory"].contains(k)) << k;
  for (const char* k : {"kind", "headroom_pct", "offload_pct", "host_ram_gb"}) EXPECT_TRUE(j["fit"].contains(k)) << k;
  EXPECT_TRUE(j["range"].contains("decode_low"));
  EXPECT_TRUE(j["range"].contains("decode_high"));
  EXPECT_GT(j["decode_tok_s"].get<double>(), 50);
  EXPECT_EQ(j["fit"]["kind"], "native-comfortable");
  EXPECT_EQ(r.out.find("nan"), std::string::npos);
  EXPECT_EQ(r.out.find("inf"), std::string::npos);
}

TEST(EstimateCli, TableShowsTheBasis) {
  CliRun r = Fitrank({"estimate", "--gpu", "rtx 3090", "--gpus", "2", "--model", "llama 3.3 70b", "--quant", "Q4_K_M"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("decode"), std::string::npos);
  EXPECT_NE(r.out.find("Basis:"), std::string::npos);
  EXPECT_NE(r.out.find("constant decode.bw_efficiency"), std::string::npos);
}

TEST(EstimateCli, BadInputExitsTwo) {
  EXPECT_EQ(Fitrank({"estimate", "--gpu", "rtx 4099x", "--model", "llama 3.1 8b"}).code, 2);
  CliRun unknown_model = Fitrank({"estimate", "--gpu", "4090", "--model", "no such model xyz"});
  EXPECT_EQ(unknown_model.code, 2);
  EXPECT_EQ(Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--context", "0"}).code, 2);
  EXPECT_EQ(Fitrank({"estimate", "--gpu", "4090", "--gpus", "0", "--model", "llama 3.1 8b"}).code, 2);
  EXPECT_EQ(Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--ram", "-1"}).code, 2);
  EXPECT_EQ(Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--batch", "100000000"}).code, 2);
  CliRun huge = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--context", "99999999999"});
  EXPECT_EQ(huge.code, 2);
  EXPECT_NE(huge.err.find("out of range"), std::string::npos) << huge.err;
  CliRun fp8 = Fitrank({"estimate", "--gpu", "rtx 3090", "--model", "llama 3.1 8b", "--quant", "FP8", "--runtime", "vllm"});
  EXPECT_EQ(fp8.code, 2);
  EXPECT_NE(fp8.err.find("FP8"), std::string::npos) << fp8.err;
  CliRun mlx = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--quant", "F16", "--runtime", "mlx"});
  EXPECT_EQ(mlx.code, 2);
  EXPECT_NE(mlx.err.find("does not run on"), std::string::npos) << mlx.err;
  CliRun missing = Fitrank({"estimate", "--gpu", "4090", "--model-config",
                     std::string(FITRANK_SOURCE_DIR) + "/tests/engine/testdata/missing-hidden.config.json"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("missing field `hidden_size`"), std::string::npos) << missing.err;
}

TEST(EstimateCli, ModelConfigAndBpw) {
  CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model-config",
               std::string(FITRANK_SOURCE_DIR) + "/tests/engine/testdata/llama-3.1-8b.config.json",
               "--quant", "EXL2", "--bpw", "4.65", "--runtime", "exllamav2", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["bpw"].get<double>(), 4.65);
}

TEST(CalibrateCli, BadFileIsExitTwo) {
  CliRun r = Fitrank({"calibrate", "--measurements", "/nonexistent.tsv"});
  EXPECT_EQ(r.code, 2);
}

}  // namespace
}  // namespace fitrank::cli
