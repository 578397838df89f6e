// Sentence templates and number formatting.
#include "rules/internal/template.h"

#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

using internal::FormatNumber;
using internal::FormatSpec;
using testing::TestFacts;

FormatSpec Spec(absl::string_view s) {
  FormatSpec f;
  EXPECT_TRUE(internal::ParseFormatSpec(s, &f)) << s;
  return f;
}

TEST(FormatNumber, Specs) {
  EXPECT_EQ(FormatNumber(12, Spec("")), "12");
  EXPECT_EQ(FormatNumber(12.5, Spec("")), "12.5");
  EXPECT_EQ(FormatNumber(0.256, Spec("")), "0.26");
  EXPECT_EQ(FormatNumber(-0.001, Spec("")), "0");
  EXPECT_EQ(FormatNumber(42.46, Spec(".0f")), "42");
  EXPECT_EQ(FormatNumber(42.46, Spec(".1f")), "42.5");
  EXPECT_EQ(FormatNumber(42.46, Spec(".1")), "42.5");
  EXPECT_EQ(FormatNumber(42.5, Spec("d")), "42");  // round half to even, like printf
  EXPECT_EQ(FormatNumber(0.153, Spec("%")), "15%");
  EXPECT_EQ(FormatNumber(0.153, Spec(".1%")), "15.3%");
  EXPECT_EQ(FormatNumber(12, Spec("+.0f")), "+12");
  EXPECT_EQ(FormatNumber(-12, Spec("+.0f")), "-12");
  EXPECT_EQ(FormatNumber(-0.2, Spec("+.0f")), "+0");
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::quiet_NaN(), Spec("")), "?");
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::infinity(), Spec(".1f")), "?");
  FormatSpec f;
  EXPECT_FALSE(internal::ParseFormatSpec(".9f", &f));
  EXPECT_FALSE(internal::ParseFormatSpec("x", &f));
  EXPECT_FALSE(internal::ParseFormatSpec(".2d", &f));
}

class TemplateTest : public ::testing::Test {
 protected:
  TemplateTest() : f(*t.schema), compiler(*t.schema, vocab, &program) {
    f.Set(t.offload, 37.26);
    f.Set(t.decode, 41.6);
    f.Set(t.kind, "offload");
    f.Set(t.name, "Llama 3.1 70B");
    f.Set(t.caps, absl::Span<const absl::string_view>(caps));
    f.Set(t.thinking, true);
  }

  std::string Render(absl::string_view text, double score = 0) {
    internal::CompiledTemplate tpl;
    std::vector<ExprError> errors;
    EXPECT_TRUE(internal::CompileTemplate(text, &compiler, ParseLimits(), &tpl, &errors))
        << text << ": " << (errors.empty() ? "" : errors[0].message);
    internal::RunContext ctx;
    ctx.facts = &f;
    ctx.score = score;
    ctx.workload = "coding";
    return internal::RenderTemplate(tpl, program, &ctx);
  }

  std::vector<ExprError> Errors(absl::string_view text) {
    internal::CompiledTemplate tpl;
    std::vector<ExprError> errors;
    EXPECT_FALSE(internal::CompileTemplate(text, &compiler, ParseLimits(), &tpl, &errors)) << text;
    return errors;
  }

  TestFacts t;
  Vocabulary vocab = testing::TestVocabulary();
  FactValues f;
  internal::Program program;
  internal::ExprCompiler compiler;
  std::vector<absl::string_view> caps = {"tools", "vision"};
};

TEST_F(TemplateTest, Renders) {
  EXPECT_EQ(Render("About {fit.offload_pct:.0f}% of the working set spills to host memory."),
            "About 37% of the working set spills to host memory.");
  EXPECT_EQ(Render("{perf.decode_tok_s:.1f} tok/s, {fit.offload_pct} %"), "41.6 tok/s, 37.26 %");
  EXPECT_EQ(Render("{model.name} ({fit.kind}): {model.capabilities}"),
            "Llama 3.1 70B (offload): tools, vision");
  EXPECT_EQ(Render("thinking: {model.thinking}, {score:+.0f} points", -12),
            "thinking: yes, -12 points");
  EXPECT_EQ(Render("{fit.offload_pct / 100:%} offloaded"), "37% offloaded");
  EXPECT_EQ(Render("{min(perf.decode_tok_s, 30):d} tok/s for {workload.id}"),
            "30 tok/s for coding");
  EXPECT_EQ(Render("braces {{like this}}"), "braces {like this}");
  EXPECT_EQ(Render("no placeholders"), "no placeholders");
  EXPECT_EQ(Render("{ \"a:b\" }"), "a:b");  // a ':' inside a string is not a spec
  EXPECT_EQ(Render(""), "");
}

TEST_F(TemplateTest, UnsetFactPrintsNA) {
  EXPECT_EQ(Render("price {price.usd:.0f} USD"), "price n/a USD");
  EXPECT_EQ(Render("price {price.usd + 1:.0f} USD"), "price 1 USD");
}

TEST_F(TemplateTest, DivisionByZeroNeverPrintsNaN) {
  f.Set(t.headroom, 0);
  EXPECT_EQ(Render("{perf.decode_tok_s / fit.headroom_pct:.1f}x"), "0.0x");
}

TEST_F(TemplateTest, ErrorsPointIntoTheTemplate) {
  auto e = Errors("About {fit.offload_pc:.0f}%");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].offset, 7);
  EXPECT_EQ(e[0].code, "unknown-fact");
  EXPECT_EQ(e[0].hint, "did you mean `fit.offload_pct`?");

  e = Errors("{fit.offload_pct:.9f}");
  EXPECT_EQ(e[0].offset, 17);
  EXPECT_EQ(e[0].message, "bad number format `.9f`");

  e = Errors("{fit.kind:.1f}");
  EXPECT_EQ(e[0].message, "a number format on string value");

  e = Errors("open {fit.kind");
  EXPECT_EQ(e[0].offset, 5);
  EXPECT_EQ(e[0].message, "unclosed `{` in the sentence");

  e = Errors("stray } here");
  EXPECT_EQ(e[0].offset, 6);

  e = Errors("{}");
  EXPECT_EQ(e[0].message, "empty placeholder `{}`");

  e = Errors("x {fit.kind ==} y");
  EXPECT_EQ(e[0].offset, 14);
  EXPECT_EQ(e[0].code, "syntax");
}

}  // namespace
}  // namespace fitrank::rules
