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

}  // namespace
}  // namespace fitrank
