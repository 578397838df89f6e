// Issue 11's defects, each pinned by what a user would check: run commands run the row's
// candidate, pages describe the setup they computed, flags work where the README says.
#include <string>

#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

TEST(ReportDefects, AwqRunCommandNamesAnAwqCheckpointOrAQuantizeStep) {
  nlohmann::json j = FitrankJson({"fit", "llama 3.1 405b", "--gpu", "MI325X"});
  int awq = 0;
  for (const auto& c : j["run_commands"]) {
    if (c["quant"] != "AWQ-4bit") continue;
    ++awq;
    const std::string cmd = c["command"];
    EXPECT_EQ(cmd.find("meta-llama/Llama-3.1-405B-Instruct "), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("./Llama-3.1-405B-Instruct-AWQ-4bit"), std::string::npos) << cmd;
    ASSERT_EQ(c["steps"].size(), 1u);
    EXPECT_NE(c["steps"][0].get<std::string>().find("# quantize first:"), std::string::npos);
  }
  EXPECT_GT(awq, 0);
}

TEST(ReportDefects, ScaleOutParallelSizeEqualsTheGpusUsed) {
  nlohmann::json j = FitrankJson(
      {"recommend", "--gpu", "mi325x", "--mode", "scale-out", "--workload", "all"});
  int multi = 0;
  for (const auto& p : j["picks"]) {
    const int gpus = p["gpus"];
    const std::string cmd = p["run_command"];
    if (gpus < 2 || p["runtime"] != "vllm") continue;
    ++multi;
    EXPECT_TRUE(cmd.find("--tensor-parallel-size " + std::to_string(gpus)) != std::string::npos ||
                cmd.find("--pipeline-parallel-size " + std::to_string(gpus)) != std::string::npos)
        << cmd;
  }
  EXPECT_GT(multi, 0);
}

TEST(ReportDefects, GpuPagesOfRigsShowTheRig) {
  CliRun two = Fitrank({"gpu", "4090", "--gpus", "2"});
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(two.out.substr(0, two.out.find("  ")), "2x GeForce RTX 4090");
  // One display unit (GB = 1e9 bytes): the capacity as sold (48 GiB) converted, beside it.
  EXPECT_NE(two.out.find("  Setup          2x GeForce RTX 4090: 51.5 GB (48 GiB) in total (50.1 GB "
                         "usable for models)"),
            std::string::npos);
  CliRun mixed = Fitrank({"gpu", "4090", "--gpu", "3090"});
  ASSERT_EQ(mixed.code, 0) << mixed.err;
  EXPECT_EQ(mixed.out.substr(0, mixed.out.find("  ")), "GeForce RTX 4090 + GeForce RTX 3090");
}

TEST(ReportDefects, FitWorkloadRowsUseEachWorkloadsBestQuant) {
  nlohmann::json j = FitrankJson({"fit", "llama 3.1 405b", "--gpu", "MI325X"});
  for (const auto& w : j["workloads"]) {
    if (w["workload"] != "coding") continue;
    EXPECT_NE(w["fit"]["kind"], "no-fit") << w.dump();
    EXPECT_FALSE(w["quant"].get<std::string>().empty());
  }
  EXPECT_EQ(j["memory"]["usable_note"],
            "vLLM takes 90% of device memory by default: 247 GB of the setup's 275 GB usable");
}

TEST(ReportDefects, MlcCommandsServeAConvertedDirectoryNotAGuessedRepo) {
  // mlc-ai publishes <Model>-<quant>-MLC repos for some models only and the catalog lists none:
  // a repo name built from the model id named repos that do not exist.
  nlohmann::json j = FitrankJson({"fit", "llama 3.1 8b", "--gpu", "4090"});
  int mlc = 0;
  for (const auto& c : j["run_commands"]) {
    if (c["runtime"] != "mlc-llm") continue;
    ++mlc;
    const std::string cmd = c["command"];
    EXPECT_EQ(cmd.find("HF://"), std::string::npos) << cmd;
    EXPECT_EQ(cmd.rfind("mlc_llm serve ./Llama-3.1-8B-Instruct-", 0), 0u) << cmd;
    ASSERT_EQ(c["steps"].size(), 1u);
    EXPECT_NE(c["steps"][0].get<std::string>().find("mlc_llm convert_weight"), std::string::npos);
  }
  EXPECT_EQ(mlc, 1);
}

TEST(ReportDefects, PicksSayWhenTheirRuntimeReservesMemory) {
  // The recommend and GPU pages show the setup's usable memory; a pick estimated with vLLM had
  // only vLLM's share, and says so with the fit page's sentence.
  nlohmann::json j = FitrankJson({"recommend", "--gpu", "mi325x", "--workload", "all"});
  int vllm = 0, others = 0;
  for (const auto& p : j["picks"]) {
    const std::string note = p["usable_note"];
    if (p["runtime"] == "vllm") {
      ++vllm;
      EXPECT_EQ(note.rfind("vLLM takes 90% of device memory by default: ", 0), 0u) << note;
      EXPECT_NE(note.find("of the setup's 275 GB usable"), std::string::npos) << note;
    } else if (p["runtime"] == "llama.cpp") {
      ++others;
      EXPECT_EQ(note, "") << p["model"];
    }
  }
  EXPECT_GT(vllm, 0);
  CliRun text = Fitrank({"recommend", "--gpu", "mi325x", "--workload", "chat"});
  if (j["picks"][0]["runtime"] == "vllm") {
    EXPECT_NE(text.out.find("Memory: vLLM takes 90% of device memory"), std::string::npos);
  }
}

TEST(ReportDefects, GlobalFlagsWorkBeforeTheCommand) {
  CliRun r = Fitrank({"--json", "recommend", "--gpu", "4090", "--top", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["schema_version"], 1);
  r = Fitrank({"--format", "csv", "gpu", "4090"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find(',')), "workload");
}

TEST(ReportDefects, ShortHelpOnEveryCommand) {
  for (const Command& c : Commands()) {
    CliRun r = Fitrank({c.name, "-h"});
    EXPECT_EQ(r.code, 0) << c.name << ": " << r.err;
    EXPECT_EQ(r.out.rfind("Usage: ", 0), 0u) << c.name;
  }
}

TEST(ReportDefects, RulesFlagOnEveryRankingCommand) {
  for (const std::string name : {"recommend", "gpu", "fit", "upgrade", "compare"}) {
    const Command* cmd = nullptr;
    for (const Command& c : Commands()) {
      if (c.name == name) cmd = &c;
    }
    ASSERT_NE(cmd, nullptr) << name;
    bool has = false;
    for (const FlagSpec& f : cmd->flags) has |= f.name == "rules";
    EXPECT_TRUE(has) << name;
  }
}

}  // namespace
}  // namespace fitrank::cli
