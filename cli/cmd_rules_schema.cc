// fitrank rules schema: JSON Schemas (draft 2020-12) of the rule, rule-test and profile files,
// for editors (e.g. yaml-language-server's `# yaml-language-server: $schema=...`). The facts
// an expression may read are listed under `x-fitrank-facts` and in the descriptions.
#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/cmd_rules.h"
#include "cli/render_json.h"
#include "engine/scoring/facts.h"
#include "engine/report/traits.h"
#include "engine/scoring/rule_tests.h"

namespace fitrank::cli {
namespace {

Json Str(const std::string& description) {
  return {{"type", "string"}, {"description", description}};
}
Json Num(const std::string& description) {
  return {{"type", "number"}, {"description", description}};
}
Json Words(const std::string& description) {
  return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}
Json Frame(const std::string& title, const std::string& schema_id, Json properties,
           std::vector<std::string> required) {
  Json j;
  j["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  j["title"] = title;
  j["type"] = "object";
  properties["schema"] = {{"const", schema_id}};
  required.insert(required.begin(), "schema");
  j["properties"] = std::move(properties);
  j["required"] = required;
  j["additionalProperties"] = false;
  return j;
}

Json FactsJson(const rules::FactSchema& schema) {
  Json list = Json::array();
  for (const rules::FactDecl& d : schema.facts()) {
    list.push_back({{"name", d.name},
                    {"type", std::string(rules::TypeName(d.type))},
                    {"unit", d.unit},
                    {"doc", d.doc}});
  }
  return list;
}

Json FactsJson() {
  rules::FactSchema schema;
  Facts facts(&schema);
  return FactsJson(schema);
}

Json RuleFileSchema() {
  const std::string expr =
      "An expression over facts (see x-fitrank-facts): numbers, \"strings\", true/false, "
      "[lists], + - * /, == != < <= > >=, and/or/not, in, =~ (RE2), min max clamp abs log2 "
      "round known";
  Json rule_props = {
      {"id", {{"type", "string"}, {"pattern", "^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)+$"},
              {"description", "Unique dotted id, e.g. fit.native-comfortable"}}},
      {"desc", Str("One line: what the rule is for")},
      {"when", {{"type", {"string", "boolean"}}, {"description", "Condition (default: always). " + expr}}},
      {"score", {{"type", {"string", "number"}}, {"description", "Points added to the set total when it fires. " + expr}}},
      {"cap", {{"enum", {"A", "B", "C", "D", "F"}}, {"description", "The grade can be no better than this"}}},
      {"gate", {{"type", "boolean"}, {"description", "Exclude the candidate when the rule fires"}}},
      {"gate_reason", Str("Why an excluded candidate is excluded")},
      {"workloads", Words("Applies only to these workloads (chat, coding, agentic, rag, reasoning)")},
      {"modes", Words("Applies only to these modes (balanced, interactive, background, light-api, scale-out)")},
      {"say", Str("The reason sentence, with facts interpolated: \"{perf.decode_tok_s:.0f} tok/s\"")},
      {"advice", Str("Advice id, e.g. remove-offload")},
      {"tags", Words("Tags shown with picks; `explain-only` keeps the sentence out of reasons")},
  };
  Json rule = {{"type", "object"}, {"properties", rule_props}, {"required", {"id"}},
               {"additionalProperties", false}};
  Json override_set = rule_props;
  override_set.erase("id");
  Json ov = {{"type", "object"},
             {"properties", {{"id", Str("Id of the rule to change, in any file loaded before")},
                             {"disable", {{"type", "boolean"}}},
                             {"set", {{"type", "object"}, {"properties", override_set},
                                      {"additionalProperties", false},
                                      {"description", "Keys replaced, each as a whole"}}}}},
             {"required", {"id"}},
             {"additionalProperties", false}};
  Json j = Frame("fitrank rule file", "fitrank.rules/v1",
                 {{"set", Str("The rule set these rules score: fit, speed, responsiveness, quality, "
                              "context, specialization, recency, ecosystem, serving, cost, or a new one")},
                  {"description", Str("What the set measures")},
                  {"rules", {{"type", "array"}, {"items", rule}}},
                  {"overrides", {{"type", "array"}, {"items", ov}}}},
                 {});
  j["x-fitrank-facts"] = FactsJson();
  return j;
}

// A report rule book (engine/report_traits.h): the rule file frame with its own facts, and
// `set` limited to the book's kinds.
Json TraitFileSchema(const TraitBookSpec& book) {
  Json j = RuleFileSchema();
  j["title"] = absl::StrCat("fitrank ", book.name, " rule file (", book.shipped_dir, "/*.yaml)");
  j["properties"]["set"] = {{"enum", book.kinds},
                            {"description", "What the file's sentences are, on the report"}};
  j["x-fitrank-facts"] = FactsJson(*book.make_schema());
  return j;
}

Json WorkloadsSchema() {
  Json w = {{"type", "object"},
            {"properties",
             {{"id", Str("Stable id")}, {"name", Str("Title")}, {"phrase", Str("Mid-sentence name")},
              {"aliases", Words("Other names")}, {"description", Str("")},
              {"context_tokens", Num("Context allocated, tokens")},
              {"prompt_tokens", Num("Prompt prefilled, tokens")},
              {"output_tokens", Num("Tokens generated per answer")},
              {"decode_target_tok_s", Num("Comfortable decode speed, tok/s")},
              {"decode_min_tok_s", Num("Frustration floor, tok/s")},
              {"ttft_target_ms", Num("Comfortable time to first token, ms")},
              {"ttft_max_ms", Num("Frustration limit, ms")},
              {"min_context_tokens", Num("Least usable context, tokens")},
              {"requires", Words("Capabilities a model must have")},
              {"prefers", Words("Capabilities that make a model a better fit")},
              {"weights", {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}},
                           {"description", "Weight per rule set"}}}}},
            {"required", {"id", "name", "phrase", "context_tokens", "prompt_tokens", "output_tokens",
                          "decode_target_tok_s", "decode_min_tok_s", "ttft_target_ms", "ttft_max_ms",
                          "min_context_tokens", "weights"}},
            {"additionalProperties", false}};
  return Frame("fitrank workload profiles", "fitrank.profiles/v1",
               {{"kind", {{"const", "workloads"}}},
                {"sources", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
                {"capability_phrases", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
                {"workloads", {{"type", "array"}, {"items", w}}}},
               {"kind", "workloads"});
}

Json ModesSchema() {
  Json m = {{"type", "object"},
            {"properties",
             {{"id", Str("Stable id")}, {"name", Str("Title")}, {"aliases", Words("")},
              {"description", Str("")},
              {"multipliers", {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}},
                               {"description", "Multiplier per rule set (default 1)"}}},
              {"concurrency", {{"type", "integer"}, {"minimum", 1}}},
              {"gpu_counts", {{"type", "array"}, {"items", {{"type", "integer"}, {"minimum", 1}}}}},
              {"parallelism", {{"enum", {"layer", "tensor"}}}},
              {"serving_runtime", {{"type", "boolean"}}},
              {"decode_target_scale", Num("x the workload's decode targets")},
              {"ttft_target_scale", Num("x the workload's TTFT targets")},
              {"context_scale", Num("x the workload's context")}}},
            {"required", {"id", "name"}},
            {"additionalProperties", false}};
  return Frame("fitrank operating modes", "fitrank.profiles/v1",
               {{"kind", {{"const", "modes"}}},
                {"default", Str("Id of the default mode")},
                {"sources", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
                {"modes", {{"type", "array"}, {"items", m}}}},
               {"kind", "default", "modes"});
}

Json GradesSchema() {
  Json g = {{"type", "object"},
            {"properties", {{"letter", Str("Grade letter")}, {"min_score", Num("Lowest score of the grade")},
                            {"label", Str("")}, {"description", Str("")}}},
            {"required", {"letter", "min_score"}},
            {"additionalProperties", false}};
  return Frame("fitrank grade scale", "fitrank.profiles/v1",
               {{"kind", {{"const", "grades"}}},
                {"sources", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
                {"set_score_range", {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 2}, {"maxItems", 2}}},
                {"cap_margin", Num("How far under the next better grade a capped score sits")},
                {"reason_order", Words("Rule sets in the order reasons are told")},
                {"grades", {{"type", "array"}, {"items", g}}}},
               {"kind", "grades"});
}

}  // namespace

int RunRulesSchema(Context& ctx) {
  std::string kind = ctx.args.GetOr("kind", "all");
  std::vector<std::string> kinds = {"rules",  "tests",      "workloads",         "modes",
                                    "grades", "gpu-traits", "compare-decisions", "all"};
  const std::vector<TraitBookSpec>& books = TraitBooks();
  Json out;
  if (kind == "rules") out = RuleFileSchema();
  else if (kind == "gpu-traits") out = TraitFileSchema(books[0]);
  else if (kind == "compare-decisions") out = TraitFileSchema(books[1]);
  else if (kind == "tests") out = RuleTestFileSchema();
  else if (kind == "workloads") out = WorkloadsSchema();
  else if (kind == "modes") out = ModesSchema();
  else if (kind == "grades") out = GradesSchema();
  else if (kind == "all") {
    out = {{"rules", RuleFileSchema()}, {"tests", RuleTestFileSchema()},
           {"workloads", WorkloadsSchema()}, {"modes", ModesSchema()}, {"grades", GradesSchema()},
           {"gpu-traits", TraitFileSchema(books[0])},
           {"compare-decisions", TraitFileSchema(books[1])}};
  } else {
    throw UsageError(absl::StrCat("unknown schema kind `", kind, "`"),
                     DidYouMean(ClosestMatches(kind, kinds)));
  }
  PrintJson(*ctx.out, out);
  return 0;
}

}  // namespace fitrank::cli
