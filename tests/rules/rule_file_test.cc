// Reading rule files: structure, positions of expression text, diagnostics.
#include "rules/rule_file.h"

#include <memory>
#include <string>

#include "base/yaml_reader.h"
#include "gtest/gtest.h"

namespace fitrank::rules {
namespace {

// Maps `offset` of the value of key `key` (top-level map) in `yaml` to a location.
Location At(const std::string& yaml, const std::string& key, int offset) {
  Diagnostics d;
  auto tree = ParseYaml(yaml, "f.yaml", &d);
  EXPECT_NE(tree, nullptr);
  if (tree == nullptr) return {};
  YamlNode n = tree->root().Get(key);
  TextOrigin o(std::make_shared<const std::string>(yaml), "f.yaml", n);
  return o.At(n.Scalar(), offset);
}

TEST(TextOrigin, PlainScalar) {
  std::string y = "x: 1\nwhen: fit.kind == \"native\"\n";
  Location l = At(y, "when", 12);  // the opening quote of "native"
  EXPECT_EQ(l.line, 2);
  EXPECT_EQ(l.col, 19);
}

TEST(TextOrigin, DoubleQuotedWithEscapes) {
  std::string y = "when: \"fit.kind == \\\"native\\\" and x.y\"\n";
  //               0123456 7890123456789 0 1234567 8
  // value: fit.kind == "native" and x.y ; `and` is value offset 21
  Location l = At(y, "when", 21);
  EXPECT_EQ(l.line, 1);
  EXPECT_EQ(l.col, 1 + y.find("and"));
}

TEST(TextOrigin, SingleQuotedWithDoubledQuote) {
  std::string y = "when: 'model.name == ''x'' or y.z'\n";
  Location l = At(y, "when", 18);  // `or`
  EXPECT_EQ(l.col, 1 + y.find("or"));
}

TEST(TextOrigin, FoldedPlainScalarAcrossLines) {
  std::string y = "when: fit.kind == \"native\"\n  and fit.headroom_pct >= 15\n";
  Location l = At(y, "when", 25);  // `fit.headroom_pct` after the folded line break
  EXPECT_EQ(l.line, 2);
  EXPECT_EQ(l.col, 7);
}

TEST(TextOrigin, BlockLiteral) {
  std::string y = "when: |\n  fit.kind == \"native\"\n  and fit.headroom_pc >= 15\n";
  Location l = At(y, "when", 25);
  EXPECT_EQ(l.line, 3);
  EXPECT_EQ(l.col, 7);
}

TEST(TextOrigin, Utf8BeforeTheOffsetCountsBytes) {
  std::string y = "say: \"Über {fit.x}\"\n";
  Location l = At(y, "say", 6);  // '{' after the 2-byte Ü
  EXPECT_EQ(l.col, 1 + y.find('{'));
}

TEST(ReadRuleFile, ReadsEveryField) {
  const std::string y = R"(schema: fitrank.rules/v1
set: fit
description: Fit rules
rules:
  - id: fit.offload
    desc: Spills to host memory.
    when: fit.kind == "offload"
    score: -4 * fit.offload_pct
    cap: C
    gate: false
    workloads: [chat, agentic-coding]
    modes: interactive
    say: "About {fit.offload_pct:.0f}% spills."
    advice: remove-offload
    tags: [fit, memory]
overrides:
  - id: speed.fast
    set: {score: 20, cap: none}
  - id: fit.tiny
    disable: true
)";
  Diagnostics d;
  RuleFile f = ReadRuleFile(y, "rules/fit.yaml", false, &d);
  EXPECT_TRUE(d.empty()) << d.Render();
  EXPECT_EQ(f.set, "fit");
  EXPECT_EQ(f.description, "Fit rules");
  ASSERT_EQ(f.rules.size(), 1u);
  const RuleDef& r = f.rules[0];
  EXPECT_EQ(r.id, "fit.offload");
  EXPECT_EQ(r.where.line, 5);
  EXPECT_EQ(r.set, "fit");
  EXPECT_EQ(r.when->text, "fit.kind == \"offload\"");
  EXPECT_EQ(r.score->text, "-4 * fit.offload_pct");
  EXPECT_EQ(r.cap, "C");
  ASSERT_TRUE(r.workloads.has_value());
  ASSERT_EQ(r.workloads->size(), 2u);
  EXPECT_EQ((*r.workloads)[1].value, "agentic-coding");
  EXPECT_EQ((*r.workloads)[1].where.col, 23);
  ASSERT_EQ(r.modes->size(), 1u);
  EXPECT_EQ(r.advice, "remove-offload");
  EXPECT_EQ(r.tags, (std::vector<std::string>{"fit", "memory"}));
  ASSERT_EQ(f.overrides.size(), 2u);
  EXPECT_EQ(f.overrides[0].id, "speed.fast");
  EXPECT_EQ(f.overrides[0].score->text, "20");
  EXPECT_EQ(*f.overrides[0].cap, "none");
  ASSERT_EQ(f.overrides[0].keys.size(), 2u);
  EXPECT_TRUE(f.overrides[1].disable);
}

TEST(ReadRuleFile, UnknownKeysGetDidYouMean) {
  const std::string y = R"(schema: fitrank.rules/v1
set: fit
rules:
  - id: fit.a
    wehn: fit.kind == "x"
    scor: 3
overrides:
  - id: fit.b
    set: {sya: "x", id: fit.c}
)";
  Diagnostics d;
  ReadRuleFile(y, "f.yaml", true, &d);
  ASSERT_EQ(d.all().size(), 4u) << d.Render();
  EXPECT_EQ(d.all()[0].message, "unknown key `wehn` in rule `fit.a`");
  EXPECT_EQ(d.all()[0].hint, "did you mean `when`?");
  EXPECT_EQ(d.all()[0].where.line, 5);
  EXPECT_EQ(d.all()[1].hint, "did you mean `score`?");
  EXPECT_EQ(d.all()[2].message, "an override cannot change `id`");
  EXPECT_EQ(d.all()[3].message, "unknown key `sya` in `set` of the override of `fit.b`");
  EXPECT_EQ(d.all()[3].hint, "did you mean `say`?");
}

