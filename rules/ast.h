// The syntax tree of one rule expression, and the error type of the expression front end.
//
// Nodes live in one flat vector (Ast::nodes) and refer to their operands by index, so a tree
// is a single allocation-friendly block. Every node remembers where it came from as byte
// offsets into the expression text; the rule reader maps offsets to file:line:col.
#ifndef FITRANK_RULES_AST_H_
#define FITRANK_RULES_AST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::rules {

// A problem found in an expression (or sentence template) text. `offset` is a byte offset
// into that text: the caret goes there. Codes are stable and kebab-case:
//   syntax, too-long, too-deep, too-big, bad-number, unterminated-string,
//   unknown-fact, unknown-function, wrong-arity, type-mismatch, bad-regex, not-constant,
//   unknown-workload, unknown-mode, bad-format
struct ExprError {
  int offset = 0;
  std::string code;
  std::string message;  // one sentence, no trailing period
  std::string hint;     // optional
  bool warning = false;
};

enum class NodeKind : uint8_t {
  kNumber,  // number
  kString,  // text (the unescaped value)
  kBool,    // boolean
  kList,    // args: the elements
  kFact,    // text: the dotted name as written
  kUnary,   // op: kNeg, kPlus or kNot; args: [operand]
  kBinary,  // op: arithmetic, comparison, logic, kIn, kNotIn, kMatch; args: [lhs, rhs]
  kCall,    // text: the function name; args: the arguments
};

enum class Op : uint8_t {
  kNone,
  kNeg,
  kPlus,
  kNot,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kAnd,
  kOr,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kIn,
  kNotIn,
  kMatch,
};

// The operator as written: "+", "==", "not in", "=~", "and".
absl::string_view OpSpelling(Op op);

struct Node {
  NodeKind kind = NodeKind::kNumber;
  Op op = Op::kNone;
  int32_t begin = 0;   // offset of the node's first byte
  int32_t end = 0;     // offset one past its last byte
  int32_t op_pos = 0;  // offset of the operator (unary/binary) or of the name (call, fact)
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<int32_t> args;
};

struct Ast {
  std::vector<Node> nodes;
  int32_t root = -1;  // -1 if parsing failed

  const Node& at(int32_t i) const { return nodes[i]; }
};

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_AST_H_
