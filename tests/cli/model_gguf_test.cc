// --model-gguf on estimate and fit: a synthetic GGUF file (sparse, header only on disk) sized
// exactly from its tensors; corrupt and truncated files refused with the file and byte.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_run.h"
#include "tests/gguf_writer.h"

namespace fitrank::cli {
namespace {

class ModelGguf : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fitrank_gguf_cli_XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(ModelGguf, EstimateUsesTheTensorsExactBytes) {
  testing::GgufWriter w = testing::Llama7BShaped();
  const std::string path = dir_ + "/synthetic-7b.Q4_K_M.gguf";
  w.Write(path);
  nlohmann::json j =
      FitrankJson({"estimate", "--gpu", "4090", "--model-gguf", path, "--context", "4096"});
  EXPECT_EQ(j["model"], "Synthetic 7B");
  EXPECT_EQ(j["model_id"], "gguf:Synthetic 7B");
  EXPECT_EQ(j["quant"], "Q4_K_M");
  EXPECT_EQ(j["runtime"], "llama.cpp");
  EXPECT_DOUBLE_EQ(j["memory"]["weights_gb"].get<double>(),
                   std::round(w.tensor_bytes() / 1e7) / 100);
  // KV: 2 x 32 layers x 32 KV heads x 128 dims x 2 bytes per token.
  EXPECT_DOUBLE_EQ(j["kv_bytes_per_token"].get<double>(), 524288);
  bool noted = false;
  for (const nlohmann::json& n : j["basis"]["notes"]) {
    noted |= n.get<std::string>().find("exactly, from the file's tensors") != std::string::npos;
  }
  EXPECT_TRUE(noted) << j["basis"].dump(2);

  // Another quant is an estimate of a requantized model: params x bpw again.
  nlohmann::json q8 =
      FitrankJson({"estimate", "--gpu", "4090", "--model-gguf", path, "--quant", "Q8_0"});
  EXPECT_GT(q8["memory"]["weights_gb"].get<double>(),
            j["memory"]["weights_gb"].get<double>() * 1.6);
}

TEST_F(ModelGguf, FitPageOfAFile) {
  const std::string path = dir_ + "/m.gguf";
  testing::Llama7BShaped().Write(path);
  CliRun r = Fitrank({"fit", "--model-gguf", path, "--gpu", "4090"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Synthetic 7B"), std::string::npos) << r.out;
  r = Fitrank({"fit", "llama 3.1 8b", "--model-gguf", path, "--gpu", "4090"});
  EXPECT_EQ(r.code, 2);
}

TEST_F(ModelGguf, CorruptTruncatedAndMissingFilesAreRefused) {
  const std::string path = dir_ + "/t.gguf";
  testing::TinyLlama(1).Write(path, /*with_data=*/false);
  CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model-gguf", path});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("fitrank estimate: error: " + path + ": byte "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("past the end of the file ("), std::string::npos) << r.err;

  std::ofstream(path) << "not a model at all";
  r = Fitrank({"estimate", "--gpu", "4090", "--model-gguf", path});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(path + ": byte 0: not a GGUF file (it does not start with `GGUF`)"),
            std::string::npos)
      << r.err;

  r = Fitrank({"estimate", "--gpu", "4090", "--model-gguf", dir_ + "/absent.gguf"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fitrank estimate: error: " + dir_ +
                       "/absent.gguf: cannot open: No such file or directory\n"
                       "  hint: give the path of a .gguf file\n");

  r = Fitrank({"estimate", "--gpu", "4090", "--model-gguf", path, "--model", "llama 3.1 8b"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("give one of --model, --model-config, --model-gguf"), std::string::npos);
}

}  // namespace
}  // namespace fitrank::cli
