// Engine: one snapshot of everything loaded, never half-loaded, shareable across threads.
#include "engine/engine.h"

#include <string>
#include <vector>

#include "base/file_source.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

std::shared_ptr<const FileSource> Embedded() { return std::make_shared<EmbeddedSource>(); }

TEST(Engine, LoadsTheShippedDataWithEveryPartSet) {
  Diagnostics diags;
  std::shared_ptr<const Engine> e = Engine::Load({.data = Embedded()}, &diags);
  ASSERT_NE(e, nullptr) << diags.Render();
  EXPECT_FALSE(diags.HasErrors());
  const ReportEnv& env = e->env();
  EXPECT_EQ(env.catalog, &e->catalog());
  EXPECT_EQ(env.estimator, &e->estimator());
  EXPECT_EQ(env.profiles, &e->profiles());
  EXPECT_EQ(env.policy, &e->policy());
  EXPECT_EQ(env.grader, &e->grader());
  EXPECT_EQ(env.traits, &e->traits());
  EXPECT_EQ(&e->grader().evaluator(), &e->evaluator());
  EXPECT_GT(e->catalog().gpus().size(), 100u);
}

TEST(Engine, ABrokenLocalRuleFileLoadsNothingAndSaysWhere) {
  auto local = std::make_shared<MemorySource>();
  local->Set("mine.yaml",
             "schema: fitrank.rules/v1\nset: fit\nrules:\n"
             "  - id: mine.typo\n    when: fit.headroom_pc > 10\n    score: 5\n");
  Diagnostics diags;
  std::shared_ptr<const Engine> e =
      Engine::Load({.data = Embedded(), .local_rules = local}, &diags);
  EXPECT_EQ(e, nullptr);
  std::string text = diags.Render();
  EXPECT_NE(text.find("mine.yaml:5:"), std::string::npos) << text;
  EXPECT_NE(text.find("fit.headroom_pct"), std::string::npos) << text;  // did you mean
}

TEST(Engine, ABrokenCatalogFileLoadsNothing) {
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/gpus.yaml", "schema: fitrank.catalog/v1\nkind: gpus\ngpus: [1, 2\n");
  Diagnostics diags;
  std::shared_ptr<const Engine> e =
      Engine::Load({.data = std::make_shared<OverlaySource>(top, Embedded())}, &diags);
  EXPECT_EQ(e, nullptr);
  EXPECT_TRUE(diags.HasErrors());
  EXPECT_NE(diags.Render().find("catalog/gpus.yaml"), std::string::npos) << diags.Render();
}

TEST(Engine, TheReportPolicyNamesAreResolvedOnceAtLoad) {
  Diagnostics diags;
  std::shared_ptr<const Engine> e = Engine::Load({.data = Embedded()}, &diags);
  ASSERT_NE(e, nullptr) << diags.Render();
  const ReportPolicy& p = e->policy();
  // The records of this snapshot, not copies: reports compare and point at them.
  EXPECT_EQ(p.count_workload.found, e->profiles().FindWorkload("coding").found);
  EXPECT_EQ(p.count_quant.found, e->catalog().QuantById("Q4_K_M"));
  EXPECT_EQ(p.top_models_workload.found, e->profiles().FindWorkload("chat").found);
  ASSERT_NE(p.top_models_min_grade.found, nullptr);
  EXPECT_EQ(p.top_models_min_grade->letter, "B");
  EXPECT_EQ(p.top_models_min_grade_index, e->profiles().grades().IndexOf("B"));
  for (const CapabilitySpec& row : p.capability_rows) {
    if (row.kind != CapabilityKind::kLlm) continue;
    EXPECT_NE(row.workload.found, nullptr) << row.id;
    EXPECT_NE(row.quant.found, nullptr) << row.id;
  }
}

TEST(Engine, AnUnknownWorkloadInTheReportPolicyLoadsNothingAndSaysWhere) {
  absl::StatusOr<std::string> shipped = EmbeddedSource().Read("engine/report/reports.yaml");
  ASSERT_TRUE(shipped.ok());
  std::string text = *shipped;
  const std::string from = "count_workload: coding";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "count_workload: codng");
  auto top = std::make_shared<MemorySource>();
  top->Set("engine/report/reports.yaml", text);
  Diagnostics diags;
  std::shared_ptr<const Engine> e =
      Engine::Load({.data = std::make_shared<OverlaySource>(top, Embedded())}, &diags);
  EXPECT_EQ(e, nullptr);
  const std::string said = diags.Render();
  EXPECT_NE(said.find("reports.yaml:"), std::string::npos) << said;
  EXPECT_NE(said.find("workload `codng` is not in the profiles"), std::string::npos) << said;
  EXPECT_NE(said.find("did you mean `coding`?"), std::string::npos) << said;
}

