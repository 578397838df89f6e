#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

TEST(ShippedRules, CompileWithoutErrorsOrWarnings) {
  EmbeddedSource source;
  Diagnostics diags;
  ASSERT_NE(Shipped().evaluator, nullptr);
  absl::StatusOr<ScoringRules> rules =
      LoadScoringRules(source, nullptr, *Shipped().profiles, /*warnings=*/true, &diags);
  ASSERT_TRUE(rules.ok()) << diags.Render();
  EXPECT_EQ(diags.warning_count(), 0) << diags.Render();
}

}  // namespace
}  // namespace fitrank
