// Every report's JSON matches its schema under docs/schemas/, checked against real output for
// a panel of setups: a key gained, lost or changed in type fails here until the schema (and,
// for a rename or removal, kReportSchemaVersion) says so.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "tests/cli/json_schema.h"
#include "tests/golden.h"

namespace fitrank::cli {
namespace {

using ::fitrank::testing::CheckSchema;
using ::fitrank::testing::ReadSourceFile;

nlohmann::json Schema(const std::string& report) {
  const std::string text = ReadSourceFile("docs/schemas/" + report + ".schema.json");
  EXPECT_FALSE(text.empty()) << "no docs/schemas/" << report << ".schema.json";
  return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

std::vector<std::string> Problems(const nlohmann::json& schema, const nlohmann::json& j) {
  std::vector<std::string> errors;
  CheckSchema(schema, j, "$", &errors);
  return errors;
}

struct ReportRun {
  std::string report;
  std::vector<std::string> args;
};
void PrintTo(const ReportRun& r, std::ostream* os) { *os << ::testing::PrintToString(r.args); }

const std::vector<ReportRun>& Runs() {
  static const std::vector<ReportRun> kRuns = {
      {"recommend", {"recommend", "--gpu", "4060", "--workload", "all"}},
      {"recommend", {"recommend", "--gpu", "4090", "--gpu", "3090", "--workload", "coding"}},
      {"recommend", {"recommend", "--gpu", "mi325x", "--mode", "scale-out", "--workload", "all"}},
      {"gpu", {"gpu", "4090"}},
      {"gpu", {"gpu", "4090", "--gpus", "2"}},
      {"gpu", {"gpu", "mi325x"}},
      {"gpu", {"gpu", "apple-m4-max-40-core-gpu-64gb"}},
      {"fit", {"fit", "llama 3.1 405b", "--gpu", "MI325X"}},
      {"fit", {"fit", "llama-3.3-70b-instruct", "--gpu", "4090"}},
      {"fit", {"fit", "qwen3 8b", "--gpu", "4060", "--workload", "coding"}},
      {"upgrade", {"upgrade", "--gpu", "4090", "--workload", "coding"}},
      {"upgrade", {"upgrade", "--gpu", "4060", "--budget", "2000"}},
      {"compare", {"compare", "4090", "3090", "5090"}},
      {"compare", {"compare", "instinct-mi325x", "nvidia-h200-sxm-141gb"}},
      {"estimate", {"estimate", "--model", "qwen3 8b", "--gpu", "4090"}},
      {"estimate", {"estimate", "--model", "llama 3.1 405b", "--gpu", "4090", "--quant", "Q2_K"}},
      {"estimate", {"estimate", "--model", "llama-3.3-70b-instruct", "--gpu", "mi325x", "--gpus",
                    "8", "--runtime", "vllm", "--quant", "FP8", "--batch", "4000"}},
  };
  return kRuns;
}

class ReportSchema : public ::testing::TestWithParam<ReportRun> {};

TEST_P(ReportSchema, RealOutputMatchesTheShippedSchema) {
  const nlohmann::json j = FitrankJson(GetParam().args);
  ASSERT_FALSE(j.empty());
  for (const std::string& e : Problems(Schema(GetParam().report), j)) ADD_FAILURE() << e;
}

INSTANTIATE_TEST_SUITE_P(Reports, ReportSchema, ::testing::ValuesIn(Runs()));

TEST(ReportSchema, EverySchemaIsStrictAtEveryLevel) {
  // Strict: every object lists its keys, requires them unless they are optional, and refuses
  // others, so that an added key cannot pass unnoticed.
  for (const std::string report :
       {"recommend", "gpu", "fit", "upgrade", "compare", "estimate"}) {
    const nlohmann::json s = Schema(report);
    EXPECT_EQ(s.value("$schema", ""), "https://json-schema.org/draft/2020-12/schema") << report;
    EXPECT_FALSE(s.value("description", "").empty()) << report;
    std::vector<std::pair<std::string, nlohmann::json>> todo = {{report, s}};
    while (!todo.empty()) {
      auto [path, node] = todo.back();
      todo.pop_back();
      ASSERT_TRUE(node.contains("type")) << path;
      if (node.contains("properties")) {
        EXPECT_TRUE(node.contains("additionalProperties")) << path;
        for (const auto& [k, sub] : node["properties"].items()) todo.push_back({path + "." + k, sub});
      }
      if (node.contains("items")) todo.push_back({path + "[]", node["items"]});
      if (node["additionalProperties"].is_object()) {
        todo.push_back({path + ".*", node["additionalProperties"]});
      }
    }
    EXPECT_EQ(s["properties"]["schema_version"]["type"], "integer") << report;
  }
}

TEST(ReportSchema, TheCheckerCatchesAGainedALostAndARetypedKey) {
  const nlohmann::json schema = Schema("fit");
  const nlohmann::json good = FitrankJson({"fit", "qwen3 8b", "--gpu", "4090"});
  ASSERT_TRUE(Problems(schema, good).empty());

  nlohmann::json gained = good;
  gained["memory"]["new_key_gb"] = 1.5;
  EXPECT_EQ(Problems(schema, gained),
            std::vector<std::string>{"$.memory.new_key_gb: key not in the schema"});

  nlohmann::json lost = good;
  lost["quants"][0].erase("bpw");
  EXPECT_EQ(Problems(schema, lost), std::vector<std::string>{"$.quants[0]: missing key `bpw`"});

  nlohmann::json retyped = good;
  retyped["decode_tok_s"] = "62.3 tok/s";
  EXPECT_EQ(Problems(schema, retyped),
            std::vector<std::string>{"$.decode_tok_s: string where the schema wants number|null"});
}

}  // namespace
}  // namespace fitrank::cli
