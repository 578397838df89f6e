#include "rules/json_schema.h"

#include "gtest/gtest.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

TEST(RuleFileJsonSchema, DescribesKeysIdsAndVocabulary) {
  testing::TestFacts t;
  nlohmann::json s = RuleFileJsonSchema(*t.schema, testing::TestVocabulary());
  EXPECT_EQ(s["properties"]["schema"]["const"], "fitrank.rules/v1");
  const nlohmann::json& rule = s["properties"]["rules"]["items"];
  EXPECT_EQ(rule["additionalProperties"], false);
  EXPECT_EQ(rule["properties"]["cap"]["enum"].size(), 6u);
  const nlohmann::json& workloads = rule["properties"]["workloads"]["items"]["enum"];
  EXPECT_NE(std::find(workloads.begin(), workloads.end(), "agentic-coding"), workloads.end());
  std::string when_doc = rule["properties"]["when"]["description"];
  EXPECT_NE(when_doc.find("fit.headroom_pct (number, %)"), std::string::npos);
  const nlohmann::json& set = s["properties"]["overrides"]["items"]["properties"]["set"];
  EXPECT_EQ(set["properties"]["cap"]["enum"].back(), "none");
  EXPECT_FALSE(set["properties"].contains("id"));
}

}  // namespace
}  // namespace fitrank::rules
