// Golden files of every user-facing report (text and JSON) for a panel of setups spanning an
// 8 GB card, a 24 GB card, a mixed rig, an Apple 64 GB machine, a Strix Halo 128 GB, an 80 GB
// datacenter card and a 256 GB accelerator. FITRANK_UPDATE_GOLDEN=1 rewrites them.
#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "tests/golden.h"

namespace fitrank::cli {
namespace {

struct PanelSetup {
  std::string slug;
  std::vector<std::string> gpu_args;  // --gpu ... flags
};
// For test listings (ctest shows the parameter): the slug, not the struct's bytes.
void PrintTo(const PanelSetup& p, std::ostream* os) { *os << p.slug; }

const std::vector<PanelSetup>& Panel() {
  static const std::vector<PanelSetup> kPanel = {
      {"rtx4060", {"--gpu", "geforce-rtx-4060"}},
      {"rtx4090", {"--gpu", "geforce-rtx-4090"}},
      {"rtx4090_rtx3090", {"--gpu", "geforce-rtx-4090", "--gpu", "geforce-rtx-3090"}},
      {"m4max64", {"--gpu", "apple-m4-max-40-core-gpu-64gb"}},
      {"strixhalo128", {"--gpu", "amd-ryzen-ai-maxplus-395-radeon-8060s-128gb"}},
      {"h100sxm", {"--gpu", "nvidia-h100-sxm5-80gb"}},
      {"mi325x", {"--gpu", "instinct-mi325x"}},
  };
  return kPanel;
}

std::vector<std::string> Cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void Golden(const std::vector<std::string>& args, const std::string& file, int code = 0) {
  unsetenv("COLUMNS");  // goldens are the unlimited width of a file or a pipe
  const bool has_format = std::find(args.begin(), args.end(), "--format") != args.end();
  for (const char* fmt : {"", "--json"}) {
    if (*fmt && has_format) continue;  // `--json` beside another format is refused
    std::vector<std::string> a = args;
    if (*fmt) a.push_back(fmt);
    CliRun r = Fitrank(a);
    EXPECT_EQ(r.code, code) << r.err;
    // A printed NaN or infinity, but not the name of AMD's "Infinity Fabric" link.
    static const std::regex kNonFinite(
        R"((^|[^A-Za-z_-])-?(nan|inf|NaN|Infinity)([^A-Za-z_ -]|$|\s[^F]))");
    EXPECT_FALSE(std::regex_search(r.out, kNonFinite)) << file;
    EXPECT_GOLDEN(r.out, "reports/" + file + (*fmt ? ".json" : ".txt"));
  }
}

class ReportGolden : public ::testing::TestWithParam<PanelSetup> {};

TEST_P(ReportGolden, Recommend) {
  Golden(Cat({"recommend", "--workload", "coding"}, GetParam().gpu_args),
         "recommend_coding_" + GetParam().slug);
}

TEST_P(ReportGolden, Gpu) {
  // The GPU page is about one GPU; the mixed rig shows its first card with the rig's RAM.
  std::vector<std::string> a = {"gpu", GetParam().gpu_args[1]};
  Golden(a, "gpu_" + GetParam().slug);
}

TEST_P(ReportGolden, Fit) {
  Golden(Cat({"fit", "llama-3.3-70b-instruct"}, GetParam().gpu_args), "fit_llama70b_" + GetParam().slug);
}

TEST_P(ReportGolden, Upgrade) {
  Golden(Cat({"upgrade", "--workload", "coding"}, GetParam().gpu_args),
         "upgrade_coding_" + GetParam().slug);
}

INSTANTIATE_TEST_SUITE_P(Panel, ReportGolden, ::testing::ValuesIn(Panel()),
                         [](const auto& info) { return info.param.slug; });

TEST(ReportGolden, Compare) {
  Golden({"compare", "instinct-mi325x", "nvidia-h200-sxm-141gb"}, "compare_mi325x_h200");
  Golden({"compare", "geforce-rtx-4090", "geforce-rtx-3090", "geforce-rtx-5090"},
         "compare_4090_3090_5090");
  Golden({"compare", "geforce-rtx-4060", "apple-m4-max-40-core-gpu-64gb",
          "amd-ryzen-ai-maxplus-395-radeon-8060s-128gb"},
         "compare_4060_m4max64_strixhalo128");
}

TEST(ReportGolden, Markdown) {
  Golden({"recommend", "--gpu", "geforce-rtx-4090", "--workload", "all", "--format", "markdown",
          "--top", "3"},
         "recommend_all_rtx4090_md");
}

}  // namespace
}  // namespace fitrank::cli
