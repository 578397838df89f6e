// The OpenAPI document checked against real responses: every path's example answers 200 and
// matches the declared schema; every declared parameter is accepted and an undeclared one
// refused with the Error schema.
#include "cli/serve/openapi.h"

#include "cli/serve/query.h"
#include "nlohmann/json.hpp"
#include "serve_test_util.h"

namespace fitrank::cli::serve {
namespace {

using Json = nlohmann::ordered_json;

// A small validator for the subset the document uses: $ref, type, required, properties, items.
void Validate(const Json& doc, const Json& schema, const Json& value, const std::string& where,
              std::vector<std::string>* problems) {
  if (schema.contains("$ref")) {
    std::string ref = schema["$ref"];  // "#/components/schemas/Error"
    Validate(doc, doc["components"]["schemas"][ref.substr(ref.rfind('/') + 1)], value, where,
             problems);
    return;
  }
  std::string type = schema.value("type", "");
  bool ok = type.empty() || (type == "object" && value.is_object()) ||
            (type == "array" && value.is_array()) || (type == "string" && value.is_string()) ||
            (type == "boolean" && value.is_boolean()) || (type == "number" && value.is_number());
  if (!ok) {
    problems->push_back(where + ": expected " + type + ", got " + value.type_name());
    return;
  }
  if (schema.contains("required")) {
    for (const Json& k : schema["required"]) {
      if (!value.contains(k.get<std::string>())) problems->push_back(where + ": missing " + k.dump());
    }
  }
  if (schema.contains("properties") && value.is_object()) {
    for (auto it = schema["properties"].begin(); it != schema["properties"].end(); ++it) {
      if (value.contains(it.key())) {
        Validate(doc, it.value(), value[it.key()], where + "." + it.key(), problems);
      }
    }
  }
  if (schema.contains("items") && value.is_array()) {
    for (size_t i = 0; i < value.size() && i < 20; ++i) {
      Validate(doc, schema["items"], value[i], where + "[" + std::to_string(i) + "]", problems);
    }
  }
}

std::vector<std::string> Check(const Json& doc, const Json& schema, const std::string& body,
                               const std::string& where) {
  std::vector<std::string> problems;
  Json value = Json::parse(body, nullptr, false);
  if (value.is_discarded()) return {where + ": not JSON"};
  Validate(doc, schema, value, where, &problems);
  return problems;
}

TEST(OpenApi, IsServedAndDescribesEveryEndpoint) {
  HttpResponse r = Get("/api/v1/openapi.json");
  ASSERT_EQ(r.status, 200);
  Json doc = Json::parse(r.body);
  EXPECT_EQ(doc["openapi"], "3.0.3");
  for (const Endpoint& e : Endpoints()) {
    EXPECT_TRUE(doc["paths"].contains("/api/v1/" + e.path)) << e.path;
  }
  EXPECT_TRUE(doc["paths"].contains("/api/v1/reload"));
}

TEST(OpenApi, ExamplesAnswerAsDocumented) {
  Json doc = OpenApiDocument();
  int checked = 0;
  for (auto it = doc["paths"].begin(); it != doc["paths"].end(); ++it) {
    if (!it.value().contains("get")) continue;
    const Json& get = it.value()["get"];
    std::string example = get["x-example"];
    HttpResponse r = Get(example);
    ASSERT_EQ(r.status, 200) << example << "\n" << r.body;
    EXPECT_EQ(r.content_type, "application/json; charset=utf-8");
    std::vector<std::string> problems =
        Check(doc, get["responses"]["200"]["content"]["application/json"]["schema"], r.body, example);
    EXPECT_TRUE(problems.empty()) << problems.front();
    // Every parameter in the example is declared.
    size_t q = example.find('?');
    if (q != std::string::npos) {
      absl::StatusOr<std::vector<QueryParam>> params = ParseQuery(example.substr(q + 1));
      ASSERT_TRUE(params.ok()) << example;
      for (const QueryParam& p : *params) {
        bool declared = false;
        for (const Json& d : get["parameters"]) declared |= d["name"] == p.name;
        EXPECT_TRUE(declared) << example << ": " << p.name;
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(Endpoints().size()));
}

TEST(OpenApi, DeclaredParametersAreAcceptedAndOthersRefused) {
  Json doc = OpenApiDocument();
  for (auto it = doc["paths"].begin(); it != doc["paths"].end(); ++it) {
    if (!it.value().contains("get")) continue;
    const Json& get = it.value()["get"];
    std::string example = get["x-example"];
    std::string sep = example.find('?') == std::string::npos ? "?" : "&";
    for (const Json& p : get["parameters"]) {
      if (p["in"] != "query") continue;
      // An unknown value for a declared parameter may be bad input (400), but never an
      // "unknown_parameter" error: the server takes what the document declares.
      HttpResponse r = Get(example + sep + p["name"].get<std::string>() + "=zz");
      if (r.status == 400) {
        Json e = Json::parse(r.body)["error"];
        EXPECT_NE(e["code"], "unknown_parameter") << example << " " << p["name"];
      }
    }
    HttpResponse bad = Get(example + sep + "undeclared=1");
    ASSERT_EQ(bad.status, 400) << example;
    std::vector<std::string> problems = Check(
        doc, get["responses"]["400"]["content"]["application/json"]["schema"], bad.body, example);
    EXPECT_TRUE(problems.empty()) << problems.front();
    EXPECT_EQ(Json::parse(bad.body)["error"]["code"], "unknown_parameter");
  }
}

TEST(OpenApi, ReloadMatchesItsSchema) {
  Json doc = OpenApiDocument();
  HttpResponse r = Post("/api/v1/reload");
  ASSERT_EQ(r.status, 200);
  std::vector<std::string> problems = Check(
      doc, doc["paths"]["/api/v1/reload"]["post"]["responses"]["200"]["content"]["application/json"]["schema"],
      r.body, "reload");
  EXPECT_TRUE(problems.empty()) << problems.front();
}

}  // namespace
}  // namespace fitrank::cli::serve
