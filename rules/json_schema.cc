#include "rules/json_schema.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "rules/rule_file.h"

namespace fitrank::rules {
namespace {

using nlohmann::json;

json Names(const std::vector<NamedId>& ids) {
  json out = json::array();
  for (const std::string& n : Vocabulary::AllNames(ids)) out.push_back(n);
  return out;
}

json IdList(const std::vector<NamedId>& ids, const char* what) {
  json items = {{"type", "string"}};
  if (!ids.empty()) items["enum"] = Names(ids);
  return {{"type", "array"},
          {"items", items},
          {"description", absl::StrCat("Applies only to these ", what,
                                       "s; leave out to apply to all")}};
}

std::string FactList(const FactSchema& schema) {
  std::string out = "Facts: ";
  for (size_t i = 0; i < schema.facts().size(); ++i) {
    const FactDecl& d = schema.facts()[i];
    absl::StrAppend(&out, i ? ", " : "", d.name, " (", TypeName(d.type),
                    d.unit.empty() ? "" : absl::StrCat(", ", d.unit), ")");
  }
  return out;
}

// The keys a rule and an override's `set:` share.
json RuleProperties(const FactSchema& schema, const Vocabulary& vocab) {
  const std::string facts = FactList(schema);
  json grades = json::array();
  for (const std::string& g : vocab.grades) grades.push_back(g);
  json cap_values = grades;
  return {
      {"desc", {{"type", "string"}, {"description", "One line: what the rule is for"}}},
      {"when",
       {{"type", {"string", "boolean"}},
        {"description", absl::StrCat("Condition (see rules/README.md). ", facts)}}},
      {"score",
       {{"type", {"string", "number"}},
        {"description", absl::StrCat("Number added to the set when the rule fires. ", facts)}}},
      {"say",
       {{"type", "string"},
        {"description",
         absl::StrCat("Sentence shown when the rule fires; {fact:.0f} inserts a value. ",
                      facts)}}},
      {"cap",
       {{"type", "string"},
        {"enum", cap_values},
        {"description", "The grade can be no better than this when the rule fires"}}},
      {"gate", {{"type", "boolean"}, {"description", "Exclude the candidate when the rule fires"}}},
      {"gate_reason", {{"type", "string"}}},
      {"workloads", IdList(vocab.workloads, "workload")},
      {"modes", IdList(vocab.modes, "mode")},
      {"advice", {{"type", "string"}, {"description", "Advice id, e.g. remove-offload"}}},
      {"tags", {{"type", "array"}, {"items", {{"type", "string"}}}}},
  };
}

}  // namespace

json RuleFileJsonSchema(const FactSchema& schema, const Vocabulary& vocab) {
  const std::string id_pattern = "^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)+$";
  json rule_props = RuleProperties(schema, vocab);
  rule_props["id"] = {{"type", "string"}, {"pattern", id_pattern}};
  json set_props = RuleProperties(schema, vocab);
  set_props["cap"]["enum"].push_back("none");

  json sets = json::array();
  for (const std::string& s : vocab.sets) sets.push_back(s);
  json set_name = {{"type", "string"}, {"pattern", "^[a-z][a-z0-9_-]*$"},
                   {"description", "The rule set the rules score"}};
  if (!sets.empty()) set_name["examples"] = sets;

  return {
      {"$schema", "http://json-schema.org/draft-07/schema#"},
      {"title", "fitrank rule file"},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"schema"}},
      {"properties",
       {{"schema", {{"const", std::string(kRulesSchema)}}},
        {"set", set_name},
        {"description", {{"type", "string"}}},
        {"rules",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", {"id"}},
            {"properties", rule_props}}}}},
        {"overrides",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", {"id"}},
            {"properties",
             {{"id", {{"type", "string"}, {"pattern", id_pattern}}},
              {"disable", {{"type", "boolean"}}},
              {"set",
               {{"type", "object"}, {"additionalProperties", false},
                {"properties", set_props}}}}}}}}}}},
      {"dependencies", {{"rules", {"set"}}}},
  };
}

}  // namespace fitrank::rules
