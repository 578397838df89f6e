// `fitrank catalog`: listings and `show` on the fixture catalog (golden files under
// tests/golden/catalog/), and name resolution errors on the shipped catalog.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "nlohmann/json.hpp"
#include "tests/golden.h"
#include "tests/scratch_dir.h"

namespace fitrank::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// On the small fixture catalog (every catalog file replaced by tests/catalog/testdata).
CliRun OnFixture(std::vector<std::string> args) {
  args.push_back("--data");
  args.push_back(std::string(FITRANK_SOURCE_DIR) + "/tests/catalog/testdata");
  return Fitrank(std::move(args));
}

TEST(CatalogCommandTest, ListsGpusAsATable) {
  CliRun r = OnFixture({"catalog", "gpus"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_GOLDEN(r.out, "catalog/cli_gpus.txt");
}

TEST(CatalogCommandTest, ListsModelsAsATable) {
  CliRun r = OnFixture({"catalog", "models"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_GOLDEN(r.out, "catalog/cli_models.txt");
}

TEST(CatalogCommandTest, ListsEveryKind) {
  for (const char* kind : {"diffusion", "quants", "runtimes", "interconnects", "prices"}) {
    CliRun r = OnFixture({"catalog", kind});
    EXPECT_EQ(r.code, 0) << kind << ": " << r.err;
    EXPECT_GOLDEN(r.out, std::string("catalog/cli_") + kind + ".txt");
  }
}

TEST(CatalogCommandTest, MarkdownAndCsv) {
  CliRun md = OnFixture({"catalog", "quants", "--format", "markdown"});
  EXPECT_EQ(md.code, 0) << md.err;
  EXPECT_GOLDEN(md.out, "catalog/cli_quants_markdown.txt");
  CliRun csv = OnFixture({"catalog", "gpus", "--format", "csv"});
  EXPECT_EQ(csv.code, 0) << csv.err;
  EXPECT_GOLDEN(csv.out, "catalog/cli_gpus_csv.txt");
}

TEST(CatalogCommandTest, JsonHasEveryFieldUnderItsTypesHName) {
  CliRun r = OnFixture({"catalog", "models", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["id"], "llama-3.1-8b-instruct");
  EXPECT_EQ(j[0]["active_params_b"], 8.03);
  EXPECT_EQ(j[0]["attention"]["kind"], "full");
  EXPECT_EQ(j[0]["attention"]["kv_layers"], 32);
  EXPECT_EQ(j[0]["quality"]["score"], 48.5);
  EXPECT_EQ(j[0]["source"]["key"], "config-json");
  EXPECT_EQ(j[2]["attention"]["kind"], "sliding");
  EXPECT_GOLDEN(r.out, "catalog/cli_models_json.txt");

  CliRun g = OnFixture({"catalog", "gpus", "--format", "jsonl"});
  ASSERT_EQ(g.code, 0) << g.err;
  std::istringstream lines(g.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    auto obj = nlohmann::json::parse(line);
    EXPECT_TRUE(obj.contains("bandwidth_gbps"));
    EXPECT_TRUE(obj.contains("segment"));
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(CatalogCommandTest, FilterMatchesEveryWord) {
  CliRun r = OnFixture({"catalog", "gpus", "--filter", "nvidia datacenter"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("NVIDIA H100 SXM5 80GB"));
  EXPECT_THAT(r.out, Not(HasSubstr("GeForce RTX 4090")));
  EXPECT_THAT(r.out, HasSubstr("1 of 3 GPUs match `nvidia datacenter`"));

  CliRun models = OnFixture({"catalog", "models", "--filter", "VISION"});
  EXPECT_THAT(models.out, HasSubstr("Gemma 3 27B IT"));
  EXPECT_THAT(models.out, Not(HasSubstr("Qwen3")));

  CliRun none = OnFixture({"catalog", "gpus", "--filter", "tpu", "--json"});
  EXPECT_EQ(none.code, 1);  // the query had no answer
  EXPECT_EQ(none.out, "[]\n");
  EXPECT_THAT(none.err, HasSubstr("no GPUs match `tpu`"));
}

TEST(CatalogCommandTest, ShowPrintsEveryFieldWithItsSource) {
  CliRun r = OnFixture({"catalog", "show", "4090"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_GOLDEN(r.out, "catalog/cli_show_gpu.txt");

  // Unquoted words form the name; any kind.
  CliRun m = OnFixture({"catalog", "show", "qwen3", "30b"});
  EXPECT_EQ(m.code, 0) << m.err;
  EXPECT_THAT(m.out, HasSubstr("Qwen3 30B A3B  (model qwen3-30b-a3b)"));
  EXPECT_THAT(m.out, HasSubstr("attention.kind"));
  EXPECT_THAT(m.out, HasSubstr("source.text"));

  CliRun q = OnFixture({"catalog", "show", "q4_k_m"});
  EXPECT_EQ(q.code, 0) << q.err;
  EXPECT_THAT(q.out, HasSubstr("(quant Q4_K_M)"));
  CliRun rt = OnFixture({"catalog", "show", "vllm"});
  EXPECT_THAT(rt.out, HasSubstr("(runtime vllm)"));
  CliRun d = OnFixture({"catalog", "show", "sdxl"});
  EXPECT_THAT(d.out, HasSubstr("(diffusion sdxl-base-1.0)"));
}

TEST(CatalogCommandTest, ShowJson) {
  CliRun r = OnFixture({"catalog", "show", "h100 sxm", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "gpu");
  EXPECT_EQ(j["entry"]["id"], "nvidia-h100-sxm5-80gb");
  EXPECT_EQ(j["entry"]["memory_gb"], 80);
  EXPECT_EQ(j["price"]["cloud_usd_per_hour"], 2.99);
  CliRun m = OnFixture({"catalog", "show", "gemma", "--json"});
  auto mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(mj["kind"], "model");
  EXPECT_FALSE(mj.contains("price"));
}

TEST(CatalogCommandTest, UsageErrorsExitTwo) {
  CliRun none = OnFixture({"catalog"});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("fitrank catalog: error: say what to list"));

  CliRun typo = OnFixture({"catalog", "gpu"});
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.err,
            "fitrank catalog: error: unknown catalog subcommand `gpu`\n"
            "  hint: did you mean `gpus`?\n");

  CliRun extra = OnFixture({"catalog", "gpus", "nvidia"});
  EXPECT_EQ(extra.code, 2);
  EXPECT_THAT(extra.err, HasSubstr("--filter \"nvidia\""));

  CliRun noname = OnFixture({"catalog", "show"});
  EXPECT_EQ(noname.code, 2);

  CliRun kind = OnFixture({"catalog", "show", "4090", "--kind", "gpus"});
  EXPECT_EQ(kind.code, 2);
  EXPECT_THAT(kind.err, HasSubstr("did you mean `gpu`?"));

  CliRun unknown = OnFixture({"catalog", "show", "rtx", "4099"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err,
            "fitrank catalog: error: nothing in the catalog is called `rtx 4099`\n"
            "  hint: did you mean `GeForce RTX 4090`?\n");
}

TEST(CatalogCommandTest, BrokenDataIsReportedAndNothingIsListed) {
  // A data tree whose catalog/gpus.yaml is broken; the other files come from the fixture.
  namespace fs = std::filesystem;
  const fs::path dir = fitrank::testing::ScratchDir("broken_catalog");
  fs::create_directories(dir / "catalog");
  const fs::path src = fs::path(FITRANK_SOURCE_DIR) / "tests/catalog/testdata";
  for (const auto& f : fs::directory_iterator(src / "catalog")) {
    fs::copy_file(f.path(), dir / "catalog" / f.path().filename());
  }
  fs::copy_file(src / "broken/out_of_range/gpus.yaml", dir / "catalog/gpus.yaml",
                fs::copy_options::overwrite_existing);
  CliRun r = Fitrank({"catalog", "gpus", "--data", dir.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("catalog/gpus.yaml:12:16: error: `memory_gb` of gpu "
                               "`geforce-rtx-4090` is -24, outside the plausible range"));
  EXPECT_THAT(r.err, HasSubstr("      memory_gb: -24\n                 ^\n"));
  EXPECT_THAT(r.err, HasSubstr("in the catalog data; nothing was loaded\n"));
}

// On the shipped catalog.

TEST(CatalogCommandTest, AmbiguousNamesListTheCandidates) {
  CliRun r = Fitrank({"catalog", "show", "3060", "--kind", "gpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("`3060` is ambiguous"));
  EXPECT_THAT(r.err, HasSubstr("\n    GeForce RTX 3060 8GB"));  // a line each, not "\\n"
  EXPECT_THAT(r.err, Not(HasSubstr("\\n")));
  EXPECT_THAT(r.err, HasSubstr("GeForce RTX 3060 12GB"));
  EXPECT_THAT(r.err, Not(HasSubstr("3060 Ti")));
  EXPECT_THAT(r.err, HasSubstr("hint: be more specific"));
}

// The same list from a report command's --gpu, and a name's control characters stay escaped.
TEST(CatalogCommandTest, AmbiguousGpuFlagListsCandidatesOnLinesOfTheirOwn) {
  CliRun r = Fitrank({"upgrade", "--gpu", "RTX 3060"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("matches 2 GPUs\n    GeForce RTX 3060 8GB"));
  EXPECT_THAT(r.err, Not(HasSubstr("\\n")));
  CliRun esc = Fitrank({"catalog", "show", "3060\x1b[2J", "--kind", "gpu"});
  EXPECT_EQ(esc.code, 2);
  EXPECT_THAT(esc.err, Not(HasSubstr("\x1b")));
}

TEST(CatalogCommandTest, ShowDoesNotPickOneKindWhenAnotherMatchesToo) {
  // "llama" is a word of llama.cpp (a runtime) and of many models.
  CliRun r = Fitrank({"catalog", "show", "llama"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("`llama` is ambiguous"));
  EXPECT_THAT(r.err, HasSubstr("llama.cpp (runtime llama.cpp)"));
  CliRun rt = Fitrank({"catalog", "show", "llama", "--kind", "runtime"});
  EXPECT_EQ(rt.code, 0) << rt.err;
  EXPECT_THAT(rt.out, HasSubstr("(runtime llama.cpp)"));
}

TEST(CatalogCommandTest, ShippedCatalogLists) {
  CliRun g = Fitrank({"catalog", "gpus", "--json"});
  ASSERT_EQ(g.code, 0) << g.err;
  auto gpus = nlohmann::json::parse(g.out);
  EXPECT_GE(gpus.size(), 200u);
  CliRun m = Fitrank({"catalog", "models"});
  EXPECT_EQ(m.code, 0);
  EXPECT_THAT(m.out, HasSubstr("Llama 3.1 8B Instruct"));
  CliRun s = Fitrank({"catalog", "show", "M3 Max 128GB"});
  EXPECT_EQ(s.code, 0) << s.err;
  EXPECT_THAT(s.out, HasSubstr("memory_gb"));
}

}  // namespace
}  // namespace fitrank::cli
