// Shared fixtures for the rules tests: a realistic fact schema and vocabulary, and helpers
// to compile and run one expression.
#ifndef FITRANK_TESTS_RULES_RULES_TEST_UTIL_H_
#define FITRANK_TESTS_RULES_RULES_TEST_UTIL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/compiled_rules.h"
#include "rules/facts.h"
#include "rules/internal/expr_compiler.h"
#include "rules/internal/program.h"
#include "rules/parser.h"
#include "rules/vocabulary.h"

namespace fitrank::rules::testing {

struct TestFacts {
  std::shared_ptr<FactSchema> schema = std::make_shared<FactSchema>();
  NumberFact headroom = schema->Number("fit.headroom_pct", "Free memory after load", "%");
  StringFact kind = schema->String("fit.kind", "native | offload | none");
  NumberFact offload = schema->Number("fit.offload_pct", "Share of weights on the host", "%");
  NumberFact decode = schema->Number("perf.decode_tok_s", "Decode speed", "tok/s");
  NumberFact ttft = schema->Number("perf.ttft_ms", "Time to first token", "ms");
  NumberFact params = schema->Number("model.params_b", "Parameters", "B");
  StringFact name = schema->String("model.name", "Model name");
  StringListFact caps = schema->StringList("model.capabilities", "tools, thinking, vision");
  BoolFact thinking = schema->Bool("model.thinking", "Has a thinking mode");
  NumberFact price = schema->Number("price.usd", "Street price", "USD");
  NumberFact context = schema->Number("model.context_k", "Context window", "k tokens");
};

inline Vocabulary TestVocabulary() {
  Vocabulary v;
  v.workloads = {{"chat", {}}, {"coding", {}}, {"agentic", {"agentic-coding"}}, {"rag", {}},
                 {"reasoning", {}}};
  v.modes = {{"balanced", {}}, {"interactive", {}}, {"background", {}}, {"light-api", {}},
             {"scale-out", {}}};
  v.sets = {"fit", "speed", "responsiveness", "quality", "context", "specialization",
            "recency", "ecosystem", "serving", "cost"};
  return v;
}

// One expression compiled alone, for unit tests.
struct Expr {
  internal::Program program;
  internal::CompiledExpr compiled;
  std::vector<ExprError> errors;  // parse error first, if any
  Vocabulary vocab;

  bool ok() const { return compiled.ok; }
  std::string FirstError() const { return errors.empty() ? "" : errors[0].message; }

  internal::Value Run(const FactValues& f, int workload = -1, int mode = -1,
                      uint8_t* faults = nullptr) const {
    internal::RunContext ctx;
    ctx.facts = &f;
    if (workload >= 0) ctx.workload = vocab.workloads[workload].id;
    if (mode >= 0) ctx.mode = vocab.modes[mode].id;
    internal::Value v;
    if (compiled.constant) {
      v.num = compiled.constant->num;
      if (compiled.type == Type::kBool) v.b = compiled.constant->b;
    } else {
      v = internal::Run(program, compiled.entry, &ctx);
    }
    if (faults) *faults = ctx.faults;
    return v;
  }
  double Num(const FactValues& f, uint8_t* faults = nullptr) const {
    return Run(f, -1, -1, faults).num;
  }
  bool Bool(const FactValues& f, int workload = -1, int mode = -1) const {
    return Run(f, workload, mode).b;
  }
};

inline std::unique_ptr<Expr> CompileExpr(const FactSchema& schema, const std::string& text,
                                         std::optional<Type> expected = std::nullopt) {
  auto e = std::make_unique<Expr>();
  e->vocab = TestVocabulary();
  ParseResult parsed = ParseExpression(text);
  if (!parsed.ok()) {
    e->errors.push_back(*parsed.error);
    return e;
  }
  internal::ExprCompiler c(schema, e->vocab, &e->program);
  e->compiled = c.Compile(text, parsed.ast, expected, "the expression", false, &e->errors);
  return e;
}

}  // namespace fitrank::rules::testing

#endif  // FITRANK_TESTS_RULES_RULES_TEST_UTIL_H_
