// Expression checker: the first half of compiling an expression (the emitter, emitter.h, is
// the second). Over a parsed tree it
//   1. resolves fact names to declarations (unknown -> did-you-mean) and functions to builtins;
//   2. types every node and folds constant subexpressions (`when: false and ...` is a constant,
//      which lint reports as unreachable), compiles regexes once with RE2 into the program's
//      regex table, and checks workload/mode literals against the vocabulary.
// It returns the annotated tree (one CheckedNode per Ast node) and reports ExprErrors at byte
// offsets into the text. Errors do not cascade: once a subexpression is wrong, nothing above
// it is reported. (cel-cpp keeps its checker apart from its evaluator the same way.)
#ifndef FITRANK_RULES_INTERNAL_CHECKER_H_
#define FITRANK_RULES_INTERNAL_CHECKER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/ast.h"
#include "rules/facts.h"
#include "rules/internal/program.h"
#include "rules/vocabulary.h"

namespace fitrank::rules::internal {

// A compile-time constant value.
struct Constant {
  Type type = Type::kNumber;
  double num = 0;
  bool b = false;
  std::string str;
};

// The builtin functions.
enum class Fn { kNone, kMin, kMax, kClamp, kAbs, kLog2, kRound, kLen, kHas, kKnown };

// What the checker knows about one node of the tree.
struct CheckedNode {
  bool ok = true;  // false: an error was reported at or below this node
  Type type = Type::kNumber;
  bool is_const = false;
  bool empty_list = false;  // `[]`: fits both list types
  Constant value;           // scalar constants
  std::vector<double> nums;       // constant number list
  std::vector<std::string> strs;  // constant string list
  const FactDecl* fact = nullptr;
  int32_t fact_index = -1;
  bool is_score = false;
  Fn fn = Fn::kNone;
  int32_t regex = -1;
  int round_digits = 0;
};

// "a number", "a string list": a type as error messages name it.
std::string Article(Type t);

class CheckedTree {
 public:
  // Checks the tree `ast` parsed from `text`. Regexes are added to `program` (the caller
  // drops them again if the expression is refused). `allow_score` makes the bare name `score`
  // mean the rule's contribution (sentence templates only).
  static CheckedTree Check(absl::string_view text, const Ast& ast, const FactSchema& schema,
                           const Vocabulary& vocab, Program* program, bool allow_score,
                           std::vector<ExprError>* errors);

  // The node `i` of the Ast, annotated; root() is the Ast's root.
  const CheckedNode& info(int32_t i) const { return nodes_[i]; }
  const CheckedNode& root() const { return nodes_[root_]; }
  // The facts read (indexes into FactSchema::facts(); a fact read twice is listed twice).
  const std::vector<int32_t>& reads() const { return reads_; }

 private:
  std::vector<CheckedNode> nodes_;
  int32_t root_ = 0;
  std::vector<int32_t> reads_;
};

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_CHECKER_H_
