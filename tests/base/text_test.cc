#include "base/text.h"

#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(NormalizeName, DropsSeparatorsAndCase) {
  EXPECT_EQ(NormalizeName("GeForce RTX-4090"), "geforcertx4090");
  EXPECT_EQ(NormalizeName("llama_3.1 8B"), "llama3.18b");
}

TEST(EditDistance, Basic) {
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("same", "same"), 0);
}

TEST(ClosestMatches, SuggestsNearNamesOnly) {
  std::vector<std::string> names = {"fit.headroom_pct", "fit.kind", "perf.decode_tok_s"};
  EXPECT_EQ(ClosestMatches("fit.headroom_pc", names, 1),
            std::vector<std::string>{"fit.headroom_pct"});
  EXPECT_TRUE(ClosestMatches("zzzzzzzzzzzzzzzzzzzz", names).empty());
}

TEST(DidYouMean, Formats) {
  EXPECT_EQ(DidYouMean({"a"}), "did you mean `a`?");
  EXPECT_EQ(DidYouMean({"a", "b", "c"}), "did you mean `a`, `b` or `c`?");
  EXPECT_EQ(DidYouMean({}), "");
}

}  // namespace
}  // namespace fitrank
