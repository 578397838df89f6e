// engine/report_traits.h: the report rule books load from the shipped tree, local files
// override them by id, a file in the wrong set is an error; and the fit report's advice merge
// (engine/advisor.h MergeRuleAdvice).
#include "engine/report/traits.h"

#include <fstream>
#include <sstream>

#include "engine/report/advisor.h"
#include "engine/report/env.h"
#include "engine/report/policy.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

const Profiles& ShippedProfiles() { return *testing::Shipped().profiles; }

TEST(ReportTraits, ShippedBooksLoadWithoutWarnings) {
  EmbeddedSource data;
  Diagnostics diags;
  auto t = ReportTraits::Load(data, nullptr, ShippedProfiles(), /*warnings=*/true, &diags);
  ASSERT_TRUE(t.ok()) << t.status() << diags.Render();
  EXPECT_TRUE(diags.empty()) << diags.Render();
  const rules::CompiledRules& gpu = (*t)->gpu_book();
  EXPECT_GE(gpu.FindSet("strength"), 0);
  EXPECT_GE(gpu.FindSet("consideration"), 0);
  EXPECT_GE(gpu.FindRule("gpu.memory-high"), 0);
  EXPECT_GE(gpu.FindRule("gpu.metal-only"), 0);
  const rules::CompiledRules& cmp = (*t)->compare_book();
  EXPECT_GE(cmp.FindRule("decision.memory"), 0);
  for (const rules::CompiledRules* book : {&gpu, &cmp}) {
    for (const rules::RuleInfo& r : book->rules()) {
      EXPECT_FALSE(r.say_text.empty()) << r.id;  // a trait rule without a sentence says nothing
      EXPECT_FALSE(r.desc.empty()) << r.id;
    }
  }
}

TEST(ReportTraits, LocalFilesOverrideAndDisableShippedRulesById) {
  EmbeddedSource data;
  // A local gpu-book file: a rule of its own, and the shipped gpu.cuda disabled.
  const std::string mine_file = R"(schema: fitrank.rules/v1
set: strength
rules:
  - id: mine.big
    desc: Lots of memory.
    when: gpu.memory_gb >= 100
    say: "{gpu.memory_gb:.0f} GB"
overrides:
  - id: gpu.cuda
    disable: true
)";
  MemorySource local;
  local.Set("traits/gpu/mine.yaml", mine_file + R"(  - id: decision.memory
    set: {say: "it has {gpu.usable_gb:.0f} GB"}
)");
  Diagnostics diags;
  auto t = ReportTraits::Load(data, &local, ShippedProfiles(), false, &diags);
  // The override of a compare rule from a gpu-book file is an unknown id in that book.
  EXPECT_FALSE(t.ok());
  EXPECT_NE(diags.Render().find("decision.memory"), std::string::npos) << diags.Render();

  MemorySource local2;
  local2.Set("traits/gpu/mine.yaml", mine_file);
  Diagnostics diags2;
  auto t2 = ReportTraits::Load(data, &local2, ShippedProfiles(), false, &diags2);
  ASSERT_TRUE(t2.ok()) << diags2.Render();
  EXPECT_LT((*t2)->gpu_book().FindRule("gpu.cuda"), 0);
  int mine = (*t2)->gpu_book().FindRule("mine.big");
  ASSERT_GE(mine, 0);
  EXPECT_TRUE((*t2)->gpu_book().rules()[mine].local);
}

TEST(ReportTraits, AFileInASetTheBookDoesNotHaveIsAnError) {
  EmbeddedSource data;
  MemorySource local;
  local.Set("traits/gpu/typo.yaml", R"(schema: fitrank.rules/v1
set: strenght
rules:
  - id: typo.rule
    desc: x
    when: gpu.bandwith_gbps > 1000
    say: "fast"
)");
  Diagnostics diags;
  auto t = ReportTraits::Load(data, &local, ShippedProfiles(), false, &diags);
  EXPECT_FALSE(t.ok());
  std::string text = diags.Render();
  EXPECT_NE(text.find("typo.yaml:2:6: error: the gpu traits rules have no set `strenght`"),
            std::string::npos) << text;
  EXPECT_NE(text.find("did you mean `strength`?"), std::string::npos) << text;
  EXPECT_NE(text.find("did you mean `gpu.bandwidth_gbps`?"), std::string::npos) << text;
}

ReportPolicy ShippedPolicy() {
  std::ifstream in(FITRANK_SOURCE_DIR "/engine/report/reports.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  Diagnostics diags;
  std::optional<ReportPolicy> p = ParseReportPolicy(ss.str(), "engine/report/reports.yaml", &diags);
  EXPECT_TRUE(p.has_value()) << diags.Render();
  return p.value_or(ReportPolicy{});
}

TEST(MergeRuleAdvice, AddsEachRuleAdviceOnceUnlessAnItemAlreadySaysIt) {
  ReportPolicy policy = ShippedPolicy();
  ReportEnv env;
  env.policy = &policy;
  std::vector<AdviceItem> items = {{"remove-offload", "t", "d"}};
  MergeRuleAdvice(env,
                  {"remove-offload", "add-accelerator-memory", "faster-prefill", "faster-prefill",
                   "an-analysts-id"},
                  &items);
  std::vector<std::string> ids;
  for (const AdviceItem& i : items) ids.push_back(i.id);
  // add-accelerator-memory is covered_by remove-offload (reports.yaml); duplicates collapse.
  EXPECT_EQ(ids, (std::vector<std::string>{"remove-offload", "faster-prefill", "an-analysts-id"}));
  EXPECT_EQ(items[0].title, "t");  // an item the report wrote keeps its numbers
  const AdviceText* prefill = policy.AdviceFor("faster-prefill");
  ASSERT_NE(prefill, nullptr);
  EXPECT_EQ(items[1].title, prefill->title);
  EXPECT_EQ(items[1].detail, prefill->detail);
  EXPECT_EQ(items[2].title, "an-analysts-id");  // no text in reports.yaml: the id itself
}

TEST(MergeRuleAdvice, EveryAdviceIdOfTheShippedRulesHasAText) {
  ReportPolicy policy = ShippedPolicy();
  EmbeddedSource data;
  for (const std::string& path : data.List("rules", ".yaml")) {
    std::string text = *data.Read(path);
    size_t at = 0;
    while ((at = text.find("advice: ", at)) != std::string::npos) {
      at += 8;
      std::string id = text.substr(at, text.find('\n', at) - at);
      EXPECT_NE(policy.AdviceFor(id), nullptr) << path << ": advice " << id;
    }
  }
}

}  // namespace
}  // namespace fitrank
