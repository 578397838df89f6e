// A JSON Schema (draft-07) of rule files, for `fitrank rules schema` and editors (VS Code's
// YAML extension validates and completes against it).
//
// The schema knows the keys, the id syntax, grade letters, workload and mode ids (from the
// vocabulary) and lists every fact in the description of `when`, `score` and `say`. It
// cannot check expressions themselves: `fitrank rules lint` does.
#ifndef FITRANK_RULES_JSON_SCHEMA_H_
#define FITRANK_RULES_JSON_SCHEMA_H_

#include "nlohmann/json.hpp"
#include "rules/facts.h"
#include "rules/vocabulary.h"

namespace fitrank::rules {

nlohmann::json RuleFileJsonSchema(const FactSchema& schema, const Vocabulary& vocab);

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_JSON_SCHEMA_H_
