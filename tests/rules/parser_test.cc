#include "rules/parser.h"

#include <string>

#include "gtest/gtest.h"
#include "rules/internal/lexer.h"

namespace fitrank::rules {
namespace {

using internal::Lexer;
using internal::Tok;

std::vector<Tok> Kinds(absl::string_view text) {
  Lexer lx(text);
  std::vector<Tok> out;
  while (true) {
    internal::Token t = lx.Next();
    out.push_back(t.kind);
    if (t.kind == Tok::kEnd || t.kind == Tok::kError) break;
  }
  return out;
}

TEST(Lexer, TokensAndPositions) {
  Lexer lx("fit.headroom_pct >= 15 and model.name =~ \"(?i)coder\"");
  internal::Token t = lx.Next();
  EXPECT_EQ(t.kind, Tok::kName);
  EXPECT_EQ(t.text, "fit.headroom_pct");
  EXPECT_EQ(t.begin, 0);
  EXPECT_EQ(t.end, 16);
  t = lx.Next();
  EXPECT_EQ(t.kind, Tok::kGe);
  EXPECT_EQ(t.begin, 17);
  t = lx.Next();
  EXPECT_EQ(t.kind, Tok::kNumber);
  EXPECT_EQ(t.number, 15);
  EXPECT_EQ(lx.Next().kind, Tok::kAnd);
  EXPECT_EQ(lx.Next().kind, Tok::kName);
  EXPECT_EQ(lx.Next().kind, Tok::kMatch);
  t = lx.Next();
  EXPECT_EQ(t.kind, Tok::kString);
  EXPECT_EQ(t.text, "(?i)coder");
  EXPECT_EQ(lx.Next().kind, Tok::kEnd);
}

TEST(Lexer, AllOperators) {
  EXPECT_EQ(Kinds("+ - * / == != < <= > >= =~ ( ) [ ] , not in or true false"),
            (std::vector<Tok>{Tok::kPlus, Tok::kMinus, Tok::kStar, Tok::kSlash, Tok::kEq,
                              Tok::kNe, Tok::kLt, Tok::kLe, Tok::kGt, Tok::kGe, Tok::kMatch,
                              Tok::kLParen, Tok::kRParen, Tok::kLBracket, Tok::kRBracket,
                              Tok::kComma, Tok::kNot, Tok::kIn, Tok::kOr, Tok::kTrue,
                              Tok::kFalse, Tok::kEnd}));
}

TEST(Lexer, Numbers) {
  for (auto [text, value] : std::vector<std::pair<std::string, double>>{
           {"0", 0}, {"15", 15}, {"2.5", 2.5}, {".5", 0.5}, {"1e3", 1000}, {"1.5E-2", 0.015}}) {
    Lexer lx(text);
    internal::Token t = lx.Next();
    EXPECT_EQ(t.kind, Tok::kNumber) << text;
    EXPECT_DOUBLE_EQ(t.number, value) << text;
  }
}

TEST(Lexer, StringEscapes) {
  Lexer lx(R"("a\"b\\c\n" 'it\'s' "\d+")");
  EXPECT_EQ(lx.Next().text, "a\"b\\c\n");
  EXPECT_EQ(lx.Next().text, "it's");
  EXPECT_EQ(lx.Next().text, "\\d+");  // unknown escapes stay, for regexes
}

TEST(Lexer, LiteralOffsetAccountsForEscapes) {
  std::string text = R"(x =~ "a\"b(")";
  // value a"b( : byte 3 is '(' at text offset 10.
  EXPECT_EQ(internal::LiteralOffset(text, 5, static_cast<int32_t>(text.size()), 3), 10);
}

struct LexErrorCase {
  std::string text;
  int offset;
  std::string code;
  std::string message;
};

TEST(Lexer, ErrorsHaveExactPositions) {
  std::vector<LexErrorCase> cases = {
      {"a.b = 3", 4, "syntax", "`=` is not an operator"},
      {"a.b && c.d", 4, "syntax", "`&` is not an operator"},
      {"x.y == \"abc", 7, "unterminated-string", "unterminated string: no closing `\"`"},
      {"1e999", 0, "bad-number", "number `1e999` is too large"},
      {"12abc", 0, "bad-number", "`12abc` is not a number"},
      {"a.b # c", 4, "syntax", "unexpected character `#`"},
      {"a.b == \xC3\xA9", 7, "syntax", "unexpected character `\xC3\xA9`"},
      {"a.b == \xFF", 7, "syntax", "unexpected character `\\xFF`"},
      {"15%", 2, "syntax", "`%` is not an operator"},
      {"fit.", 3, "syntax", "`fit.` is not a valid name"},
  };
  for (const LexErrorCase& c : cases) {
    ParseResult r = ParseExpression(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error->offset, c.offset) << c.text;
    EXPECT_EQ(r.error->code, c.code) << c.text;
    EXPECT_EQ(r.error->message, c.message) << c.text;
  }
}

std::string P(absl::string_view text) {
  ParseResult r = ParseExpression(text);
  if (!r.ok()) return "error: " + r.error->message;
  return DebugString(r.ast);
}

TEST(Parser, Precedence) {
  EXPECT_EQ(P("a.x + b.x * c.x"), "(a.x + (b.x * c.x))");
  EXPECT_EQ(P("a.x * b.x + c.x"), "((a.x * b.x) + c.x)");
  EXPECT_EQ(P("a.x + b.x > 3 and c.x or d.x"), "((((a.x + b.x) > 3) and c.x) or d.x)");
  EXPECT_EQ(P("a.x or b.x and c.x"), "(a.x or (b.x and c.x))");
  EXPECT_EQ(P("not a.x == 1 and b.x"), "((not (a.x == 1)) and b.x)");
  EXPECT_EQ(P("-a.x * 2"), "((-a.x) * 2)");
  EXPECT_EQ(P("- -3"), "(-(-3))");
  EXPECT_EQ(P("+30"), "(+30)");
  EXPECT_EQ(P("(a.x + b.x) * c.x"), "((a.x + b.x) * c.x)");
}

TEST(Parser, LeftAssociativity) {
  EXPECT_EQ(P("a.x - b.x - c.x"), "((a.x - b.x) - c.x)");
  EXPECT_EQ(P("a.x / b.x / c.x"), "((a.x / b.x) / c.x)");
  EXPECT_EQ(P("a.x and b.x and c.x"), "((a.x and b.x) and c.x)");
}

TEST(Parser, MembershipMatchCallsLists) {
  EXPECT_EQ(P("\"tools\" in model.capabilities"), "(\"tools\" in model.capabilities)");
  EXPECT_EQ(P("x.y not in [1, 2,]"), "(x.y not in [1, 2])");
  EXPECT_EQ(P("model.name =~ \"coder\""), "(model.name =~ \"coder\")");
  EXPECT_EQ(P("clamp(a.x, 0, max(1, b.x))"), "clamp(a.x, 0, max(1, b.x))");
  EXPECT_EQ(P("[]"), "[]");
  EXPECT_EQ(P("true and not false"), "(true and (not false))");
}

TEST(Parser, NodeSpans) {
  ParseResult r = ParseExpression("fit.kind == \"native\" and fit.headroom_pct >= 15");
  ASSERT_TRUE(r.ok());
  const Node& root = r.ast.at(r.ast.root);
  EXPECT_EQ(root.op, Op::kAnd);
  EXPECT_EQ(root.op_pos, 21);
  EXPECT_EQ(root.begin, 0);
  EXPECT_EQ(root.end, 47);
  const Node& rhs = r.ast.at(root.args[1]);
  EXPECT_EQ(rhs.op_pos, 42);
  EXPECT_EQ(r.ast.at(rhs.args[0]).begin, 25);
}

struct ParseErrorCase {
  std::string text;
  int offset;
  std::string message;
};

TEST(Parser, ErrorsHaveExactPositions) {
  std::vector<ParseErrorCase> cases = {
      {"", 0, "empty expression"},
      {"a.x +", 5, "expected a value, found the end of the expression"},
      {"(a.x + 1", 8, "expected `)`, found the end of the expression"},
      {"a.x b.y", 4, "expected an operator or the end of the expression, found `b.y`"},
      {"a.x < b.x < c.x", 10, "comparisons cannot be chained"},
      {"min(1 2)", 6, "expected `,` or `)`, found `2`"},
      {"[1, 2", 5, "expected `,` or `]`, found the end of the expression"},
      {"a.x not b.y", 8, "expected `in` after `not`, found `b.y`"},
      {"* 3", 0, "expected a value, found `*`"},
      {"a.x == )", 7, "expected a value, found `)`"},
  };
  for (const ParseErrorCase& c : cases) {
    ParseResult r = ParseExpression(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error->offset, c.offset) << c.text;
    EXPECT_EQ(r.error->message, c.message) << c.text;
    EXPECT_EQ(r.ast.root, -1);
  }
}

TEST(Parser, DepthLimitIsAnErrorNotACrash) {
  std::string deep(10000, '(');
  deep += "1";
  deep += std::string(10000, ')');
  ParseLimits limits;
  limits.max_bytes = 1 << 20;
  ParseResult r = ParseExpression(deep, limits);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, "too-deep");
  EXPECT_EQ(r.error->offset, 64);  // the 65th level opens at offset 64
  EXPECT_EQ(r.error->message, "expression nests more than 64 levels deep");

  std::string minus(5000, '-');
  EXPECT_EQ(ParseExpression(minus + "1", limits).error->code, "too-deep");
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_EQ(ParseExpression(nots + "true", limits).error->code, "too-deep");
  std::string brackets(5000, '[');
  EXPECT_EQ(ParseExpression(brackets, limits).error->code, "too-deep");
  std::string calls;
  for (int i = 0; i < 5000; ++i) calls += "abs(";
  EXPECT_EQ(ParseExpression(calls, limits).error->code, "too-deep");
}

TEST(Parser, SixtyFourLevelsAreFine) {
  std::string ok = std::string(63, '(') + "1" + std::string(63, ')');
  EXPECT_TRUE(ParseExpression(ok).ok());
}

TEST(Parser, SizeLimits) {
  std::string longer(5000, ' ');
  longer += "1";
  ParseResult r = ParseExpression(longer);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, "too-long");
  EXPECT_EQ(r.error->message, "expression is 5001 bytes long; the limit is 4096");

  std::string many = "1";
  for (int i = 0; i < 1500; ++i) many += "+1";
  ParseLimits limits;
  limits.max_bytes = 1 << 20;
  r = ParseExpression(many, limits);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, "too-big");
}

}  // namespace
}  // namespace fitrank::rules
