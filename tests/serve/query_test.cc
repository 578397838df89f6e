// The query-string parser and URL helpers (cli/serve/query.h): a pure function over bytes.
#include "cli/serve/query.h"

#include <string>

#include "gtest/gtest.h"

namespace fitrank::cli::serve {
namespace {

std::vector<QueryParam> Parse(absl::string_view q) {
  absl::StatusOr<std::vector<QueryParam>> r = ParseQuery(q);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::vector<QueryParam>{};
}

std::string Error(absl::string_view q) {
  absl::StatusOr<std::vector<QueryParam>> r = ParseQuery(q);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : std::string(r.status().message());
}

TEST(ParseQuery, PairsInOrderWithRepeats) {
  std::vector<QueryParam> want = {{"gpu", "RTX 4090"}, {"gpu", "RTX 3090"}, {"workload", "coding"}};
  EXPECT_EQ(Parse("gpu=RTX%204090&gpu=RTX+3090&workload=coding"), want);
}

TEST(ParseQuery, BareNamesEmptyValuesAndEmptyPairs) {
  std::vector<QueryParam> want = {{"quiet", ""}, {"a", ""}, {"b", "1=2"}};
  EXPECT_EQ(Parse("quiet&&a=&b=1=2&"), want);
  EXPECT_TRUE(Parse("").empty());
}

TEST(ParseQuery, DecodesUtf8) {
  std::vector<QueryParam> want = {{"model", "Qwen3 – 8B"}};
  EXPECT_EQ(Parse("model=Qwen3%20%E2%80%93%208B"), want);
}

TEST(ParseQuery, BadEscapesAreLocated) {
  EXPECT_EQ(Error("a=%G1"), "bad percent escape `%G1` at byte 3");
  EXPECT_EQ(Error("gpu=4090&x=%4"), "bad percent escape `%4` at byte 12");
  EXPECT_EQ(Error("%zz=1"), "bad percent escape `%zz` at byte 1");
}

TEST(ParseQuery, RefusesControlCharactersAndBadUtf8) {
  EXPECT_EQ(Error("gpu=a%00b"),
            "parameter `gpu` is not UTF-8 text (control characters or malformed bytes)");
  EXPECT_EQ(Error("gpu=%0A"),
            "parameter `gpu` is not UTF-8 text (control characters or malformed bytes)");
  EXPECT_FALSE(ParseQuery("gpu=%C0%AF").ok());  // overlong '/'
  EXPECT_FALSE(ParseQuery("gpu=%ED%A0%80").ok());  // surrogate
  EXPECT_FALSE(ParseQuery("gpu=%FF").ok());
  EXPECT_TRUE(ParseQuery("gpu=a%09b").ok());  // tab is text
}

TEST(ParseQuery, Limits) {
  std::string many;
  for (size_t i = 0; i <= kMaxQueryParams; ++i) many += "gpu=x&";
  EXPECT_EQ(Error(many), "more than 32 query parameters");
  EXPECT_EQ(Error("gpu=" + std::string(kMaxParamValueBytes + 1, 'a')),
            "parameter `gpu` is 201 bytes long; the limit is 200");
  EXPECT_TRUE(ParseQuery("gpu=" + std::string(kMaxParamValueBytes, 'a')).ok());
  EXPECT_EQ(Error(std::string(kMaxParamNameBytes + 1, 'n') + "=1"),
            "a parameter name is 33 bytes long; the limit is 32");
}

TEST(DecodePathSegment, DecodesAndRefusesSlashes) {
  EXPECT_EQ(*DecodePathSegment("RTX%204090"), "RTX 4090");
  EXPECT_EQ(*DecodePathSegment("a+b"), "a+b");
  EXPECT_EQ(DecodePathSegment("..%2Fetc").status().message(),
            "a name in the path cannot contain `/`");
  EXPECT_FALSE(DecodePathSegment("%").ok());
}

TEST(UrlEncode, RoundTripsThroughTheParser) {
  std::string nasty = "a b&c=d/é<\"'>%+";
  EXPECT_EQ(UrlEncode(nasty), "a%20b%26c%3Dd%2F%C3%A9%3C%22%27%3E%25%2B");
  std::vector<QueryParam> want = {{"x", nasty}};
  EXPECT_EQ(Parse("x=" + UrlEncode(nasty)), want);
}

TEST(Lookup, LastAndAll) {
  std::vector<QueryParam> q = {{"gpu", "a"}, {"mode", "m"}, {"gpu", "b"}};
  EXPECT_EQ(Last(q, "gpu"), "b");
  EXPECT_EQ(Last(q, "ram"), std::nullopt);
  EXPECT_EQ(All(q, "gpu"), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace fitrank::cli::serve
