#include "base/diagnostics.h"

#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(Diagnostics, RendersLocationSourceLineCaretAndHint) {
  Diagnostics d;
  d.AddSource("rules/fit.yaml", "rules:\n  - when: fit.headroom_pc > 3\n");
  d.Error("unknown-fact", {"rules/fit.yaml", 2, 11}, "unknown fact `fit.headroom_pc`",
          "did you mean `fit.headroom_pct`?");
  EXPECT_TRUE(d.HasErrors());
  EXPECT_EQ(d.Render(),
            "rules/fit.yaml:2:11: error: unknown fact `fit.headroom_pc` [unknown-fact]\n"
            "    - when: fit.headroom_pc > 3\n"
            "            ^\n"
            "  hint: did you mean `fit.headroom_pct`?\n");
}

TEST(Diagnostics, CountsSeverities) {
  Diagnostics d;
  d.Warning("w", {}, "careful");
  EXPECT_FALSE(d.HasErrors());
  EXPECT_EQ(d.warning_count(), 1);
  EXPECT_EQ(d.Render(), "warning: careful [w]\n");
}

}  // namespace
}  // namespace fitrank
