// Strict decimal parsing: what users may write as a number, and what is refused.
#include "base/numbers.h"

#include "gtest/gtest.h"

namespace fitrank {
namespace {

double Parsed(absl::string_view s) {
  double v = -12345;
  EXPECT_EQ(ParseDecimal(s, &v), NumberParse::kOk) << s;
  return v;
}

TEST(ParseDecimal, PlainDecimalNotation) {
  EXPECT_EQ(Parsed("24"), 24);
  EXPECT_EQ(Parsed("-1"), -1);
  EXPECT_EQ(Parsed("+0.5"), 0.5);
  EXPECT_EQ(Parsed(".5"), 0.5);
  EXPECT_EQ(Parsed("5."), 5);
  EXPECT_EQ(Parsed("1.5e3"), 1500);
  EXPECT_EQ(Parsed("1E-2"), 0.01);
  EXPECT_EQ(Parsed("1e-400"), 0);  // underflow reads as zero
}

TEST(ParseDecimal, HexWordsAndSpacesAreNotNumbers) {
  double v = 7;
  for (absl::string_view s : {"0x10", "0x1p3", "0X1P3", "inf", "-inf", "nan", "NaN", "infinity",
                              "", " 1", "1 ", "1,000", "1_000", "e5", ".", "-", "1e", "1e+",
                              "--1", "1.2.3", "0b101", "12GB"}) {
    EXPECT_EQ(ParseDecimal(s, &v), NumberParse::kNotDecimal) << "`" << s << "`";
  }
  EXPECT_EQ(v, 7);  // untouched on failure
}

TEST(ParseDecimal, BeyondADoubleIsOverflow) {
  double v = 7;
  EXPECT_EQ(ParseDecimal("1e309", &v), NumberParse::kOverflow);
  EXPECT_EQ(ParseDecimal("-1e309", &v), NumberParse::kOverflow);
  EXPECT_EQ(ParseDecimal(std::string(400, '9'), &v), NumberParse::kOverflow);
  EXPECT_EQ(v, 7);
}

TEST(ParseDecimalInt, WholeNumbersInRange) {
  int64_t n = 0;
  EXPECT_EQ(ParseDecimalInt("8192", &n), NumberParse::kOk);
  EXPECT_EQ(n, 8192);
  EXPECT_EQ(ParseDecimalInt("-3", &n), NumberParse::kOk);
  EXPECT_EQ(n, -3);
  EXPECT_EQ(ParseDecimalInt("9223372036854775808", &n), NumberParse::kOverflow);
  EXPECT_EQ(ParseDecimalInt("18446744073709551615", &n), NumberParse::kOverflow);
  for (absl::string_view s : {"0x10", "1.0", "1e3", "nan", "", "+", " 5"}) {
    EXPECT_EQ(ParseDecimalInt(s, &n), NumberParse::kNotDecimal) << "`" << s << "`";
  }
}

}  // namespace
}  // namespace fitrank
