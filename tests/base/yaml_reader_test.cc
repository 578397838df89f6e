#include "base/yaml_reader.h"

#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(ParseYaml, SyntaxErrorIsADiagnosticWithPosition) {
  Diagnostics d;
  auto node = ParseYaml("a: [1, 2\nb: 3\n", "x.yaml", &d);
  EXPECT_EQ(node, nullptr);
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].code, "yaml-syntax");
  EXPECT_GT(d.all()[0].where.line, 0);
}

TEST(MapReader, ReadsTypedFieldsAndReportsProblems) {
  Diagnostics d;
  auto node = ParseYaml("name: RTX\nmemory_gb: -4\nbandwith_gbps: 100\nlist: [a, b]\n",
                        "g.yaml", &d);
  ASSERT_NE(node, nullptr);
  MapReader r(node->root(), "g.yaml", &d, "gpu `x`");
  std::string name;
  double mem = 0, bw = 0;
  std::vector<std::string> list;
  EXPECT_TRUE(r.Required("name", &name));
  EXPECT_EQ(name, "RTX");
  EXPECT_FALSE(r.Required("memory_gb", &mem, 0.1, 4096));
  EXPECT_FALSE(r.Required("bandwidth_gbps", &bw, 1, 1e5));
  EXPECT_TRUE(r.Optional("list", &list));
  r.CheckUnknownKeys();
  ASSERT_EQ(d.all().size(), 3u);
  EXPECT_EQ(d.all()[0].code, "out-of-range");
  EXPECT_EQ(d.all()[0].where.line, 2);
  EXPECT_EQ(d.all()[0].where.col, 12);
  EXPECT_EQ(d.all()[1].code, "missing-field");
  EXPECT_EQ(d.all()[2].code, "unknown-key");
  EXPECT_EQ(d.all()[2].hint, "did you mean `bandwidth_gbps`?");
}

TEST(MapReader, RejectsNonFiniteNumbers) {
  Diagnostics d;
  auto node = ParseYaml("x: .nan\n", "g.yaml", &d);
  ASSERT_NE(node, nullptr);
  MapReader r(node->root(), "g.yaml", &d, "entry");
  double x = 0;
  EXPECT_FALSE(r.Optional("x", &x, 0, 10));
  EXPECT_EQ(d.all()[0].code, "wrong-type");
}

TEST(MapReader, ReportsAKeyGivenTwice) {
  Diagnostics d;
  auto node = ParseYaml("a: 1\nb: 2\na: 3\n", "g.yaml", &d);
  ASSERT_NE(node, nullptr);
  MapReader r(node->root(), "g.yaml", &d, "entry");
  double a = 0, b = 0;
  EXPECT_TRUE(r.Optional("a", &a, 0, 10));
  EXPECT_EQ(a, 1);  // the first one is read
  EXPECT_TRUE(r.Optional("b", &b, 0, 10));
  r.CheckUnknownKeys();
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].code, "duplicate-key");
  EXPECT_EQ(d.all()[0].where.line, 3);
}

}  // namespace
}  // namespace fitrank
