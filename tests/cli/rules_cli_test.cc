// `fitrank rules ...` and `fitrank sweep` end to end through RunCli.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic_codes.h"
#include "cli/command.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "nlohmann/json.hpp"
#include "tests/scratch_dir.h"

namespace fitrank::cli {
namespace {

using ::testing::HasSubstr;

std::string TempDir(const std::string& name) { return testing::ScratchDir("rules_cli_" + name); }

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(RulesLint, ShippedRulesAreClean) {
  CliRun r = Fitrank({"rules", "lint"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 errors, 0 warnings"));
}

TEST(RulesLint, ALocalFileWithMistakesGetsCaretsAndExit2) {
  std::string dir = TempDir("lint");
  Write(dir + "/mine.yaml", R"(schema: fitrank.rules/v1
set: speed
rules:
  - id: speed.mine
    desc: A typo in a fact.
    when: perf.decode_toks > 10
    score: 5
    say: "fast"
)");
  CliRun r = Fitrank({"rules", "lint", dir + "/mine.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("mine.yaml:6:11: error: unknown fact `perf.decode_toks`"));
  EXPECT_THAT(r.out, HasSubstr("did you mean `perf.decode_tok_s`"));
  EXPECT_THAT(r.out, HasSubstr("          ^"));
  CliRun j = Fitrank({"rules", "lint", dir + "/mine.yaml", "--json"});
  EXPECT_EQ(j.code, 2);
  auto parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["errors"], 1);
}

TEST(RulesExplain, ShowsEveryRuleAndTheGrade) {
  CliRun r = Fitrank({"rules", "explain", "--gpu", "Instinct MI325X", "--model", "llama 3.1 405b",
                  "--quant", "Q4_K_M", "--workload", "coding"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Llama 3.1 405B Instruct at Q4_K_M on Instinct MI325X"));
  EXPECT_THAT(r.out, HasSubstr("fit.offload"));
  EXPECT_THAT(r.out, HasSubstr("fit.native-comfortable               not fired"));
  EXPECT_THAT(r.out, HasSubstr("-> grade "));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("-> grade A")));
  CliRun j = Fitrank({"rules", "explain", "--gpu", "RTX 4090", "--model", "qwen3-32b", "--json"});
  ASSERT_EQ(j.code, 0) << j.err;
  auto parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["model_id"], "qwen3-32b");
  EXPECT_TRUE(parsed["sets"].is_array());
  EXPECT_TRUE(parsed["sets"][0]["rules"].is_array());
  EXPECT_TRUE(parsed.contains("grade"));
  EXPECT_TRUE(parsed["reasons"].is_array());
}

TEST(RulesExplain, UnknownNamesAreUsageErrors) {
  CliRun r = Fitrank({"rules", "explain", "--gpu", "RTX 4090", "--model", "qwen3-32b", "--workload", "codng"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean `coding`?"));
  EXPECT_EQ(Fitrank({"rules", "explian"}).code, 2);
  EXPECT_EQ(Fitrank({"rules"}).code, 2);
}

TEST(RulesTest, ShippedTestsPass) {
  CliRun r = Fitrank({"rules", "test"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr(" 0 failed"));
  EXPECT_THAT(r.out, HasSubstr("Every rule fired in at least one test."));
}

TEST(RulesTest, LocalRulesAndAFailingTestGiveExit1) {
  std::string dir = TempDir("test");
  // A local override that breaks a shipped expectation.
  Write(dir + "/override.yaml", R"(schema: fitrank.rules/v1
overrides:
  - id: fit.offload
    set: {when: 'fit.kind == "never"'}
)");
  Write(dir + "/mine.test.yaml", R"(schema: fitrank.rule-tests/v1
tests:
  - name: offload is capped
    gpu: Instinct MI300X
    model: llama-3.1-405b-instruct
    quant: Q4_K_M
    workload: coding
    expect:
      fires: [fit.offload]
)");
  CliRun r = Fitrank({"rules", "test", dir + "/mine.test.yaml", "--rules", dir});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("FAIL offload is capped"));
  CliRun ok = Fitrank({"rules", "test", dir + "/mine.test.yaml"});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
}

TEST(RulesDiff, IdenticalTreesChangeNothingAndAnEditShows) {
  std::string a = TempDir("diff_a"), b = TempDir("diff_b");
  for (const auto& e : std::filesystem::directory_iterator(std::string(FITRANK_SOURCE_DIR) + "/rules")) {
    std::string name = e.path().filename().string();
    if (name.size() > 5 && name.substr(name.size() - 5) == ".yaml") {
      std::filesystem::copy_file(e.path(), a + "/" + name);
      std::filesystem::copy_file(e.path(), b + "/" + name);
    }
  }
  CliRun same = Fitrank({"rules", "diff", a, b, "--workload", "coding", "--gpu", "RTX 4090",
                         "--gpu", "RTX 3060 12GB", "--gpu", "H100 SXM5", "--json"});
  ASSERT_EQ(same.code, 0) << same.err;
  auto parsed = nlohmann::json::parse(same.out);
  EXPECT_EQ(parsed["summary"]["rankings_changed"], 0);
  EXPECT_EQ(parsed["summary"]["rankings"], 3);
  // Make quality count for almost nothing: top picks move.
  std::ifstream in(b + "/quality.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string q = text.str();
  const std::string quality = "score: 1.5 * (quant.workload_quality - 30)";
  size_t at = q.find(quality);
  ASSERT_NE(at, std::string::npos) << "quality.model changed; update this test";
  q.replace(at, quality.size(), "score: 0.1 * (quant.workload_quality - 30)");
  Write(b + "/quality.yaml", q);
  CliRun changed = Fitrank({"rules", "diff", a, b, "--workload", "coding", "--gpu", "RTX 4090",
                            "--gpu", "RTX 3060 12GB", "--gpu", "H100 SXM5"});
  ASSERT_EQ(changed.code, 0) << changed.err;
  EXPECT_THAT(changed.out, HasSubstr("rankings (GPU x workload x mode, top 5) change"));
  EXPECT_THAT(changed.out, ::testing::Not(HasSubstr("0 of 3")));
}

TEST(RulesSchema, IsJsonSchemaWithTheFacts) {
  CliRun r = Fitrank({"rules", "schema"});
  ASSERT_EQ(r.code, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rules"]["properties"]["schema"]["const"], "fitrank.rules/v1");
  EXPECT_GT(j["rules"]["x-fitrank-facts"].size(), 80u);
  EXPECT_EQ(j["tests"]["properties"]["schema"]["const"], "fitrank.rule-tests/v1");
  EXPECT_TRUE(j["workloads"]["properties"].contains("workloads"));
  EXPECT_EQ(Fitrank({"rules", "schema", "--kind", "rule"}).code, 2);
}

TEST(Sweep, StreamsCsvAndJsonLinesInRankOrder) {
  CliRun csv = Fitrank({"sweep", "--gpu", "RTX 4090", "--workload", "coding", "--mode", "balanced",
                    "--format", "csv", "--top", "3"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header.substr(0, 39), "gpu_id,gpu,workload,mode,rank,model_id,");
  int n = 0;
  while (std::getline(lines, row)) {
    ++n;
    EXPECT_THAT(row, HasSubstr(",coding,balanced," + std::to_string(n) + ","));
  }
  EXPECT_EQ(n, 3);
  CliRun jl = Fitrank({"sweep", "--gpu", "RTX 4090", "--gpu", "H100 SXM5", "--workload", "chat", "--top", "2"});
  ASSERT_EQ(jl.code, 0) << jl.err;
  std::istringstream jlines(jl.out);
  int rows = 0;
  while (std::getline(jlines, row)) {
    auto j = nlohmann::json::parse(row);
    EXPECT_TRUE(j.contains("grade"));
    EXPECT_TRUE(j.contains("decode_tok_s"));
    ++rows;
  }
  EXPECT_EQ(rows, 2 * 5 * 2);  // GPUs x modes x top
  EXPECT_EQ(Fitrank({"sweep", "--gpu", "no such gpu zz"}).code, 2);
}

// Text cells are escaped: a GPU named with a quote, a backslash and a tab (a --data catalog of
// that one GPU, no prices) still gives JSON lines that parse back to the same name.
TEST(Sweep, JsonLinesEscapeText) {
  const std::filesystem::path dir = TempDir("sweep_escape");
  std::filesystem::create_directories(dir / "catalog");
  std::ofstream(dir / "catalog" / "gpus.yaml") << R"(schema: fitrank.catalog/v1
kind: gpus
sources:
  test: "a test GPU"
gpus:
  - id: odd-gpu
    name: "Odd \"Quote\" \\ Tab\there"
    vendor: NVIDIA
    family: Test
    architecture: Ada Lovelace
    segment: consumer
    form_factor: pcie-card
    memory_gb: 24
    memory_type: GDDR6X
    bandwidth_gbps: 1008
    fp16_tflops: 330.3
    precisions: [FP32, FP16, BF16, FP8, INT8]
    platforms: [CUDA, Vulkan]
    interconnect: pcie4-x16
    launch_year: 2022
    source: test
)";
  std::ofstream(dir / "catalog" / "prices.yaml")
      << "schema: fitrank.catalog/v1\nkind: prices\nsources:\n  test: none\nprices: []\n";
  CliRun jl = Fitrank({"sweep", "--data", dir.string(), "--gpu", "odd-gpu", "--workload", "chat",
                       "--mode", "balanced", "--top", "1"});
  ASSERT_EQ(jl.code, 0) << jl.err;
  auto j = nlohmann::json::parse(jl.out.substr(0, jl.out.find('\n')));
  EXPECT_EQ(j["gpu"], "Odd \"Quote\" \\ Tab\there");
  EXPECT_THAT(jl.out, HasSubstr("\\u0009"));
}

}  // namespace
}  // namespace fitrank::cli

namespace fitrank::cli {
namespace {

TEST(RulesLintExplain, PrintsWhatACodeMeans) {
  CliRun r = Fitrank({"rules", "lint", "--explain", "unknown-fact"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "unknown-fact: a fact name the schema does not declare");
  EXPECT_NE(r.out.find("reported in: rule expressions"), std::string::npos) << r.out;
}

TEST(RulesLintExplain, AnUnknownCodeSuggestsTheClosest) {
  CliRun r = Fitrank({"rules", "lint", "--explain", "unknown-fakt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank rules: error: unknown diagnostic code `unknown-fakt`\n"
            "  hint: did you mean `unknown-fact`, `unknown-quant` or `unknown-set`?\n");
}

TEST(RulesLintExplain, AllListsEveryCodeAsJsonToo) {
  nlohmann::json j = FitrankJson({"rules", "lint", "--explain", "all", "--json"});
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["codes"].size(), DiagnosticCodes().size());
}

}  // namespace
}  // namespace fitrank::cli
