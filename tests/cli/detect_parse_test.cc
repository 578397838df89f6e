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
  EXPECT_NEAR(g[0].memory_total_gib, 24564 / 1024.0, 1e-9);
  EXPECT_NEAR(g[0].memory_free_gib, 23142 / 1024.0, 1e-9);
  EXPECT_EQ(g[0].driver, "550.54.14");
  EXPECT_EQ(g[0].pci_id, "00000000:01:00.0");
  EXPECT_EQ(g[0].compute_capability, "8.9");
  EXPECT_LT(g[1].memory_free_gib, 0);  // unknown
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
  EXPECT_NEAR(g[0].memory_total_gib, 23.984375, 1e-9);  // 25753026560 B = 24560 MiB
  EXPECT_NEAR(g[0].memory_free_gib, 23.984375 - 1, 1e-9);
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
  EXPECT_NEAR(g[0].memory_total_gib, 128, 1e-9);
  EXPECT_TRUE(notes.empty());
}

TEST(DetectParse, MeminfoAndCpuinfo) {
  DetectedHost h;
  ParseMeminfo("MemTotal:       65536000 kB\nMemAvailable:   50000000 kB\nbogus\n", &h);
  EXPECT_NEAR(h.ram_total_gib, 65536000 / 1048576.0, 1e-9);
  EXPECT_NEAR(h.ram_available_gib, 50000000 / 1048576.0, 1e-9);
  ParseCpuinfo(
      "processor\t: 0\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\n\n"
      "processor\t: 1\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\n\n"
      "processor\t: 2\nmodel name\t: Xeon\nphysical id\t: 1\ncore id\t: 0\n",
      &h);
  EXPECT_EQ(h.cpu_model, "Xeon");
  EXPECT_EQ(h.logical_cores, 3);
  EXPECT_EQ(h.physical_cores, 2);
}

// xpu-smi's JSON, in the shape of its `discovery -j` and `discovery -d ID -j` output (keys as
// Intel's XPU Manager prints them; the values are a fixture, not a captured run).
inline constexpr char kXpuList[] =
    R"js({"device_list": [{"device_id": 0, "device_name": "Intel(R) Data Center GPU Max 1550",
    "device_type": "GPU", "pci_bdf_address": "0000:29:00.0", "vendor_name": "Intel(R) Corporation"},
    {"device_name": "no id"}]})js";
inline constexpr char kXpuDevice0[] =
    R"js({"device_id": 0, "device_name": "Intel(R) Data Center GPU Max 1550",
    "driver_version": "I915_23.10.32_PSB_230619.34", "memory_physical_size_byte": "137438953472",
    "memory_free_size_byte": "128849018880", "pci_bdf_address": "0000:29:00.0"})js";

TEST(DetectParse, XpuSmiListAndDevice) {
  std::vector<std::string> notes;
  EXPECT_EQ(ParseXpuSmiList(kXpuList, &notes), std::vector<int>{0});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "xpu-smi: a device_list entry has no device_id");
  notes.clear();
  std::optional<DetectedGpu> g = ParseXpuSmiDevice(kXpuDevice0, &notes);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->vendor, "Intel");
  EXPECT_EQ(g->source, "xpu-smi");
  EXPECT_EQ(g->name, "Intel(R) Data Center GPU Max 1550");
  EXPECT_DOUBLE_EQ(g->memory_total_gib, 128);
  EXPECT_DOUBLE_EQ(g->memory_free_gib, 120);
  EXPECT_EQ(g->driver, "I915_23.10.32_PSB_230619.34");
  EXPECT_EQ(g->pci_id, "0000:29:00.0");
  EXPECT_TRUE(notes.empty());

  EXPECT_TRUE(ParseXpuSmiList("Error: Level Zero initialization failed", &notes).empty());
  EXPECT_EQ(notes.back(), "xpu-smi: discovery output is not the device_list JSON expected");
  EXPECT_FALSE(ParseXpuSmiDevice("{\"device_id\": 0}", &notes));
  EXPECT_EQ(notes.back(), "xpu-smi: a device without device_name");
  std::optional<DetectedGpu> no_memory =
      ParseXpuSmiDevice(R"({"device_name": "Intel(R) Arc(TM) B580 Graphics"})", &notes);
  ASSERT_TRUE(no_memory);
  EXPECT_EQ(no_memory->memory_total_gib, 0);
  EXPECT_EQ(notes.back(), "xpu-smi: Intel(R) Arc(TM) B580 Graphics: no memory_physical_size_byte");
}

