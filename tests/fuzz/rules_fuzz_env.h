// The fact schema, vocabulary and fact values the rule fuzzers compile and run against: a few
// facts of each type, so that fuzzed expressions can reach every part of the compiler and
// evaluator.
#ifndef FITRANK_TESTS_FUZZ_RULES_FUZZ_ENV_H_
#define FITRANK_TESTS_FUZZ_RULES_FUZZ_ENV_H_

#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "rules/facts.h"
#include "rules/vocabulary.h"

namespace fitrank::fuzz {

struct RulesEnv {
  std::shared_ptr<rules::FactSchema> schema = std::make_shared<rules::FactSchema>();
  rules::Vocabulary vocab;
  std::unique_ptr<rules::FactValues> facts;
  std::vector<absl::string_view> caps = {"tools", "thinking"};

  RulesEnv() {
    rules::NumberFact headroom = schema->Number("fit.headroom_pct", "", "%");
    rules::NumberFact offload = schema->Number("fit.offload_pct", "", "%");
    rules::NumberFact params = schema->Number("model.params_b", "", "B");
    rules::StringFact kind = schema->String("fit.kind", "");
    rules::StringFact name = schema->String("model.name", "");
    rules::StringListFact c = schema->StringList("model.capabilities", "");
    rules::BoolFact thinking = schema->Bool("model.thinking", "");
    vocab.workloads = {{"chat", {}}, {"coding", {}}, {"agentic", {"agentic-coding"}}};
    vocab.modes = {{"balanced", {}}, {"interactive", {}}};
    vocab.sets = {"fit", "speed"};
    facts = std::make_unique<rules::FactValues>(*schema);
    facts->Set(headroom, 12);
    facts->Set(offload, 0);
    facts->Set(params, 1e15);
    facts->Set(kind, "native");
    facts->Set(name, "Qwen-Coder");
    facts->Set(c, absl::Span<const absl::string_view>(caps));
    facts->Set(thinking, true);
  }
};

}  // namespace fitrank::fuzz

#endif  // FITRANK_TESTS_FUZZ_RULES_FUZZ_ENV_H_
