// `fitrank --version` and `fitrank catalog ... --names` (what the man page and the shell
// completions are built from).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "tests/scratch_dir.h"

namespace fitrank::cli {
namespace {

const std::string kFixture = std::string(FITRANK_SOURCE_DIR) + "/tests/catalog/testdata";

// Sets $FITRANK_DATA for one test.
class ScopedDataEnv {
 public:
  explicit ScopedDataEnv(const std::string& dir) { setenv("FITRANK_DATA", dir.c_str(), 1); }
  ~ScopedDataEnv() { unsetenv("FITRANK_DATA"); }
};

TEST(VersionTest, PrintsTheVersionAndTheCatalogsNewestDate) {
  ScopedDataEnv env(kFixture);
  CliRun r = Fitrank({"--version"});
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n');
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_THAT(lines[0], ::testing::MatchesRegex("fitrank [0-9]+\\.[0-9]+(\\.[0-9]+)?"));
  // The fixture's newest dates are two 2026-03 prices; the first in catalog order is named.
  EXPECT_EQ(lines[1], "catalog data as of 2026-03 (newest dated entry: GeForce RTX 4090 (price))");
  EXPECT_EQ(lines[2], "");
}

TEST(VersionTest, ShippedCatalogHasADataDate) {
  CliRun r = Fitrank({"version"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::ContainsRegex("\ncatalog data as of 20[0-9][0-9]-[0-9][0-9]"));
}

TEST(VersionTest, BrokenCatalogIsExitTwoWithItsDiagnostics) {
  // A data tree whose catalog/gpus.yaml is the broken fixture file.
  namespace fs = std::filesystem;
  const fs::path dir = fitrank::testing::ScratchDir("version_broken");
  fs::create_directories(dir / "catalog");
  fs::copy_file(kFixture + "/broken/syntax_error/gpus.yaml", dir / "catalog" / "gpus.yaml",
                fs::copy_options::overwrite_existing);
  ScopedDataEnv env(dir.string());
  CliRun r = Fitrank({"--version"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, ::testing::HasSubstr("nothing was loaded"));
}

TEST(CatalogNamesTest, OneNamePerLineInCatalogOrder) {
  CliRun r = Fitrank({"catalog", "gpus", "--names", "--data", kFixture});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "GeForce RTX 4090\nNVIDIA H100 SXM5 80GB\nApple M3 Max (40-core GPU) 128GB\n");
}

TEST(CatalogNamesTest, QuantsAndRuntimesGiveIdsAndFilterApplies) {
  CliRun q = Fitrank({"catalog", "runtimes", "--names", "--data", kFixture});
  EXPECT_EQ(q.code, 0) << q.err;
  EXPECT_THAT(q.out, ::testing::Not(::testing::HasSubstr(" ")));
  CliRun f = Fitrank({"catalog", "gpus", "--names", "--filter", "h100", "--data", kFixture});
  EXPECT_EQ(f.out, "NVIDIA H100 SXM5 80GB\n");
  CliRun none = Fitrank({"catalog", "gpus", "--names", "--filter", "zzz", "--data", kFixture});
  EXPECT_EQ(none.code, 1);
  EXPECT_EQ(none.out, "");
}

TEST(CatalogNamesTest, ShippedCatalogListsEveryModel) {
  CliRun r = Fitrank({"catalog", "models", "--names"});
  EXPECT_EQ(r.code, 0) << r.err;
  nlohmann::json all = FitrankJson({"catalog", "models"});
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), all.size());
  EXPECT_EQ(lines.front(), all.front()["name"]);
}

TEST(CatalogNamesTest, ShowRefusesNames) {
  CliRun r = Fitrank({"catalog", "show", "4090", "--names"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank catalog: error: `--names` only applies to the lists\n"
            "  hint: e.g. `fitrank catalog gpus --names`\n");
}

}  // namespace
}  // namespace fitrank::cli
