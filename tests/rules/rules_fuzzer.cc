// libFuzzer target for the rules front end: the input is used as a whole rule file (read,
// merge, compile with warnings), as an expression (parse, compile, run) and as a sentence
// template. Any crash, hang, sanitizer report or NaN is a bug; add the input to
// tests/rules/corpus/ so corpus_test.cc replays it.
//
// Built only with clang and -DFITRANK_FUZZ=ON (see the CMake snippet in the final report /
// rules/README.md), e.g.:
//   build/tests/rules_fuzzer -max_total_time=300 tests/rules/corpus
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "base/diagnostics.h"
#include "rules/internal/expr_compiler.h"
#include "rules/internal/template.h"
#include "rules/lint.h"
#include "rules/parser.h"

namespace {

using namespace fitrank;
using namespace fitrank::rules;

struct Env {
  std::shared_ptr<FactSchema> schema = std::make_shared<FactSchema>();
  Vocabulary vocab;
  std::unique_ptr<FactValues> facts;
  std::vector<absl::string_view> caps = {"tools", "thinking"};

  Env() {
    NumberFact headroom = schema->Number("fit.headroom_pct", "", "%");
    NumberFact offload = schema->Number("fit.offload_pct", "", "%");
    NumberFact params = schema->Number("model.params_b", "", "B");
    StringFact kind = schema->String("fit.kind", "");
    StringFact name = schema->String("model.name", "");
    StringListFact c = schema->StringList("model.capabilities", "");
    BoolFact thinking = schema->Bool("model.thinking", "");
    vocab.workloads = {{"chat", {}}, {"coding", {}}, {"agentic", {"agentic-coding"}}};
    vocab.modes = {{"balanced", {}}, {"interactive", {}}};
    vocab.sets = {"fit", "speed"};
    facts = std::make_unique<FactValues>(*schema);
    facts->Set(headroom, 12);
    facts->Set(offload, 0);
    facts->Set(params, 1e15);
    facts->Set(kind, "native");
    facts->Set(name, "Qwen-Coder");
    facts->Set(c, absl::Span<const absl::string_view>(caps));
    facts->Set(thinking, true);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Env* env = new Env();
  const std::string input(reinterpret_cast<const char*>(data), size);

  Diagnostics d;
  (void)LintRuleFiles(nullptr, {{"fuzz.yaml", input, true}}, env->schema, env->vocab, &d);
  (void)d.Render();

  ParseResult parsed = ParseExpression(input);
  if (parsed.ok()) {
    internal::Program program;
    internal::ExprCompiler compiler(*env->schema, env->vocab, &program);
    std::vector<ExprError> errors;
    internal::CompiledExpr e =
        compiler.Compile(input, parsed.ast, std::nullopt, "x", false, &errors);
    if (e.ok && e.entry >= 0) {
      std::vector<internal::RegexMemo> memo(program.regexes.size() * internal::RegexMemo::kWays);
      internal::RunContext ctx;
      ctx.facts = env->facts.get();
      ctx.memo = memo.data();
      ctx.workload = "coding";
      internal::Value v = internal::Run(program, e.entry, &ctx);
      if (e.type == Type::kNumber && !std::isfinite(v.num)) std::abort();
    }
  }

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
