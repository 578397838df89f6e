// Expression emitter: the second half of compiling an expression (the checker, checker.h, is
// the first). From a checked tree it appends stack code to a Program, with fused instructions
// for the common shapes (`fact >= 15`, `fact == "native"`, `"tools" in fact`). It reports no
// errors: everything it could refuse was refused by the checker; only the stack depth it needs
// is returned for the caller to check against Program::kMaxStack.
#ifndef FITRANK_RULES_INTERNAL_EMITTER_H_
#define FITRANK_RULES_INTERNAL_EMITTER_H_

#include <cstdint>

#include "rules/ast.h"
#include "rules/internal/checker.h"
#include "rules/internal/program.h"

namespace fitrank::rules::internal {

// Appends the code of node `root` of `checked` (which must have checked without errors and
// not be a constant) to `program`, without the final kEnd. Returns the largest evaluation
// stack depth the code reaches.
int EmitExpr(const Ast& ast, const CheckedTree& checked, int32_t root, Program* program);

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_EMITTER_H_
