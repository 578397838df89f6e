// The report sentences written by rules (engine/report/traits): the GPU page's strengths and
// considerations and compare's decisions name their rules; lint covers the trait files; the
// fit report merges rule advice; "h200" resolves in compare.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/command.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "nlohmann/json.hpp"
#include "tests/scratch_dir.h"

namespace fitrank::cli {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

std::vector<std::string> Strings(const Json& j) { return j.get<std::vector<std::string>>(); }

// Strength and consideration rule ids, checked parallel to the sentences.
std::pair<std::vector<std::string>, std::vector<std::string>> TraitRules(const std::string& gpu) {
  Json j = FitrankJson({"gpu", gpu});
  EXPECT_EQ(j["strengths"].size(), j["strength_rules"].size());
  EXPECT_EQ(j["considerations"].size(), j["consideration_rules"].size());
  return {Strings(j["strength_rules"]), Strings(j["consideration_rules"])};
}

TEST(GpuTraits, EachSentenceNamesItsRule) {
  auto [s4090, c4090] = TraitRules("RTX 4090");
  EXPECT_THAT(s4090, Contains("gpu.cuda"));
  EXPECT_THAT(s4090, Contains("gpu.bandwidth-high"));
  EXPECT_THAT(s4090, Not(Contains("gpu.unified-memory")));
  EXPECT_THAT(c4090, Contains("gpu.slow-link"));           // PCIe only
  EXPECT_THAT(c4090, Contains("gpu.large-model-out-of-reach"));  // 70B needs ~47 GB
  auto [sh100, ch100] = TraitRules("h100");
  EXPECT_THAT(sh100, Contains("gpu.scales-out"));          // NVLink
  EXPECT_THAT(sh100, Contains("gpu.memory-high"));
  EXPECT_THAT(ch100, Contains("gpu.server-board"));        // SXM5
  auto [smac, cmac] = TraitRules("M4 Max 64GB");
  EXPECT_THAT(smac, Contains("gpu.unified-memory"));
  EXPECT_THAT(cmac, Contains("gpu.metal-only"));
  EXPECT_THAT(smac, Not(Contains("gpu.cuda")));
}

TEST(GpuTraits, SentencesCarryTheFacts) {
  Json j = FitrankJson({"gpu", "RTX 4090"});
  std::vector<std::string> rules = Strings(j["strength_rules"]);
  auto it = std::find(rules.begin(), rules.end(), "gpu.bandwidth-high");
  ASSERT_NE(it, rules.end());
  std::string s = j["strengths"][it - rules.begin()];
  EXPECT_THAT(s, HasSubstr("1008 GB/s of memory bandwidth"));
  EXPECT_THAT(s, Not(HasSubstr("{")));
}

TEST(CompareDecisions, NameTheirRulesAndKeepTheMargins) {
  Json j = FitrankJson({"compare", "RTX 4090", "RTX 5090", "RTX 3090"});
  ASSERT_EQ(j["decisions"].size(), 3u);
  std::map<std::string, std::vector<std::string>> by_gpu;
  for (const Json& d : j["decisions"]) {
    EXPECT_EQ(d["reasons"].size(), d["rules"].size());
    by_gpu[d["gpu"]] = Strings(d["rules"]);
  }
  // 32 GB vs 24 GB is a clear lead; FP4 only on Blackwell.
  EXPECT_THAT(by_gpu["GeForce RTX 5090"], Contains("decision.memory"));
  EXPECT_THAT(by_gpu["GeForce RTX 5090"], Contains("decision.fp4"));
  // Nothing speaks for the 4090 against both: only the fallback, and the fallback only then.
  EXPECT_EQ(by_gpu["GeForce RTX 4090"], (std::vector<std::string>{"decision.otherwise"}));
  EXPECT_THAT(by_gpu["GeForce RTX 5090"], Not(Contains("decision.otherwise")));
  // The 3090 alone has an NVLink bridge.
  EXPECT_EQ(by_gpu["GeForce RTX 3090"], (std::vector<std::string>{"decision.link"}));
}

TEST(CompareDecisions, AnUnknownPriceIsSaidNotAssumed) {
  Json j = FitrankJson({"compare", "M4 Max 64GB", "RTX 4090"});
  // The catalog has no price for the 64 GB M4 Max: the 4090 is only the cheapest known.
  std::vector<std::string> rules = Strings(j["decisions"][1]["rules"]);
  EXPECT_THAT(rules, Contains("decision.price-known"));
  EXPECT_THAT(rules, Not(Contains("decision.price")));
}

TEST(CompareDecisions, UnqualifiedH200Resolves) {
  Json j = FitrankJson({"compare", "mi325x", "h200"});
  ASSERT_EQ(j["gpus"].size(), 2u);
  EXPECT_EQ(j["decisions"][1]["gpu_id"], "nvidia-h200-sxm-141gb");
  EXPECT_THAT(Strings(j["decisions"][0]["rules"]), Contains("decision.memory"));
}

std::string TempDir(const std::string& name) { return testing::ScratchDir("traits_" + name); }

TEST(TraitsLint, ShippedFilesAreLintedAndAMistakeGetsAHint) {
  CliRun clean = Fitrank({"rules", "lint", FITRANK_SOURCE_DIR "/engine/report/traits/gpu",
                          FITRANK_SOURCE_DIR "/engine/report/traits/compare"});
  EXPECT_EQ(clean.code, 0) << clean.out;
  EXPECT_THAT(clean.out, HasSubstr("5 files checked: 0 errors, 0 warnings"));

  std::string dir = TempDir("lint") + "/traits/compare";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mine.yaml") << R"(schema: fitrank.rules/v1
set: decision
rules:
  - id: decision.mine
    desc: A typo in a fact.
    when: gpu.usable_gb > others.max_usabel_gb
    say: "pick it"
)";
  CliRun r = Fitrank({"rules", "lint", dir + "/mine.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("mine.yaml:6:27: error: unknown fact `others.max_usabel_gb`"));
  EXPECT_THAT(r.out, HasSubstr("did you mean `others.max_usable_gb`"));
}

TEST(TraitsSchema, ListsEachBooksFactsAndKinds) {
  Json j = FitrankJson({"rules", "schema", "--kind", "gpu-traits"});
  EXPECT_EQ(j["properties"]["set"]["enum"],
            Json({"strength", "consideration", "red-flag", "limiter"}));
  std::set<std::string> facts;
  for (const Json& f : j["x-fitrank-facts"]) facts.insert(f["name"]);
  EXPECT_TRUE(facts.count("catalog.memory_rank_pct"));
  EXPECT_TRUE(facts.count("cap.large_decode_tok_s"));
  EXPECT_FALSE(facts.count("perf.decode_tok_s"));  // a scoring fact, not a GPU trait fact
  Json c = FitrankJson({"rules", "schema", "--kind", "compare-decisions"});
  EXPECT_EQ(c["properties"]["set"]["enum"], Json({"decision"}));
}

TEST(TraitsLocal, ALocalTraitRuleReachesTheGpuPage) {
  std::string root = TempDir("local");
  std::filesystem::create_directories(root + "/traits/gpu");
  std::ofstream(root + "/traits/gpu/mine.yaml") << R"(schema: fitrank.rules/v1
set: consideration
rules:
  - id: mine.hot
    desc: A lot of heat for a desk.
    when: gpu.tdp_w >= 400
    say: "{gpu.tdp_w:.0f} W: plan the cooling."
overrides:
  - id: gpu.cuda
    disable: true
)";
  setenv("FITRANK_RULES", root.c_str(), 1);
  Json j = FitrankJson({"gpu", "RTX 4090"});
  unsetenv("FITRANK_RULES");
  EXPECT_THAT(Strings(j["consideration_rules"]), Contains("mine.hot"));
  EXPECT_THAT(Strings(j["considerations"]), Contains("450 W: plan the cooling."));
  EXPECT_THAT(Strings(j["strength_rules"]), Not(Contains("gpu.cuda")));
}

// The buying advice's limiter and red flags are trait rules: an analyst changes them in YAML.
TEST(TraitsLocal, RedFlagsAndTheLimiterAreRules) {
  Json p40 = FitrankJson({"gpu", "Tesla P40"});
  EXPECT_EQ(p40["buying_advice"]["limiter_id"], "memory");
  EXPECT_THAT(Strings(p40["buying_advice"]["red_flags"]),
              Contains("Launched in 2016: driver and runtime support for this generation is "
                       "ending."));
  std::string root = TempDir("flags");
  std::filesystem::create_directories(root + "/traits/gpu");
  std::ofstream(root + "/traits/gpu/mine.yaml") << R"(schema: fitrank.rules/v1
set: limiter
rules:
  - id: limiter.age
    desc: Old enough that software support comes first.
    when: known(gpu.launch_year) and gpu.launch_year <= 2017
    say: "software age: {gpu.name} is from {gpu.launch_year}."
overrides:
  - id: red-flag.old-generation
    disable: true
)";
  setenv("FITRANK_RULES", root.c_str(), 1);
  Json j = FitrankJson({"gpu", "Tesla P40"});
  unsetenv("FITRANK_RULES");
  // Local files load after the shipped ones, so a shipped limiter that fires comes first.
  EXPECT_EQ(j["buying_advice"]["limiter_id"], "memory");
  EXPECT_THAT(Strings(j["buying_advice"]["red_flags"]),
              Not(Contains(HasSubstr("Launched in 2016"))));
}

TEST(FitAdvice, RuleAdviceJoinsOnce) {
  Json j = FitrankJson({"fit", "llama 3.3 70b", "--gpu", "RTX 4060"});
  std::vector<std::string> ids;
  for (const Json& a : j["advice"]) {
    ids.push_back(a["id"]);
    EXPECT_FALSE(std::string(a["title"]).empty());
    EXPECT_FALSE(std::string(a["detail"]).empty()) << a["id"];
  }
  std::set<std::string> unique(ids.begin(), ids.end());
  EXPECT_EQ(unique.size(), ids.size());
  // It offloads: the report's own item with numbers, not the rules' generic one as well.
  EXPECT_THAT(ids, Contains("remove-offload"));
  EXPECT_THAT(ids, Not(Contains("add-accelerator-memory")));
}

}  // namespace
}  // namespace fitrank::cli
