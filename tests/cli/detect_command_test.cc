// `fitrank detect` and the detected setup (`--gpu auto`, no --gpu, --free-memory) on fake
// machines: fake GPU tools on PATH and a fake /proc and /sys (tests/cli/detect_fixture.h).
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_run.h"
#include "tests/cli/detect_fixture.h"

namespace fitrank::cli {
namespace {

using DetectCommand = FakeMachine;

TEST_F(DetectCommand, OneNvidiaGpuAndTheHost) {
  ToolPrinting("nvidia-smi", kOne4090);
  Host64GB();
  nlohmann::json j = FitrankJson({"detect"});
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["gpus"].size(), 1u);
  const nlohmann::json& g = j["gpus"][0];
  EXPECT_EQ(g["vendor"], "NVIDIA");
  EXPECT_EQ(g["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(g["memory_total_gb"], 25.76);
  EXPECT_EQ(g["memory_free_gb"], 24.27);
  EXPECT_EQ(g["driver"], "550.54.14");
  EXPECT_EQ(g["pci_id"], "00000000:01:00.0");
  EXPECT_EQ(g["compute_capability"], "8.9");
  EXPECT_EQ(g["source"], "nvidia-smi");
  EXPECT_EQ(g["catalog"]["match"], "alias");
  EXPECT_EQ(g["catalog"]["id"], "geforce-rtx-4090");
  EXPECT_EQ(j["host"]["cpu_model"], "AMD Ryzen 9 7950X 16-Core Processor");
  EXPECT_EQ(j["host"]["logical_cores"], 3);
  EXPECT_EQ(j["host"]["physical_cores"], 2);
  EXPECT_EQ(j["host"]["ram_total_gb"], 67.11);
  EXPECT_EQ(j["host"]["ram_available_gb"], 51.2);
  EXPECT_TRUE(j["host"]["memory_channels"].is_null());
  EXPECT_EQ(j["setup"]["label"], "GeForce RTX 4090");
  EXPECT_EQ(j["setup"]["summary"], "GeForce RTX 4090 (nvidia-smi), 67.1 GB RAM");
  EXPECT_TRUE(j["notes"].empty()) << j["notes"].dump();

  CliRun r = Fitrank({"detect"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("GPUs (1 detected)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0  GeForce RTX 4090: by alias `NVIDIA GeForce RTX 4090`"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("RAM       67.1 GB total, 51.2 GB available"), std::string::npos) << r.out;
}

TEST_F(DetectCommand, TwoGpusMakeATwoGpuSetup) {
  ToolPrinting("nvidia-smi", kTwo3090);
  Host64GB();
  nlohmann::json j = FitrankJson({"detect"});
  ASSERT_EQ(j["gpus"].size(), 2u);
  EXPECT_EQ(j["setup"]["label"], "2x GeForce RTX 3090");

  CliRun r = Fitrank({"recommend", "--workload", "coding", "--top", "2"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "Using the detected setup: 2x GeForce RTX 3090 (nvidia-smi), 67.1 GB RAM (--gpu NAME "
            "to choose another)");
  // The same report as naming the GPUs, after the first line. --ram is a size as sold (GiB):
  // /proc/meminfo's 65536000 kB = 67.1 GB = 62.5 GiB.
  CliRun named = Fitrank({"recommend", "--gpu", "3090", "--gpus", "2", "--ram", "62.5",
                          "--workload", "coding", "--top", "2"});
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1), named.out);
}

TEST_F(DetectCommand, MixedVendorsAndAGpuTheCatalogLacks) {
  ToolPrinting(
      "nvidia-smi",
      "0, NVIDIA GeForce RTX 4077 Mystery, 16376, 0, 16376, 00000000:01:00.0, 560.1, 8.9\n");
  ToolPrinting("rocm-smi",
               R"js({"card0": {"Card series": "Radeon RX 7900 XTX", "GFX Version": "gfx1100",
      "VRAM Total Memory (B)": "25753026560", "VRAM Total Used Memory (B)": "0"}})js");
  Host64GB();
  nlohmann::json j = FitrankJson({"detect"});
  ASSERT_EQ(j["gpus"].size(), 2u);
  EXPECT_EQ(j["gpus"][0]["catalog"]["match"], "unknown");
  EXPECT_TRUE(j["gpus"][0]["catalog"]["id"].is_null());
  EXPECT_EQ(j["gpus"][1]["vendor"], "AMD");
  EXPECT_EQ(j["gpus"][1]["catalog"]["match"], "exact");
  EXPECT_EQ(j["gpus"][1]["catalog"]["id"], "radeon-rx-7900-xtx");
  EXPECT_EQ(j["setup"]["label"], "NVIDIA GeForce RTX 4077 Mystery + Radeon RX 7900 XTX");

  // The unknown GPU alone: estimated with its detected memory and its class's bandwidth.
  Tool("rocm-smi", "exit 1");
  nlohmann::json e = FitrankJson({"estimate", "--gpu", "auto", "--model", "llama 3.1 8b"});
  EXPECT_EQ(e["setup"]["label"], "NVIDIA GeForce RTX 4077 Mystery");
  EXPECT_GT(e["decode_tok_s"].get<double>(), 0);
}

TEST_F(DetectCommand, FailingHangingAndGarbledToolsAreNotes) {
  Tool("nvidia-smi", "echo 'NVIDIA-SMI has failed'; exit 9");
  Tool("rocm-smi", "exec /bin/sleep 600");
  ToolPrinting("system_profiler", "<plist>not json</plist>");
  nlohmann::json j = FitrankJson({"detect", "--probe-timeout-ms", "200"});
  EXPECT_TRUE(j["gpus"].empty());
  EXPECT_EQ(j["notes"],
            nlohmann::json({"nvidia-smi: exited with status 9",
                            "rocm-smi: timed out after 0.2 s (killed)",
                            "system_profiler: output is not the SPDisplaysDataType JSON expected",
                            "/proc/meminfo: host RAM not readable"}));
  CliRun r = Fitrank({"recommend", "--probe-timeout-ms", "200"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.err,
      "fitrank recommend: error: no GPU given, and none detected on this machine\n"
      "  hint: add --gpu NAME, e.g. --gpu \"RTX 4090\"; `fitrank detect` shows what was found\n");
}

TEST_F(DetectCommand, AmdWithoutRocmFromSysfs) {
  RootFile("sys/class/drm/card1/device/vendor", "0x1002\n");
  RootFile("sys/class/drm/card1/device/product_name", "Radeon RX 7900 XTX\n");
  RootFile("sys/class/drm/card1/device/mem_info_vram_total", "25753026560\n");
  RootFile("sys/class/drm/card1/device/mem_info_vram_used", "5753026560\n");
  RootFile("sys/class/drm/card1/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:03:00.0\n");
  RootFile("sys/class/drm/card0/device/vendor", "0x1002\n");  // the APU's carve-out
  RootFile("sys/class/drm/card0/device/mem_info_vram_total", "536870912\n");
  RootFile("sys/class/drm/card1-DP-1/status", "connected\n");
  nlohmann::json j = FitrankJson({"detect"});
  ASSERT_EQ(j["gpus"].size(), 1u) << j.dump();
  EXPECT_EQ(j["gpus"][0]["source"], "sysfs");
  EXPECT_EQ(j["gpus"][0]["pci_id"], "0000:03:00.0");
  EXPECT_EQ(j["gpus"][0]["memory_free_gb"], 20);
  EXPECT_EQ(j["gpus"][0]["catalog"]["id"], "radeon-rx-7900-xtx");
  EXPECT_EQ(
      j["notes"][0],
      "sysfs: card0 (AMD GPU ): 536.871 MB of VRAM, an integrated GPU's carve-out: not counted");
}

TEST_F(DetectCommand, AppleFromSystemProfiler) {
  ToolPrinting(
      "system_profiler",
      R"js({"SPDisplaysDataType": [{"sppci_model": "Apple M3 Max", "sppci_cores": "40"}]})js");
  ToolPrinting("sysctl", "137438953472\n");
  nlohmann::json j = FitrankJson({"detect"});
  ASSERT_EQ(j["gpus"].size(), 1u);
  EXPECT_EQ(j["gpus"][0]["catalog"]["id"], "apple-m3-max-40-core-gpu-128gb") << j["gpus"][0].dump();
  EXPECT_EQ(j["host"]["ram_total_gb"], 137.44);  // no /proc: the unified memory
}

TEST_F(DetectCommand, FreeMemoryFitsNextToWhatRuns) {
  // The second 3090 has 12 GB in use: with --free-memory the setup counts each card's free
  // share of its 24 GB.
  ToolPrinting("nvidia-smi", kTwo3090);
  Host64GB();
  nlohmann::json all = FitrankJson({"estimate", "--model", "llama 3.3 70b", "--quant", "Q4_K_M"});
  nlohmann::json free =
      FitrankJson({"estimate", "--model", "llama 3.3 70b", "--quant", "Q4_K_M", "--free-memory"});
  EXPECT_LT(free["memory"]["usable_gb"].get<double>(),
            all["memory"]["usable_gb"].get<double>() - 10);
  EXPECT_EQ(free["setup"]["label"],
            "GeForce RTX 3090 (23.7 GB free) + GeForce RTX 3090 (11.7 GB free)");

  CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--free-memory"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank estimate: error: --free-memory needs the detected setup\n"
            "  hint: drop --gpu, or use --gpu auto\n");
}

TEST_F(DetectCommand, GpuPageAndFitWithoutGpuName) {
  ToolPrinting("nvidia-smi", kOne4090);
  Host64GB();
  CliRun gpu = Fitrank({"gpu"});
  EXPECT_EQ(gpu.code, 0) << gpu.err;
  EXPECT_EQ(gpu.out.rfind("Using the detected setup: GeForce RTX 4090 (nvidia-smi)", 0), 0u)
      << gpu.out;
  CliRun fit = Fitrank({"fit", "llama 3.1 8b", "--json"});
  EXPECT_EQ(fit.code, 0) << fit.err;
  EXPECT_EQ(fit.err.rfind("Using the detected setup: GeForce RTX 4090", 0), 0u) << fit.err;
  EXPECT_NO_THROW(nlohmann::json::parse(fit.out));  // stdout stays JSON
  CliRun up = Fitrank({"upgrade", "--gpu", "auto", "--budget", "3000"});
  EXPECT_NE(up.code, 2) << up.err;
  EXPECT_EQ(up.out.rfind("Using the detected setup: GeForce RTX 4090", 0), 0u) << up.out;
}

}  // namespace
}  // namespace fitrank::cli
