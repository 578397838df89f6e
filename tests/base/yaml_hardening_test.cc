// The YAML readers under the input contract: one document per file, decimal numbers only.
#include "base/yaml_reader.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(ParseYaml, ASecondDocumentIsAnErrorNotDropped) {
  Diagnostics d;
  auto tree = ParseYaml("rules:\n  - id: a\n---\nrules:\n  - id: b\n", "r.yaml", &d);
  EXPECT_EQ(tree, nullptr);
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.Render(),
            "r.yaml:3:1: error: a second YAML document starts here; fitrank reads one document "
            "per file [yaml-multiple-documents]\n"
            "  ---\n"
            "  ^\n"
            "  hint: remove the `---` line, or move what follows into another file\n");
}

TEST(ParseYaml, OneDocumentWithMarkersIsFine) {
  Diagnostics d;
  EXPECT_NE(ParseYaml("---\na: 1\n...\n", "r.yaml", &d), nullptr);
  EXPECT_NE(ParseYaml("---\na: 1\n", "r.yaml", &d), nullptr);
  EXPECT_FALSE(d.HasErrors()) << d.Render();
}

TEST(MapReader, HexAndHexFloatAreNotNumbers) {
  Diagnostics d;
  auto tree = ParseYaml("memory_gb: 0x18\nbandwidth_gbps: 0x1p10\nlayers: 0x10\n", "g.yaml", &d);
  ASSERT_NE(tree, nullptr);
  MapReader r(tree->root(), "g.yaml", &d, "gpu `x`");
  double mem = 0, bw = 0;
  int layers = 0;
  EXPECT_FALSE(r.Required("memory_gb", &mem, 0.1, 4096));
  EXPECT_FALSE(r.Required("bandwidth_gbps", &bw, 1, 1e5));
  EXPECT_FALSE(r.Required("layers", &layers, 1, 1000));
  ASSERT_EQ(d.error_count(), 3);
  for (const Diagnostic& x : d.all()) EXPECT_EQ(x.code, "wrong-type") << x.message;
  EXPECT_EQ(d.all()[0].message, "`memory_gb` of gpu `x` must be a number, got `0x18`");
}

TEST(MapReader, ANumberBeyondADoubleIsOutOfRange) {
  Diagnostics d;
  auto tree = ParseYaml("memory_gb: 1e309\n", "g.yaml", &d);
  ASSERT_NE(tree, nullptr);
  MapReader r(tree->root(), "g.yaml", &d, "gpu `x`");
  double mem = 0;
  EXPECT_FALSE(r.Required("memory_gb", &mem, 0.1, 4096));
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.all()[0].code, "out-of-range");
  EXPECT_EQ(d.all()[0].message,
            "`memory_gb` of gpu `x` is 1e309, outside the plausible range [0.1, 4096]");
}

}  // namespace
}  // namespace fitrank
