// Name resolution, type checking, constant folding and regex compilation.
#include <string>

#include "gtest/gtest.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

using testing::CompileExpr;
using testing::TestFacts;

struct ErrorCase {
  std::string text;
  int offset;
  std::string code;
  std::string message;
  std::string hint;  // checked only if not empty
};

class CompilerTest : public ::testing::Test {
 protected:
  TestFacts t;

  void ExpectError(const ErrorCase& c) {
    auto e = CompileExpr(*t.schema, c.text);
    ASSERT_FALSE(e->ok()) << c.text;
    ASSERT_FALSE(e->errors.empty()) << c.text;
    const ExprError& err = e->errors[0];
    EXPECT_EQ(err.offset, c.offset) << c.text;
    EXPECT_EQ(err.code, c.code) << c.text;
    EXPECT_EQ(err.message, c.message) << c.text;
    if (!c.hint.empty()) EXPECT_EQ(err.hint, c.hint) << c.text;
  }
};

TEST_F(CompilerTest, UnknownFactSuggestsTheClosest) {
  ExpectError({"fit.headroom_pc >= 15", 0, "unknown-fact", "unknown fact `fit.headroom_pc`",
               "did you mean `fit.headroom_pct`?"});
  ExpectError({"fit.kind == native", 12, "unknown-fact", "unknown fact `native`",
               "text values need quotes: \"native\"; facts are dotted names such as `fit.kind`"});
  ExpectError({"max + 1", 0, "unknown-fact", "unknown fact `max`",
               "`max` is a function: call it like max(a, b, ...)"});
}

// A fact the engine renamed (FactSchema::Rename) is still unknown under its old name, with a
// hint that names the new one, however far the two names are apart.
TEST(CompilerRenamed, OldFactNameHintsAtTheNewOne) {
  FactSchema schema;
  schema.Number("price.gpu_usd", "Price of one GPU", "USD");
  schema.Rename("cost.usd", "price.gpu_usd");
  auto e = CompileExpr(schema, "cost.usd < 1000");
  ASSERT_FALSE(e->ok());
  ASSERT_FALSE(e->errors.empty());
  EXPECT_EQ(e->errors[0].code, "unknown-fact");
  EXPECT_EQ(e->errors[0].hint, "`cost.usd` was renamed: did you mean `price.gpu_usd`?");
  EXPECT_EQ(*schema.RenamedTo("cost.usd"), "price.gpu_usd");
  EXPECT_EQ(schema.RenamedTo("price.gpu_usd"), nullptr);
}

TEST_F(CompilerTest, UnknownFunctionAndArity) {
  ExpectError({"mni(1, 2)", 0, "unknown-function", "unknown function `mni`",
               "did you mean `min`?"});
  ExpectError({"clamp(1, 2)", 0, "wrong-arity",
               "`clamp` takes different arguments: clamp(x, lo, hi)", ""});
  ExpectError({"min(1)", 0, "wrong-arity", "`min` takes different arguments: min(a, b, ...)", ""});
  ExpectError({"round(fit.offload_pct, 9)", 23, "not-constant",
               "the digits of `round` must be a whole number from 0 to 6", ""});
}

TEST_F(CompilerTest, TypeMismatchesPointAtTheOperatorOrOperand) {
  ExpectError({"fit.kind == 3", 9, "type-mismatch",
               "cannot compare `fit.kind` (a string) with a number",
               "`fit.kind` is text; compare it with a quoted value"});
  ExpectError({"fit.headroom_pct > \"15\"", 17, "type-mismatch",
               "`>` compares numbers, but the right side is a string",
               "remove the quotes: 15 is a number"});
  ExpectError({"fit.headroom_pct and true", 0, "type-mismatch",
               "`and` needs true/false on both sides, but its left side is `fit.headroom_pct` "
               "(a number)",
               "compare the number, e.g. `x > 0`"});
  ExpectError({"model.name + 1", 11, "type-mismatch",
               "`+` needs numbers, but its left side is `model.name` (a string)",
               "text cannot be used in arithmetic"});
  ExpectError({"fit.offload_pct =~ \"x\"", 16, "type-mismatch",
               "`=~` matches text, but its left side is `fit.offload_pct` (a number)", ""});
  ExpectError({"not fit.offload_pct", 0, "type-mismatch",
               "`not` needs true/false, but its operand is `fit.offload_pct` (a number)", ""});
  ExpectError({"\"tools\" in model.name", 11, "type-mismatch",
               "`in` needs a list on its right, but found `model.name` (a string)",
               "to find text inside a string, use a regex: `model.name =~ \"coder\"`"});
  ExpectError({"3 in model.capabilities", 2, "type-mismatch",
               "cannot look for a number in `model.capabilities` (a string list)", ""});
  ExpectError({"fit.kind in [1, \"a\"]", 16, "type-mismatch",
               "list mixes numbers and strings", ""});
  ExpectError({"fit.kind in [fit.kind]", 13, "not-constant", "list elements must be constants",
               ""});
  ExpectError({"model.name =~ fit.kind", 14, "not-constant",
               "the pattern after `=~` must be a quoted string", ""});
  ExpectError({"min(fit.kind, 1)", 4, "type-mismatch",
               "`min` needs a number here, but found `fit.kind` (a string)", ""});
}

