// Sentence templates: the `say` text of a rule.
//
//   "About {fit.offload_pct:.0f}% of the working set spills to host memory."
//   "Decodes at {perf.decode_tok_s:.0f} tok/s ({score:+.0f} points)."
//
// A placeholder is `{expression}` or `{expression:spec}`; the expression is any rule
// expression (usually a fact name); `score` means the rule's contribution. `{{` and `}}` are
// literal braces. Specs, for numbers only:
//   (none)  up to 2 decimals, trailing zeros dropped: 12, 12.5, 0.25
//   .Nf     N decimals (0..6): {x:.1f} -> 12.3
//   d       rounded to a whole number
//   %  .N%  a ratio as a percentage: 0.153 -> {x:%} 15%, {x:.1%} 15.3%
//   a leading `+` always prints the sign: {score:+.0f} -> +12
// Strings print as is, string lists joined with ", ", booleans as yes/no. A placeholder that
// is a bare fact the engine did not set prints "n/a". No template ever prints NaN or inf.
#ifndef FITRANK_RULES_INTERNAL_TEMPLATE_H_
#define FITRANK_RULES_INTERNAL_TEMPLATE_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/ast.h"
#include "rules/internal/expr_compiler.h"
#include "rules/internal/program.h"
#include "rules/parser.h"

namespace fitrank::rules::internal {

struct FormatSpec {
  enum Kind { kDefault, kFixed, kInteger, kPercent };
  Kind kind = kDefault;
  int digits = 0;
  bool plus = false;
};

// Parses a spec (the text after ':'); false if malformed.
bool ParseFormatSpec(absl::string_view spec, FormatSpec* out);

// `v` formatted by `spec`; non-finite values print as "?" (they cannot occur in evaluation).
std::string FormatNumber(double v, const FormatSpec& spec);

struct TemplatePiece {
  std::string literal;  // printed before the placeholder (or alone, for the last piece)
  bool has_expr = false;
  CompiledExpr expr;
  FormatSpec spec;
};

struct CompiledTemplate {
  std::vector<TemplatePiece> pieces;
  bool empty() const { return pieces.empty(); }
};

// Compiles `text`. Errors carry offsets into `text`. Returns false on errors.
bool CompileTemplate(absl::string_view text, ExprCompiler* compiler, const ParseLimits& limits,
                     CompiledTemplate* out, std::vector<ExprError>* errors);

// Renders with the facts and score in `ctx`.
std::string RenderTemplate(const CompiledTemplate& t, const Program& program, RunContext* ctx);

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_TEMPLATE_H_