TEST(ReadRuleFile, StructuralErrors) {
  const std::string y = R"(schema: fitrank.rules/v2
rules:
  - id: Fit.A
  - id: fit.ok
    when:
    score: [1, 2]
  - just a string
overrides:
  - id: fit.x
  - id: fit.y
    disable: true
    set: {score: 1}
)";
  Diagnostics d;
  RuleFile f = ReadRuleFile(y, "f.yaml", false, &d);
  std::vector<std::string> codes;
  for (const Diagnostic& x : d.all()) codes.push_back(x.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"unknown-schema", "missing-field", "bad-id",
                                             "missing-value", "wrong-type", "wrong-type",
                                             "empty-override", "conflicting-override"}))
      << d.Render();
  EXPECT_EQ(f.rules.size(), 1u);  // fit.ok is kept; the malformed id is not
}

TEST(ReadRuleFile, YamlSyntaxErrorIsOneDiagnostic) {
  Diagnostics d;
  RuleFile f = ReadRuleFile("schema: [\nrules: x", "f.yaml", false, &d);
  EXPECT_FALSE(f.parsed);
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].code, "yaml-syntax");
}

TEST(ReadRuleFile, DuplicateKeys) {
  Diagnostics d;
  ReadRuleFile("schema: fitrank.rules/v1\nset: fit\nrules:\n  - id: fit.a\n    score: 1\n    score: 2\n",
               "f.yaml", false, &d);
  ASSERT_GE(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].code, "duplicate-key");
  EXPECT_EQ(d.all()[0].where.line, 6);
}

TEST(IsValidRuleId, Examples) {
  EXPECT_TRUE(IsValidRuleId("fit.native-comfortable"));
  EXPECT_TRUE(IsValidRuleId("speed.tok_s.30"));
  EXPECT_FALSE(IsValidRuleId("fit"));
  EXPECT_FALSE(IsValidRuleId("Fit.x"));
  EXPECT_FALSE(IsValidRuleId("fit..x"));
  EXPECT_FALSE(IsValidRuleId("fit.-x"));
  EXPECT_FALSE(IsValidRuleId("fit.x "));
}

}  // namespace
}  // namespace fitrank::rules
