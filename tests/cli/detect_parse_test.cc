// The detection parsers on the tools' real output shapes, the probe runner on fake tools
// (missing, failing, hanging, too talkative), and the mapping of detected GPUs to the catalog.
#include <memory>

#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "cli/detect.h"
#include "cli/detect_match.h"
#include "cli/detect_probe.h"
#include "gtest/gtest.h"
#include "tests/cli/detect_fixture.h"

namespace fitrank::cli {
namespace {

const Catalog& RealCatalog() {
  static const Catalog* c = [] {
    Diagnostics d;
    EmbeddedSource src;
    return Catalog::Load(src, &d).release();
  }();
  return *c;
}

TEST(DetectParse, NvidiaSmiTwoGpusAndUnknownFields) {
  std::vector<std::string> notes;
  std::vector<DetectedGpu> g = ParseNvidiaSmi(
      "0, NVIDIA GeForce RTX 4090, 24564, 1021, 23142, 00000000:01:00.0, 550.54.14, 8.9\n"
      "1, NVIDIA A100-SXM4-80GB, 81920, [N/A], [N/A], 00000000:41:00.0, [N/A], 8.0\n",
      &notes);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].name, "NVIDIA GeForce RTX 4090");
  EXPECT_NEAR(g[0].memory_total_gb, 24564 * 1048576.0 / 1e9, 1e-9);
  EXPECT_NEAR(g[0].memory_free_gb, 23142 * 1048576.0 / 1e9, 1e-9);
  EXPECT_EQ(g[0].driver, "550.54.14");
  EXPECT_EQ(g[0].pci_id, "00000000:01:00.0");
  EXPECT_EQ(g[0].compute_capability, "8.9");
  EXPECT_LT(g[1].memory_free_gb, 0);  // unknown
  EXPECT_EQ(g[1].driver, "");
  EXPECT_TRUE(notes.empty());
}

TEST(DetectParse, NvidiaSmiGarbageIsANoteNotAGpu) {
  std::vector<std::string> notes;
  std::vector<DetectedGpu> g = ParseNvidiaSmi(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
      "0, NVIDIA GeForce RTX 4090, lots, 1, 2, x, y, 8.9\n",
      &notes);
  EXPECT_TRUE(g.empty());
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "nvidia-smi: line 1: expected 8 fields, got 1");
  EXPECT_EQ(notes[1],
            "nvidia-smi: line 2: no name or memory.total in `0, NVIDIA GeForce RTX 4090, lots, 1, "
            "2, x, y, 8.9`");
}

TEST(DetectParse, RocmSmiJson) {
  std::vector<std::string> notes;
  std::vector<DetectedGpu> g = ParseRocmSmi(R"js({
    "card0": {"Card series": "Radeon RX 7900 XTX", "Card model": "0x744c", "GFX Version": "gfx1100",
              "VRAM Total Memory (B)": "25753026560", "VRAM Total Used Memory (B)": "1073741824"},
    "card1": {"Card model": "0x744c"},
    "system": {"Driver version": "6.7.0"}})js",
                                            &notes);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].name, "Radeon RX 7900 XTX");
  EXPECT_EQ(g[0].vendor, "AMD");
  EXPECT_NEAR(g[0].memory_total_gb, 25.75302656, 1e-9);
  EXPECT_NEAR(g[0].memory_free_gb, 25.75302656 - 1.073741824, 1e-9);
  EXPECT_EQ(g[0].compute_capability, "gfx1100");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "rocm-smi: card1: no product name or VRAM total");
  notes.clear();
  EXPECT_TRUE(ParseRocmSmi("WARNING: no AMD GPUs", &notes).empty());
  EXPECT_EQ(notes[0], "rocm-smi: output is not the JSON object expected");
}

TEST(DetectParse, SystemProfilerAndMemsize) {
  std::vector<std::string> notes;
  std::vector<DetectedGpu> g = ParseSystemProfiler(
      R"js({"SPDisplaysDataType": [{"_name": "Apple M3 Max", "sppci_model": "Apple M3 Max", "sppci_cores": "40"}]})js",
      "137438953472\n", &notes);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].name, "Apple M3 Max");
  EXPECT_EQ(g[0].gpu_cores, 40);
  EXPECT_NEAR(g[0].memory_total_gb, 137.438953472, 1e-9);
  EXPECT_TRUE(notes.empty());
}

TEST(DetectParse, MeminfoAndCpuinfo) {
  DetectedHost h;
  ParseMeminfo("MemTotal:       65536000 kB\nMemAvailable:   50000000 kB\nbogus\n", &h);
  EXPECT_NEAR(h.ram_total_gb, 65536000 * 1024.0 / 1e9, 1e-9);
  EXPECT_NEAR(h.ram_available_gb, 50000000 * 1024.0 / 1e9, 1e-9);
  ParseCpuinfo(
      "processor\t: 0\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\n\n"
      "processor\t: 1\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\n\n"
      "processor\t: 2\nmodel name\t: Xeon\nphysical id\t: 1\ncore id\t: 0\n",
      &h);
  EXPECT_EQ(h.cpu_model, "Xeon");
  EXPECT_EQ(h.logical_cores, 3);
  EXPECT_EQ(h.physical_cores, 2);
}

