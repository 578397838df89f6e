// Fuzz target: one input as a rule expression, parsed (rules/parser.h), compiled against the
// facts of rules_fuzz_env.h and, when it compiles, run. Any crash, hang, sanitizer report, or
// a number expression that evaluates to NaN or infinity is a bug. See tests/fuzz/README.md.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "rules/internal/expr_compiler.h"
#include "rules/parser.h"
#include "tests/fuzz/rules_fuzz_env.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitrank;
  using namespace fitrank::rules;
  static fuzz::RulesEnv* env = new fuzz::RulesEnv();
  const std::string input(reinterpret_cast<const char*>(data), size);

  ParseResult parsed = ParseExpression(input);
  if (!parsed.ok()) return 0;
  internal::Program program;
  internal::ExprCompiler compiler(*env->schema, env->vocab, &program);
  std::vector<ExprError> errors;
  internal::CompiledExpr e = compiler.Compile(input, parsed.ast, std::nullopt, "x", false, &errors);
  if (!e.ok || e.entry < 0) return 0;
  std::vector<internal::RegexMemo> memo(program.regexes.size() * internal::RegexMemo::kWays);
  internal::RunContext ctx;
  ctx.facts = env->facts.get();
  ctx.memo = memo.data();
  ctx.workload = "coding";
  internal::Value v = internal::Run(program, e.entry, &ctx);
  if (e.type == Type::kNumber && !std::isfinite(v.num)) std::abort();
  return 0;
}
