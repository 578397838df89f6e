// Expression compiler: Ast -> code in a shared Program. Two stages, each its own unit:
//   1. check (checker.h): resolve names, type every node, fold constants, compile regexes;
//      errors are ExprErrors at byte offsets into the text;
//   2. emit (emitter.h): stack code for the checked tree.
// This file joins them: the expected type of the whole expression, constant results, and the
// evaluation stack limit.
#ifndef FITRANK_RULES_INTERNAL_EXPR_COMPILER_H_
#define FITRANK_RULES_INTERNAL_EXPR_COMPILER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/ast.h"
#include "rules/facts.h"
#include "rules/internal/checker.h"
#include "rules/internal/program.h"
#include "rules/vocabulary.h"

namespace fitrank::rules::internal {

struct CompiledExpr {
  bool ok = false;
  Type type = Type::kNumber;
  // If the whole expression is a constant, `entry` is -1 and `constant` holds its value.
  int32_t entry = -1;
  std::optional<Constant> constant;
  // For a bare fact reference (`{fit.kind}` in a template): its index in the schema, else -1.
  int32_t fact_index = -1;
  // The facts it reads (indexes into FactSchema::facts()): whether they are all context
  // facts, or context and early ones, is FactDecl::context / early of each.
  std::vector<int32_t> reads;
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
