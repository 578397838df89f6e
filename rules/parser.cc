#include "rules/parser.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "rules/internal/lexer.h"

namespace fitrank::rules {

absl::string_view OpSpelling(Op op) {
  switch (op) {
    case Op::kNone:
      return "";
    case Op::kNeg:
    case Op::kSub:
      return "-";
    case Op::kPlus:
    case Op::kAdd:
      return "+";
    case Op::kNot:
      return "not";
    case Op::kMul:
      return "*";
    case Op::kDiv:
      return "/";
    case Op::kAnd:
      return "and";
    case Op::kOr:
      return "or";
    case Op::kEq:
      return "==";
    case Op::kNe:
      return "!=";
    case Op::kLt:
      return "<";
    case Op::kLe:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGe:
      return ">=";
    case Op::kIn:
      return "in";
    case Op::kNotIn:
      return "not in";
    case Op::kMatch:
      return "=~";
  }
  return "?";
}

namespace {

using internal::Lexer;
using internal::Tok;
using internal::Token;

bool IsComparison(Tok t) {
  return t == Tok::kEq || t == Tok::kNe || t == Tok::kLt || t == Tok::kLe || t == Tok::kGt ||
         t == Tok::kGe || t == Tok::kIn || t == Tok::kMatch;
}

Op ComparisonOp(Tok t) {
  switch (t) {
    case Tok::kEq:
      return Op::kEq;
    case Tok::kNe:
      return Op::kNe;
    case Tok::kLt:
      return Op::kLt;
    case Tok::kLe:
      return Op::kLe;
    case Tok::kGt:
      return Op::kGt;
    case Tok::kGe:
      return Op::kGe;
    case Tok::kIn:
      return Op::kIn;
    case Tok::kMatch:
      return Op::kMatch;
    default:
      return Op::kNone;
  }
}

class Parser {
 public:
  Parser(absl::string_view text, const ParseLimits& limits)
      : text_(text), limits_(limits), lexer_(text) {}

  ParseResult Run() {
    ParseResult r;
    if (static_cast<int>(text_.size()) > limits_.max_bytes) {
      r.error = ExprError{limits_.max_bytes, "too-long",
                          absl::StrCat("expression is ", text_.size(), " bytes long; the limit is ",
                                       limits_.max_bytes),
                          "split the rule, or move the logic into an engine fact"};
      return r;
    }
    Advance();
    if (tok_.kind == Tok::kEnd) {
      Fail(0, "syntax", "empty expression", "write a condition such as `fit.headroom_pct >= 15`");
    } else {
      int32_t root = ParseExpr();
      if (!error_ && tok_.kind != Tok::kEnd) Unexpected("an operator or the end of the expression");
      if (!error_) ast_.root = root;
    }
    r.error = std::move(error_);
    if (r.error) ast_.root = -1;
    r.ast = std::move(ast_);
    return r;
  }

 private:
  void Advance() {
    tok_ = lexer_.Next();
    if (tok_.kind == Tok::kError && !error_) error_ = lexer_.error();
  }

  void Fail(int32_t offset, std::string code, std::string message, std::string hint = "") {
    if (!error_) error_ = ExprError{offset, std::move(code), std::move(message), std::move(hint)};
  }

  void Unexpected(absl::string_view expected) {
    if (error_) return;
    std::string got = internal::TokDescription(tok_.kind);
    if (tok_.kind == Tok::kName) got = absl::StrCat("`", tok_.text, "`");
    if (tok_.kind == Tok::kNumber || tok_.kind == Tok::kString) {
      got = absl::StrCat("`", internal::Printable(text_.substr(tok_.begin, tok_.end - tok_.begin)),
                         "`");
    }
    std::string hint;
    if (tok_.kind == Tok::kName || tok_.kind == Tok::kNumber || tok_.kind == Tok::kString) {
      hint = "two values in a row: is an operator such as `and` or `==` missing?";
    }
    Fail(tok_.begin, "syntax", absl::StrCat("expected ", expected, ", found ", got), hint);
  }

  int32_t NewNode(NodeKind kind, int32_t begin, int32_t end) {
    if (static_cast<int>(ast_.nodes.size()) >= limits_.max_nodes) {
      Fail(begin, "too-big",
           absl::StrCat("expression has more than ", limits_.max_nodes, " parts"),
           "split the rule, or move the logic into an engine fact");
      return -1;
    }
    Node n;
    n.kind = kind;
    n.begin = begin;
    n.end = end;
    n.op_pos = begin;
    ast_.nodes.push_back(std::move(n));
    return static_cast<int32_t>(ast_.nodes.size() - 1);
  }

  int32_t Binary(Op op, int32_t op_pos, int32_t lhs, int32_t rhs) {
    if (error_) return -1;
    int32_t i = NewNode(NodeKind::kBinary, ast_.nodes[lhs].begin, ast_.nodes[rhs].end);
    if (i < 0) return -1;
    ast_.nodes[i].op = op;
    ast_.nodes[i].op_pos = op_pos;
    ast_.nodes[i].args = {lhs, rhs};
    return i;
  }

