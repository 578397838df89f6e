#include "rules/internal/expr_compiler.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "rules/internal/checker.h"
#include "rules/internal/emitter.h"

namespace fitrank::rules::internal {

CompiledExpr ExprCompiler::Compile(absl::string_view text, const Ast& ast,
                                   std::optional<Type> expected, absl::string_view role,
                                   bool allow_score, std::vector<ExprError>* errors) {
  CompiledExpr out;
  if (ast.root < 0) return out;
  const size_t errors_before = errors->size();
  const size_t regexes_before = program_->regexes.size();
  const CheckedTree checked =
      CheckedTree::Check(text, ast, schema_, vocab_, program_, allow_score, errors);
  const CheckedNode& root = checked.root();
  bool has_error = false;
  for (size_t k = errors_before; k < errors->size(); ++k) has_error |= !(*errors)[k].warning;
  if (!root.ok || has_error) {
    program_->regexes.resize(regexes_before);
    return out;
  }
  if (expected && root.type != *expected) {
    std::string hint;
    if (*expected == Type::kBool && root.type == Type::kNumber) {
      hint = "compare it, e.g. `x > 0`";
    } else if (*expected == Type::kNumber && root.type == Type::kBool) {
      hint = "a condition goes in `when`; `score` is a number such as 10 or -4 * fit.offload_pct";
    }
    errors->push_back({ast.at(ast.root).begin, "type-mismatch",
                       absl::StrCat(role, " must be ", Article(*expected), ", but this is ",
                                    Article(root.type)),
                       hint, false});
    program_->regexes.resize(regexes_before);
    return out;
  }
  out.ok = true;
  out.type = root.type;
  out.reads = checked.reads();
  if (root.fact != nullptr && ast.at(ast.root).kind == NodeKind::kFact) {
    out.fact_index = root.fact_index;
  }
  if (root.is_const && root.type != Type::kStringList && root.type != Type::kNumberList) {
    out.constant = root.value;
    return out;
  }
  if (root.is_const) {
    // A constant list as a whole expression (only templates can ask for one): emit nothing
    // and report its items as a joined constant string.
    Constant c;
    c.type = Type::kString;
    for (size_t k = 0; k < root.strs.size(); ++k) absl::StrAppend(&c.str, k ? ", " : "", root.strs[k]);
    for (size_t k = 0; k < root.nums.size(); ++k) absl::StrAppend(&c.str, k ? ", " : "", root.nums[k]);
    out.constant = c;
    return out;
  }
  const size_t code_before = program_->code.size();
  out.entry = static_cast<int32_t>(code_before);
  const int max_depth = EmitExpr(ast, checked, ast.root, program_);
  Instr end;
  end.op = OpCode::kEnd;
  program_->code.push_back(end);
  if (max_depth > Program::kMaxStack) {
    program_->code.resize(code_before);
    errors->push_back({0, "too-big", "expression needs too much evaluation stack",
                       "split the rule", false});
    out = CompiledExpr();
  }
  return out;
}

}  // namespace fitrank::rules::internal