// Loads the shipped tree with `top` laid over it and a local rule file with a typo: the load
// fails; what it said, rendered.
std::string ProblemsWithATypoedRule(const std::shared_ptr<MemorySource>& top) {
  auto local = std::make_shared<MemorySource>();
  local->Set("mine.yaml",
             "schema: fitrank.rules/v1\nset: fit\nrules:\n"
             "  - id: mine.typo\n    when: fit.headroom_pc > 10\n    score: 5\n");
  Diagnostics diags;
  std::shared_ptr<const Engine> e = Engine::Load(
      {.data = std::make_shared<OverlaySource>(top, Embedded()), .local_rules = local}, &diags);
  EXPECT_EQ(e, nullptr);
  return diags.Render();
}

// The catalog and the estimator's constants (and, with the trait books, the report policy)
// load on a second thread while the rules compile, yet the problems read as a sequential
// load's: in file order (catalog, estimator, profiles, policy), and none of the rules' when
// the estimator or the policy already failed (a sequential load stops before them).
TEST(Engine, ProblemsAreReportedInLoadOrderAndNoneAfterAFailedPolicy) {
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/gpus.yaml", "schema: fitrank.catalog/v1\nkind: gpus\ngpus: [1, 2\n");
  top->Set("engine/report/reports.yaml", "picks_per_workload: [1, 2\n");
  const std::string text = ProblemsWithATypoedRule(top);
  const size_t catalog_at = text.find("catalog/gpus.yaml");
  const size_t policy_at = text.find("reports.yaml");
  ASSERT_NE(catalog_at, std::string::npos) << text;
  ASSERT_NE(policy_at, std::string::npos) << text;
  EXPECT_LT(catalog_at, policy_at) << text;
  EXPECT_EQ(text.find("mine.yaml"), std::string::npos) << text;
  // With a sound policy the same rule file is reported.
  top->Set("engine/report/reports.yaml",
           *EmbeddedSource().Read("engine/report/reports.yaml"));
  const std::string again = ProblemsWithATypoedRule(top);
  EXPECT_NE(again.find("mine.yaml:5:"), std::string::npos) << again;
}

TEST(Engine, AFailedEstimatorIsReportedInOrderAndTheRulesAreNot) {
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/gpus.yaml", "schema: fitrank.catalog/v1\nkind: gpus\ngpus: [1, 2\n");
  top->Set("engine/estimator/estimator.yaml", "schema: fitrank.estimator/v1\nconstants: [1\n");
  top->Set("profiles/workloads.yaml", "workloads: [1, 2\n");
  const std::string text = ProblemsWithATypoedRule(top);
  const size_t catalog_at = text.find("catalog/gpus.yaml");
  const size_t estimator_at = text.find("estimator.yaml");
  const size_t profiles_at = text.find("workloads.yaml");
  ASSERT_NE(catalog_at, std::string::npos) << text;
  ASSERT_NE(estimator_at, std::string::npos) << text;
  ASSERT_NE(profiles_at, std::string::npos) << text;
  EXPECT_LT(catalog_at, estimator_at) << text;
  EXPECT_LT(estimator_at, profiles_at) << text;
  EXPECT_EQ(text.find("mine.yaml"), std::string::npos) << text;
  // With sound constants and profiles the rule file is reported.
  top->Set("engine/estimator/estimator.yaml",
           *EmbeddedSource().Read("engine/estimator/estimator.yaml"));
  top->Set("profiles/workloads.yaml", *EmbeddedSource().Read("profiles/workloads.yaml"));
  const std::string again = ProblemsWithATypoedRule(top);
  EXPECT_NE(again.find("mine.yaml:5:"), std::string::npos) << again;
}

}  // namespace
}  // namespace fitrank