  int32_t Unary(Op op, int32_t op_pos, int32_t operand) {
    if (error_) return -1;
    int32_t i = NewNode(NodeKind::kUnary, op_pos, ast_.nodes[operand].end);
    if (i < 0) return -1;
    ast_.nodes[i].op = op;
    ast_.nodes[i].args = {operand};
    return i;
  }

  // Every recursive entry goes through Enter(); nesting beyond the limit is an error.
  bool Enter() {
    if (++depth_ > limits_.max_depth) {
      Fail(tok_.begin, "too-deep",
           absl::StrCat("expression nests more than ", limits_.max_depth, " levels deep"),
           "simplify the expression");
      return false;
    }
    return true;
  }
  void Leave() { --depth_; }

  int32_t ParseExpr() {
    if (!Enter()) return -1;
    int32_t r = ParseOr();
    Leave();
    return r;
  }

  int32_t ParseOr() {
    int32_t lhs = ParseAnd();
    while (!error_ && tok_.kind == Tok::kOr) {
      int32_t pos = tok_.begin;
      Advance();
      int32_t rhs = ParseAnd();
      lhs = Binary(Op::kOr, pos, lhs, rhs);
    }
    return error_ ? -1 : lhs;
  }

  int32_t ParseAnd() {
    int32_t lhs = ParseNot();
    while (!error_ && tok_.kind == Tok::kAnd) {
      int32_t pos = tok_.begin;
      Advance();
      int32_t rhs = ParseNot();
      lhs = Binary(Op::kAnd, pos, lhs, rhs);
    }
    return error_ ? -1 : lhs;
  }

  int32_t ParseNot() {
    if (tok_.kind != Tok::kNot) return ParseComparison();
    int32_t pos = tok_.begin;
    if (!Enter()) return -1;
    Advance();
    int32_t operand = ParseNot();
    Leave();
    return Unary(Op::kNot, pos, operand);
  }

  int32_t ParseComparison() {
    int32_t lhs = ParseSum();
    if (error_) return -1;
    Op op = Op::kNone;
    int32_t pos = tok_.begin;
    if (IsComparison(tok_.kind)) {
      op = ComparisonOp(tok_.kind);
      Advance();
    } else if (tok_.kind == Tok::kNot) {
      Advance();
      if (tok_.kind != Tok::kIn) {
        Unexpected("`in` after `not`");
        return -1;
      }
      op = Op::kNotIn;
      Advance();
    } else {
      return lhs;
    }
    int32_t rhs = ParseSum();
    int32_t r = Binary(op, pos, lhs, rhs);
    if (!error_ && (IsComparison(tok_.kind) || tok_.kind == Tok::kNot)) {
      Fail(tok_.begin, "syntax", "comparisons cannot be chained",
           "write `a < b and b < c`, or add parentheses");
      return -1;
    }
    return r;
  }

  int32_t ParseSum() {
    int32_t lhs = ParseProduct();
    while (!error_ && (tok_.kind == Tok::kPlus || tok_.kind == Tok::kMinus)) {
      Op op = tok_.kind == Tok::kPlus ? Op::kAdd : Op::kSub;
      int32_t pos = tok_.begin;
      Advance();
      int32_t rhs = ParseProduct();
      lhs = Binary(op, pos, lhs, rhs);
    }
    return error_ ? -1 : lhs;
  }

  int32_t ParseProduct() {
    int32_t lhs = ParseUnary();
    while (!error_ && (tok_.kind == Tok::kStar || tok_.kind == Tok::kSlash)) {
      Op op = tok_.kind == Tok::kStar ? Op::kMul : Op::kDiv;
      int32_t pos = tok_.begin;
      Advance();
      int32_t rhs = ParseUnary();
      lhs = Binary(op, pos, lhs, rhs);
    }
    return error_ ? -1 : lhs;
  }

  int32_t ParseUnary() {
    if (tok_.kind != Tok::kMinus && tok_.kind != Tok::kPlus) return ParsePrimary();
    Op op = tok_.kind == Tok::kMinus ? Op::kNeg : Op::kPlus;
    int32_t pos = tok_.begin;
    if (!Enter()) return -1;
    Advance();
    int32_t operand = ParseUnary();
    Leave();
    return Unary(op, pos, operand);
  }

  // Parses `expression { "," expression }` up to `close`; fills `args`. The opening token has
  // been consumed.
  bool ParseArgs(Tok close, bool trailing_comma_ok, std::vector<int32_t>* args) {
    if (tok_.kind == close) return true;
    while (true) {
      int32_t e = ParseExpr();
      if (error_) return false;
      args->push_back(e);
      if (tok_.kind == Tok::kComma) {
        Advance();
        if (trailing_comma_ok && tok_.kind == close) return true;
        continue;
      }
      if (tok_.kind == close) return true;
      Unexpected(absl::StrCat("`,` or ", internal::TokDescription(close)));
      return false;
    }
  }

