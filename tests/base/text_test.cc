#include "base/text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <random>

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

std::string ToChars(double v, int decimals) {
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
  return std::string(buf, r.ptr);
}

std::string Fixed(double v, int decimals) {
  std::string out = "x";
  AppendFixed(&out, v, decimals);
  return out.substr(1);
}

TEST(AppendFixed, WritesWhatToCharsWrites) {
  for (double v : {0.0, -0.0, 0.5, 1.5, 2.5, -0.001, 0.125, 0.375, 1.005, 2.675, 99.995, 1e8,
                   123456789.987, 1e9, 1e12, -1e300, 5e-324, 0.045, 8.345,
                   std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}) {
    for (int d = 0; d <= 3; ++d) EXPECT_EQ(Fixed(v, d), ToChars(v, d)) << v << " " << d;
  }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(-4, 10);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  for (int i = 0; i < 200000; ++i) {
    const double v = mantissa(rng) * std::pow(10.0, exponent(rng));
    const int d = i % 4;
    ASSERT_EQ(Fixed(v, d), ToChars(v, d)) << v << " " << d;
  }
  // Exact hundredths and halves, where ties live.
  for (int i = -20000; i <= 20000; ++i) {
    ASSERT_EQ(Fixed(i / 100.0, 1), ToChars(i / 100.0, 1)) << i;
    ASSERT_EQ(Fixed(i / 8.0, 2), ToChars(i / 8.0, 2)) << i;
    ASSERT_EQ(Fixed(i / 1000.0, 2), ToChars(i / 1000.0, 2)) << i;
  }
}

}  // namespace
}  // namespace fitrank

namespace fitrank {
namespace {

// Four or more decimals (the server's charts ask for them) take the to_chars path instead of
// reading past the fast path's scale table (UBSan found it).
TEST(AppendFixed, MoreThanThreeDecimalsAreExact) {
  std::string out;
  AppendFixed(&out, 3.14159265, 4);
  EXPECT_EQ(out, "3.1416");
  out.clear();
  AppendFixed(&out, -0.000049, 5);
  EXPECT_EQ(out, "-0.00005");
}

}  // namespace
}  // namespace fitrank