TEST(DetectParse, DmidecodeChannels) {
  // Two sockets x two channels populated, one empty slot; locator spellings of real boards.
  EXPECT_EQ(ParseDmidecodeChannels(
                "# dmidecode 3.4\nHandle 0x0040, DMI type 17, 92 bytes\nMemory Device\n"
                "\tSize: 32 GB\n\tLocator: DIMM_A1\n\tBank Locator: P0 CHANNEL A\n\n"
                "Handle 0x0041, DMI type 17, 92 bytes\nMemory Device\n\tSize: 32 GB\n"
                "\tLocator: DIMM_B1\n\tBank Locator: P0 CHANNEL B\n\n"
                "Handle 0x0042, DMI type 17, 92 bytes\nMemory Device\n"
                "\tSize: No Module Installed\n\tLocator: DIMM_C1\n\tBank Locator: P0 CHANNEL C\n\n"
                "Handle 0x0043, DMI type 17, 92 bytes\nMemory Device\n\tSize: 32 GB\n"
                "\tLocator: DIMM_A1\n\tBank Locator: P1 CHANNEL A\n\n"
                "Handle 0x0044, DMI type 17, 92 bytes\nMemory Device\n\tSize: 32768 MB\n"
                "\tLocator: DIMM_B1\n\tBank Locator: P1 CHANNEL B\n"),
            4);
  // A desktop board naming the channel in the Locator only.
  EXPECT_EQ(ParseDmidecodeChannels(
                "Memory Device\n\tSize: 16 GB\n\tLocator: ChannelA-DIMM1\n\tBank Locator: BANK 0\n"
                "Memory Device\n\tSize: 16 GB\n\tLocator: ChannelA-DIMM0\n\tBank Locator: BANK 1\n"
                "Memory Device\n\tSize: 16 GB\n\tLocator: ChannelB-DIMM1\n\tBank Locator: BANK 2\n"),
            2);
  // A populated module without a channel name: unknown, not a guess from the module count.
  EXPECT_EQ(ParseDmidecodeChannels(
                "Memory Device\n\tSize: 16 GB\n\tLocator: DIMM 0\n\tBank Locator: BANK 0\n"),
            0);
  EXPECT_EQ(ParseDmidecodeChannels("/sys/firmware/dmi/tables/smbios_entry_point: Permission denied"),
            0);
}

TEST(DetectParse, EdacLocation) {
  EXPECT_EQ(EdacChannel("channel 1 slot 0"), 1);
  EXPECT_EQ(EdacChannel("csrow 2 channel 0"), 0);
  EXPECT_EQ(EdacChannel("csrow 2"), -1);
  EXPECT_EQ(EdacChannel("channel x"), -1);
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
  g.memory_total_gib = 24564 / 1024.0;
  g.compute_capability = "8.9";
  GpuMatch m = MatchGpu(c, g);
  EXPECT_EQ(m.kind, GpuMatchKind::kAlias);
  EXPECT_EQ(m.gpu->id, "geforce-rtx-4090");
  EXPECT_EQ(m.how, "by alias `NVIDIA GeForce RTX 4090`");

  // The memory size picks the variant.
  g.name = "NVIDIA GeForce RTX 3060";
  g.memory_total_gib = 12288 / 1024.0;
  m = MatchGpu(c, g);
  ASSERT_NE(m.gpu, nullptr);
  EXPECT_EQ(m.gpu->memory_gb, 12);
  EXPECT_NE(m.kind, GpuMatchKind::kUnknown);

  // A GPU the catalog lacks: its class (Ada Lovelace, from compute capability 8.9).
  g.name = "NVIDIA GeForce RTX 4077 Mystery";
  g.memory_total_gib = 16376 / 1024.0;
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
  g.memory_total_gib = 24564 / 1024.0;
  g.memory_free_gib = g.memory_total_gib / 4;
  const Gpu* f = SetupGpu(MatchGpu(c, g), g, true);
  EXPECT_DOUBLE_EQ(f->memory_gb, 6);  // a quarter of the catalog's 24 GB
  EXPECT_EQ(f->name, "GeForce RTX 4090 (6.0 GB free)");

  // rocm-smi's bracketed names.
  DetectedGpu a;
  a.vendor = "AMD";
  a.name = "Navi 31 [Radeon RX 7900 XT/7900 XTX]";
  a.memory_total_gib = 23.984375;
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