  int32_t ParsePrimary() {
    if (error_) return -1;
    const Token t = tok_;
    switch (t.kind) {
      case Tok::kNumber: {
        Advance();
        int32_t i = NewNode(NodeKind::kNumber, t.begin, t.end);
        if (i >= 0) ast_.nodes[i].number = t.number;
        return error_ ? -1 : i;
      }
      case Tok::kString: {
        Advance();
        int32_t i = NewNode(NodeKind::kString, t.begin, t.end);
        if (i >= 0) ast_.nodes[i].text = t.text;
        return error_ ? -1 : i;
      }
      case Tok::kTrue:
      case Tok::kFalse: {
        Advance();
        int32_t i = NewNode(NodeKind::kBool, t.begin, t.end);
        if (i >= 0) ast_.nodes[i].boolean = t.kind == Tok::kTrue;
        return error_ ? -1 : i;
      }
      case Tok::kLParen: {
        Advance();
        int32_t inner = ParseExpr();
        if (error_) return -1;
        if (tok_.kind != Tok::kRParen) {
          Unexpected("`)`");
          if (error_ && tok_.kind == Tok::kEnd) {
            error_->hint = "a `(` is never closed: add the missing `)`";
          }
          return -1;
        }
        // Parentheses only group: the node keeps its own span, widened to the parentheses.
        ast_.nodes[inner].begin = t.begin;
        ast_.nodes[inner].end = tok_.end;
        Advance();
        return inner;
      }
      case Tok::kLBracket: {
        if (!Enter()) return -1;
        Advance();
        std::vector<int32_t> elems;
        bool ok = ParseArgs(Tok::kRBracket, true, &elems);
        Leave();
        if (!ok) return -1;
        int32_t end = tok_.end;
        Advance();
        int32_t i = NewNode(NodeKind::kList, t.begin, end);
        if (i >= 0) ast_.nodes[i].args = std::move(elems);
        return error_ ? -1 : i;
      }
      case Tok::kName: {
        Advance();
        if (tok_.kind == Tok::kLParen) {
          if (!Enter()) return -1;
          Advance();
          std::vector<int32_t> args;
          bool ok = ParseArgs(Tok::kRParen, false, &args);
          Leave();
          if (!ok) return -1;
          int32_t end = tok_.end;
          Advance();
          int32_t i = NewNode(NodeKind::kCall, t.begin, end);
          if (i >= 0) {
            ast_.nodes[i].text = t.text;
            ast_.nodes[i].args = std::move(args);
          }
          return error_ ? -1 : i;
        }
        int32_t i = NewNode(NodeKind::kFact, t.begin, t.end);
        if (i >= 0) ast_.nodes[i].text = t.text;
        return error_ ? -1 : i;
      }
      case Tok::kError:
        return -1;
      default:
        Unexpected("a value");
        if (error_ && error_->hint.empty()) {
          if (t.kind == Tok::kEnd) {
            error_->hint = "the expression ends too early";
          } else if (t.kind == Tok::kIn) {
            error_->hint = "`in` needs a value on its left: `\"tools\" in model.capabilities`";
          }
        }
        return -1;
    }
  }

  absl::string_view text_;
  ParseLimits limits_;
  Lexer lexer_;
  Token tok_;
  Ast ast_;
  int depth_ = 0;
  std::optional<ExprError> error_;
};

void Debug(const Ast& ast, int32_t i, std::string* out) {
  const Node& n = ast.at(i);
  switch (n.kind) {
    case NodeKind::kNumber:
      absl::StrAppend(out, n.number);
      return;
    case NodeKind::kString:
      absl::StrAppend(out, "\"", n.text, "\"");
      return;
    case NodeKind::kBool:
      absl::StrAppend(out, n.boolean ? "true" : "false");
      return;
    case NodeKind::kFact:
      absl::StrAppend(out, n.text);
      return;
    case NodeKind::kList:
    case NodeKind::kCall:
      absl::StrAppend(out, n.kind == NodeKind::kCall ? n.text + "(" : "[");
      for (size_t k = 0; k < n.args.size(); ++k) {
        if (k > 0) out->append(", ");
        Debug(ast, n.args[k], out);
      }
      out->append(n.kind == NodeKind::kCall ? ")" : "]");
      return;
    case NodeKind::kUnary:
      absl::StrAppend(out, "(", OpSpelling(n.op), n.op == Op::kNot ? " " : "");
      Debug(ast, n.args[0], out);
      out->append(")");
      return;
    case NodeKind::kBinary:
      out->append("(");
      Debug(ast, n.args[0], out);
      absl::StrAppend(out, " ", OpSpelling(n.op), " ");
      Debug(ast, n.args[1], out);
      out->append(")");
      return;
  }
}

}  // namespace

ParseResult ParseExpression(absl::string_view text, const ParseLimits& limits) {
  return Parser(text, limits).Run();
}

std::string DebugString(const Ast& ast) {
  std::string out;
  if (ast.root >= 0) Debug(ast, ast.root, &out);
  return out;
}

}  // namespace fitrank::rules
