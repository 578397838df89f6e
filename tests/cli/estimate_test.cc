// `fitrank estimate` and `fitrank calibrate` end to end through RunCli.
#include <algorithm>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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

// Every format renders the same report: the CSV row's numbers are the JSON's, markdown has the
// row as a table and the basis as a list.
TEST(EstimateCli, EveryFormatRendersTheSameReport) {
  const std::vector<std::string> base = {"estimate", "--gpu", "4090", "--model", "qwen3 8b",
                                         "--quant", "Q4_K_M"};
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return Fitrank(args);
  };
  CliRun json = run({"--json"}), csv = run({"--format", "csv"}), md = run({"--format", "markdown"});
  CliRun jsonl = run({"--format", "jsonl"});
  ASSERT_EQ(json.code, 0) << json.err;
  ASSERT_EQ(csv.code, 0) << csv.err;
  ASSERT_EQ(md.code, 0) << md.err;
  ASSERT_EQ(jsonl.code, 0) << jsonl.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(nlohmann::json::parse(jsonl.out), j);
  EXPECT_EQ(std::count(jsonl.out.begin(), jsonl.out.end(), '\n'), 1);
  EXPECT_EQ(csv.out.rfind("model_id,quant,bpw,runtime,", 0), 0u) << csv.out;
  const std::string decode = absl::StrFormat("%.1f", j["decode_tok_s"].get<double>());
  EXPECT_NE(csv.out.find(absl::StrCat(",", decode, ",")), std::string::npos) << csv.out;
  EXPECT_EQ(md.out.rfind("## Qwen3 8B · Q4_K_M", 0), 0u) << md.out;
  EXPECT_NE(md.out.find("| model_id |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find(decode), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("### Basis\n\n- "), std::string::npos) << md.out;
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
