// Parser of the rule expression language: text -> Ast (rules/ast.h).
//
// Grammar (EBNF; `{ x }` repeats zero or more times, `[ x ]` is optional):
//
//   expression  = or_expr ;
//   or_expr     = and_expr { "or" and_expr } ;
//   and_expr    = not_expr { "and" not_expr } ;
//   not_expr    = "not" not_expr | comparison ;
//   comparison  = sum [ comp_op sum ] ;                  (* no chaining: a < b < c is an error *)
//   comp_op     = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" | "=~" ;
//   sum         = product { ( "+" | "-" ) product } ;     (* left-associative *)
//   product     = unary { ( "*" | "/" ) unary } ;         (* left-associative *)
//   unary       = ( "-" | "+" ) unary | primary ;
//   primary     = number | string | "true" | "false" | list | call | fact
//               | "(" expression ")" ;
//   list        = "[" [ expression { "," expression } [ "," ] ] "]" ;
//   call        = word "(" [ expression { "," expression } ] ")" ;
//   fact        = word { "." word } ;                     (* e.g. fit.headroom_pct *)
//   word        = letter { letter | digit | "_" } ;       (* letter: a-z A-Z _ *)
//   number      = digits [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ]
//               | "." digits [ ... ] ;                    (* at most 1e15 *)
//   string      = '"' { char | escape } '"' | "'" { char | escape } "'" ;
//   escape      = "\\" | '\"' | "\'" | "\n" | "\t" ;     (* any other \x stays as written,
//                                                            so regexes like "\d+" work *)
//
// Keywords: and, or, not, in, true, false. Whitespace (spaces, tabs, newlines) separates tokens.
// Precedence, loosest first: or, and, not, comparisons, + -, * /, unary - +.
//
// The parser only checks syntax; names, types and regexes are checked by the compiler
// (rules/compiler.h). It never recurses without bound: input longer than `max_bytes`, nesting
// deeper than `max_depth` (parentheses, brackets, calls, unary operators) or more than
// `max_nodes` nodes gives an error, whatever the input bytes are.
#ifndef FITRANK_RULES_PARSER_H_
#define FITRANK_RULES_PARSER_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "rules/ast.h"

namespace fitrank::rules {

struct ParseLimits {
  int max_bytes = 4096;
  int max_depth = 64;
  int max_nodes = 2000;
};

struct ParseResult {
  Ast ast;                           // ast.root == -1 if there was an error
  std::optional<ExprError> error;    // the first syntax error, if any
  bool ok() const { return !error.has_value(); }
};

ParseResult ParseExpression(absl::string_view text, const ParseLimits& limits = {});

// The expression back as text, fully parenthesised, for tests and debugging:
// "a + b * c" -> "(a + (b * c))".
std::string DebugString(const Ast& ast);

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_PARSER_H_
