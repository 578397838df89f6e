// Expression compiler: Ast -> code in a shared Program.
//
// Three steps per expression, all reporting ExprErrors at byte offsets into the text:
//   1. resolve: fact names to declarations (unknown -> did-you-mean), functions to builtins;
//   2. check and fold: types of every node, constant subexpressions evaluated now
//      (`when: false and ...` is a constant, which lint reports as unreachable), regexes
//      compiled once with RE2, workload/mode literals checked against the vocabulary;
//   3. emit: stack code with fused instructions for the common shapes
//      (`fact >= 15`, `fact == "native"`, `"tools" in fact`).
// Errors do not cascade: once a subexpression is wrong, nothing above it is reported.
#ifndef FITRANK_RULES_INTERNAL_EXPR_COMPILER_H_
#define FITRANK_RULES_INTERNAL_EXPR_COMPILER_H_

#include <optional>
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

struct CompiledExpr {
  bool ok = false;
  Type type = Type::kNumber;
  // If the whole expression is a constant, `entry` is -1 and `constant` holds its value.
  int32_t entry = -1;
  std::optional<Constant> constant;
  // For a bare fact reference (`{fit.kind}` in a template): its index in the schema, else -1.
  int32_t fact_index = -1;
  // It reads a fact that is not a context fact (FactDecl::context).
  bool reads_candidate_facts = false;
};

class ExprCompiler {
 public:
  ExprCompiler(const FactSchema& schema, const Vocabulary& vocab, Program* program)
      : schema_(schema), vocab_(vocab), program_(program) {}

  // Compiles `ast`, parsed from `text`. `expected` (if set) is the type the expression must
  // have; `role` names it in that message ("`when`", "`score`"). `allow_score` makes the bare
  // name `score` mean the rule's contribution (sentence templates only).
  CompiledExpr Compile(absl::string_view text, const Ast& ast, std::optional<Type> expected,
                       absl::string_view role, bool allow_score, std::vector<ExprError>* errors);

 private:
  const FactSchema& schema_;
  const Vocabulary& vocab_;
  Program* program_;
};

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_EXPR_COMPILER_H_
