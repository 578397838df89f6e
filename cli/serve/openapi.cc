#include "cli/serve/openapi.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "cli/serve/api.h"
#include "cli/serve/query.h"

namespace fitrank::cli::serve {

namespace {

using Json = nlohmann::ordered_json;

Json ErrorResponse(absl::string_view description) {
  return {{"description", std::string(description)},
          {"content",
           {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Error"}}}}}}}};
}

// The example query's values for `name`.
Json ExampleOf(const Endpoint& e, const std::string& name) {
  Json values = Json::array();
  absl::StatusOr<std::vector<QueryParam>> q = ParseQuery(e.example_query);
  if (!q.ok()) return values;
  for (const std::string& v : All(*q, name)) values.push_back(v);
  return values;
}

}  // namespace

Json OpenApiDocument() {
  Json doc;
  doc["openapi"] = "3.0.3";
  doc["info"] = {{"title", "fitrank API"},
                 {"version", "1"},
                 {"description",
                  "Which AI models run on which GPUs, how fast, and what to buy next. Every "
                  "endpoint returns exactly what the CLI prints with --json; parameters are the "
                  "CLI's flags. Numbers are estimates."}};
  Json paths = Json::object();
  for (const Endpoint& e : Endpoints()) {
    Json params = Json::array();
    if (!e.positional.empty()) {
      bool in_path = e.path.find('{') != std::string::npos;
      Json p = {{"name", e.positional},
                {"in", in_path ? "path" : "query"},
                {"required", e.positional_required || in_path},
                {"description", e.positional_help}};
      p["schema"] = e.positional_repeated
                        ? Json{{"type", "array"}, {"items", {{"type", "string"}}}}
                        : Json{{"type", "string"}};
      if (e.positional_repeated) {
        p["style"] = "form";
        p["explode"] = true;
      }
      Json ex = ExampleOf(e, e.positional);
      if (!ex.empty()) p["example"] = e.positional_repeated ? ex : ex[0];
      params.push_back(p);
    }
    for (const FlagSpec& f : EndpointFlags(e)) {
      const bool needed = f.name == "gpu" && NeedsGpuParam(e);
      Json p = {{"name", f.name},
                {"in", "query"},
                {"required", needed},
                {"description", needed ? std::string("a GPU name or id; repeat for a mixed rig "
                                                     "(gpu=4090&gpu=3090)")
                                       : f.help}};
      if (f.value_name.empty()) {
        p["schema"] = {{"type", "boolean"}};
        p["allowEmptyValue"] = true;
      } else if (f.repeatable) {
        p["schema"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
        p["style"] = "form";
        p["explode"] = true;
      } else {
        p["schema"] = {{"type", "string"}};
      }
      Json ex = ExampleOf(e, f.name);
      if (!ex.empty()) p["example"] = f.repeatable ? ex : ex[0];
      params.push_back(p);
    }
    Json schema;
    if (e.response_keys.empty()) {
      schema = {{"type", "array"}, {"items", {{"type", "object"}, {"required", {"id", "name"}}}}};
      if (e.path == "catalog/quants") schema["items"]["required"] = Json::array({"id"});
    } else {
      schema = {{"type", "object"}, {"required", e.response_keys}};
    }
    Json get = {
        {"summary", e.summary},
        {"operationId", absl::StrCat("get_", absl::StrReplaceAll(e.path, {{"/", "_"}, {"{", ""}, {"}", ""}}))},
        {"parameters", params},
        {"x-example", absl::StrCat("/api/v1/", e.example_path,
                                   e.example_query.empty() ? "" : "?", e.example_query)},
        {"responses",
         {{"200",
           {{"description", "the command's JSON (as `fitrank ... --json` prints it)"},
            {"content", {{"application/json", {{"schema", schema}}}}}}},
          {"400", ErrorResponse("bad input: unknown or ambiguous name, bad number, unknown "
                                "parameter")},
          {"422", ErrorResponse("the query has no answer (nothing fits, no option)")}}}};
    paths[absl::StrCat("/api/v1/", e.path)] = {{"get", get}};
  }
  Json reloaded_schema = {{"type", "object"}, {"required", {"reloaded", "loaded_at"}}};
  Json reload_responses = Json::object();
  reload_responses["200"] = {
      {"description", "reloaded"},
      {"content", {{"application/json", {{"schema", reloaded_schema}}}}}};
  reload_responses["400"] = ErrorResponse("the files have errors; the old snapshot stays");
  reload_responses["403"] = ErrorResponse("not from loopback");
  Json post = {{"summary", "Reload the data and rule files and swap the snapshot (loopback only)"},
               {"operationId", "post_reload"}};
  post["responses"] = reload_responses;
  paths["/api/v1/reload"] = {{"post", post}};
  doc["paths"] = paths;
  doc["components"]["schemas"]["Error"] = {
      {"type", "object"},
      {"required", {"error"}},
      {"properties",
       {{"error",
         {{"type", "object"},
          {"required", {"code", "message", "hint", "candidates"}},
          {"properties",
           {{"code", {{"type", "string"}}},
            {"message", {{"type", "string"}}},
            {"hint", {{"type", "string"}}},
            {"candidates", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}}}}}};
  return doc;
}

}  // namespace fitrank::cli::serve