TEST_F(CompilerTest, ExpectedTypeOfWhenAndScore) {
  auto e = CompileExpr(*t.schema, "fit.headroom_pct", Type::kBool);
  ASSERT_FALSE(e->ok());
  EXPECT_EQ(e->errors[0].message, "the expression must be true/false, but this is a number");
  EXPECT_EQ(e->errors[0].hint, "compare it, e.g. `x > 0`");
  EXPECT_TRUE(CompileExpr(*t.schema, "fit.headroom_pct * 2", Type::kNumber)->ok());
}

TEST_F(CompilerTest, BadRegexPointsIntoThePattern) {
  //                      0123456789012345678
  ExpectError({"model.name =~ \"a(b\"", 16, "bad-regex", "bad regex: missing ): a(b", ""});
  ExpectError({"model.name =~ \"x**\"", 16, "bad-regex", "bad regex: bad repetition operator: **",
               ""});
  ExpectError({"model.name =~ \"(?<n>x)\"", 15, "bad-regex",
               "bad regex: invalid perl operator: (?<", ""});
}

TEST_F(CompilerTest, WorkloadAndModeLiteralsAreChecked) {
  ExpectError({"workload.id == \"codng\"", 15, "unknown-workload", "unknown workload `codng`",
               "did you mean `coding`?"});
  ExpectError({"mode.id in [\"balanced\", \"batch\"]", 24, "unknown-mode", "unknown mode `batch`",
               ""});
  EXPECT_TRUE(CompileExpr(*t.schema, "workload.id == \"agentic-coding\"")->ok());
}

TEST_F(CompilerTest, ErrorsDoNotCascade) {
  auto e = CompileExpr(*t.schema, "fit.nope + 1 > 2 and model.name == 3");
  ASSERT_EQ(e->errors.size(), 2u);
  EXPECT_EQ(e->errors[0].code, "unknown-fact");
  EXPECT_EQ(e->errors[1].code, "type-mismatch");
}

TEST_F(CompilerTest, ConstantFolding) {
  auto e = CompileExpr(*t.schema, "2 * (3 + 4) - 1");
  ASSERT_TRUE(e->ok());
  ASSERT_TRUE(e->compiled.constant.has_value());
  EXPECT_EQ(e->compiled.constant->num, 13);
  EXPECT_EQ(e->compiled.entry, -1);

  e = CompileExpr(*t.schema, "false and fit.headroom_pct > 3");
  ASSERT_TRUE(e->compiled.constant.has_value());
  EXPECT_FALSE(e->compiled.constant->b);
  e = CompileExpr(*t.schema, "fit.headroom_pct > 3 or 1 < 2");
  ASSERT_TRUE(e->compiled.constant.has_value());
  EXPECT_TRUE(e->compiled.constant->b);
  e = CompileExpr(*t.schema, "\"b\" in [\"a\", \"b\"] and \"coder-7b\" =~ \"coder\"");
  ASSERT_TRUE(e->compiled.constant.has_value());
  EXPECT_TRUE(e->compiled.constant->b);
  e = CompileExpr(*t.schema, "1 / 0");
  ASSERT_TRUE(e->ok());
  EXPECT_EQ(e->compiled.constant->num, 0);
  ASSERT_EQ(e->errors.size(), 1u);
  EXPECT_TRUE(e->errors[0].warning);
  EXPECT_EQ(e->errors[0].code, "division-by-zero");
  // `true and x` is just x: no constant.
  e = CompileExpr(*t.schema, "true and fit.headroom_pct > 3");
  EXPECT_FALSE(e->compiled.constant.has_value());
}

TEST_F(CompilerTest, FusedInstructionsForCommonShapes) {
  auto e = CompileExpr(*t.schema, "fit.headroom_pct >= 15");
  ASSERT_TRUE(e->ok());
  ASSERT_EQ(e->program.code.size(), 2u);  // kFactGeK, kEnd
  EXPECT_EQ(e->program.code[0].op, internal::OpCode::kFactGeK);
  e = CompileExpr(*t.schema, "15 < fit.headroom_pct");
  EXPECT_EQ(e->program.code[0].op, internal::OpCode::kFactGtK);
  e = CompileExpr(*t.schema, "fit.kind == \"native\"");
  EXPECT_EQ(e->program.code[0].op, internal::OpCode::kFactStrEqK);
  e = CompileExpr(*t.schema, "\"tools\" in model.capabilities");
  EXPECT_EQ(e->program.code[0].op, internal::OpCode::kFactListHasK);
}

TEST_F(CompilerTest, KnownTakesAFact) {
  EXPECT_TRUE(CompileExpr(*t.schema, "known(price.usd) and price.usd < 2000")->ok());
  ExpectError({"known(1)", 6, "type-mismatch", "`known` takes a fact name, like known(price.gpu_usd)",
               ""});
  ExpectError({"known(workload.id)", 6, "type-mismatch", "`workload.id` is always known", ""});
}

}  // namespace
}  // namespace fitrank::rules
