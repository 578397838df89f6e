// Fuzz target: one input as a whole local rule file, read, merged over nothing and compiled
// with warnings (rules::LintRuleFiles), then its diagnostics rendered; and as a sentence
// template, compiled and rendered. Any crash, hang, sanitizer report or "nan" in a rendered
// sentence is a bug. See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/diagnostics.h"
#include "rules/internal/expr_compiler.h"
#include "rules/internal/template.h"
#include "rules/lint.h"
#include "tests/fuzz/rules_fuzz_env.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitrank;
  using namespace fitrank::rules;
  static fuzz::RulesEnv* env = new fuzz::RulesEnv();
  const std::string input(reinterpret_cast<const char*>(data), size);

  Diagnostics d;
  (void)LintRuleFiles(nullptr, {{"fuzz.yaml", input, true}}, env->schema, env->vocab, &d);
  (void)d.Render();

  internal::Program program;
  internal::ExprCompiler compiler(*env->schema, env->vocab, &program);
  internal::CompiledTemplate tpl;
  std::vector<ExprError> errors;
  if (internal::CompileTemplate(input, &compiler, ParseLimits(), &tpl, &errors)) {
    internal::RunContext ctx;
    ctx.facts = env->facts.get();
    std::string s = internal::RenderTemplate(tpl, program, &ctx);
    if (s.find("nan") != std::string::npos && input.find("nan") == std::string::npos) std::abort();
  }
  return 0;
}