TEST(DetectParse, LscpuFillsWhatCpuinfoLacks) {
  DetectedHost h;
  ParseCpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\n\nprocessor\t: 1\n", &h);
  EXPECT_EQ(h.cpu_model, "");
  ParseLscpu(
      "Architecture:            aarch64\nCPU(s):                  8\nModel name:              "
      "Neoverse-N1\nCore(s) per socket:      8\nSocket(s):               1\n",
      &h);
  EXPECT_EQ(h.cpu_model, "Neoverse-N1");
  EXPECT_EQ(h.logical_cores, 2);  // /proc/cpuinfo's count stands
  EXPECT_EQ(h.physical_cores, 8);
}

using DetectProbe = FakeMachine;

TEST_F(DetectProbe, MissingFailingHangingAndLongTools) {
  ProbeOptions o;
  o.timeout_ms = 300;
  o.max_output_bytes = 10;
  EXPECT_FALSE(RunProbe({"nvidia-smi"}, o).found);

  Tool("fails", "echo partial; exit 3");
  ProbeResult r = RunProbe({"fails"}, o);
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.Describe(o), "exited with status 3");

  Tool("hangs", "echo started; exec /bin/sleep 600");
  r = RunProbe({"hangs"}, o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.Describe(o), "timed out after 0.3 s (killed)");

  Tool("talks", "echo 0123456789abcdef");
  r = RunProbe({"talks", "ignored-arg"}, o);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.out, "0123456789");

  Tool("args", "echo \"$1|$2\"");
  o.max_output_bytes = 100;
  EXPECT_EQ(RunProbe({"args", "a b", "$HOME;x"}, o).out, "a b|$HOME;x\n");  // no shell between
}

TEST(DetectMatch, ExactAliasSizedAndUnknown) {
  const Catalog& c = RealCatalog();
  DetectedGpu g;
  g.vendor = "NVIDIA";
  g.name = "NVIDIA GeForce RTX 4090";
  g.memory_total_gb = 24564 * 1048576.0 / 1e9;
  g.compute_capability = "8.9";
  GpuMatch m = MatchGpu(c, g);
  EXPECT_EQ(m.kind, GpuMatchKind::kAlias);
  EXPECT_EQ(m.gpu->id, "geforce-rtx-4090");
  EXPECT_EQ(m.how, "by alias `NVIDIA GeForce RTX 4090`");

  // The memory size picks the variant.
  g.name = "NVIDIA GeForce RTX 3060";
  g.memory_total_gb = 12288 * 1048576.0 / 1e9;
  m = MatchGpu(c, g);
  ASSERT_NE(m.gpu, nullptr);
  EXPECT_EQ(m.gpu->memory_gb, 12);
  EXPECT_NE(m.kind, GpuMatchKind::kUnknown);

  // A GPU the catalog lacks: its class (Ada Lovelace, from compute capability 8.9).
  g.name = "NVIDIA GeForce RTX 4077 Mystery";
  g.memory_total_gb = 16376 * 1048576.0 / 1e9;
  m = MatchGpu(c, g);
  EXPECT_EQ(m.kind, GpuMatchKind::kUnknown);
  ASSERT_NE(m.gpu, nullptr);
  EXPECT_EQ(m.gpu->architecture, "Ada Lovelace");
  EXPECT_EQ(m.gpu->memory_gb, 16);
  EXPECT_EQ(m.how.rfind("unknown: using the detected memory and a bandwidth estimate from the "
                        "device's published class (Ada Lovelace, like ",
                        0),
            0u)
      << m.how;
  const Gpu* s = SetupGpu(m, g, false);
  EXPECT_EQ(s->name, "NVIDIA GeForce RTX 4077 Mystery");
  EXPECT_EQ(s->memory_gb, 16);
  EXPECT_EQ(s->bandwidth_gbps, m.gpu->bandwidth_gbps);

  // Free memory: a copy with the free GB.
  g.name = "NVIDIA GeForce RTX 4090";
  g.memory_total_gb = 24564 * 1048576.0 / 1e9;
  g.memory_free_gb = g.memory_total_gb / 4;
  const Gpu* f = SetupGpu(MatchGpu(c, g), g, true);
  EXPECT_DOUBLE_EQ(f->memory_gb, 6);  // a quarter of the catalog's 24 GB
  EXPECT_EQ(f->name, "GeForce RTX 4090 (6.0 GB free)");

  // rocm-smi's bracketed names.
  DetectedGpu a;
  a.vendor = "AMD";
  a.name = "Navi 31 [Radeon RX 7900 XT/7900 XTX]";
  a.memory_total_gb = 25.753026560;
  a.compute_capability = "gfx1100";
  m = MatchGpu(c, a);
  ASSERT_NE(m.gpu, nullptr);
  EXPECT_EQ(m.gpu->name, "Radeon RX 7900 XTX");

  DetectedGpu none;
  none.vendor = "Intel";
  none.name = "Intel GPU 0x56a0";
  EXPECT_EQ(MatchGpu(c, none).kind, GpuMatchKind::kUnusable);
  EXPECT_EQ(MatchGpu(c, none).how, "unusable: memory size unknown");
}

}  // namespace
}  // namespace fitrank::cli
