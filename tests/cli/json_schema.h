// A checker for the subset of JSON Schema (draft 2020-12) that docs/schemas/*.schema.json use:
// "type" (a name or a list of names), "properties", "required", "additionalProperties"
// (false, or a schema every other member must match), "items" (one schema for every element).
// Other keywords ("description", "title", "$schema") are ignored. Header-only, for tests.
//
//   std::vector<std::string> errors;
//   CheckSchema(schema, instance, "$", &errors);   // errors name the JSON path: $.picks[0].quant
#ifndef FITRANK_TESTS_CLI_JSON_SCHEMA_H_
#define FITRANK_TESTS_CLI_JSON_SCHEMA_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace fitrank::testing {

inline std::string JsonTypeName(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

inline bool TypeMatches(const std::string& want, const nlohmann::json& v) {
  const std::string got = JsonTypeName(v);
  return want == got || (want == "number" && got == "integer");
}

// Appends to *errors one line per place where `v` breaks `schema`.
inline void CheckSchema(const nlohmann::json& schema, const nlohmann::json& v,
                        const std::string& path, std::vector<std::string>* errors) {
  if (!schema.is_object()) {
    errors->push_back(path + ": the schema here is not an object");
    return;
  }
  if (schema.contains("type")) {
    const nlohmann::json& t = schema["type"];
    bool ok = false;
    std::string names;
    for (const auto& name : t.is_array() ? t : nlohmann::json::array({t})) {
      ok |= TypeMatches(name.get<std::string>(), v);
      names += (names.empty() ? "" : "|") + name.get<std::string>();
    }
    if (!ok) {
      errors->push_back(path + ": " + JsonTypeName(v) + " where the schema wants " + names);
      return;
    }
  }
  if (v.is_object()) {
    const nlohmann::json props = schema.value("properties", nlohmann::json::object());
    for (const auto& r : schema.value("required", nlohmann::json::array())) {
      if (!v.contains(r.get<std::string>())) {
        errors->push_back(path + ": missing key `" + r.get<std::string>() + "`");
      }
    }
    for (const auto& [key, value] : v.items()) {
      const std::string sub = path + "." + key;
      if (props.contains(key)) {
        CheckSchema(props[key], value, sub, errors);
      } else if (schema.contains("additionalProperties")) {
        const nlohmann::json& extra = schema["additionalProperties"];
        if (extra.is_boolean()) {
          if (!extra.get<bool>()) errors->push_back(sub + ": key not in the schema");
        } else {
          CheckSchema(extra, value, sub, errors);
        }
      }
    }
  }
  if (v.is_array() && schema.contains("items")) {
    for (size_t i = 0; i < v.size(); ++i) {
      CheckSchema(schema["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
    }
  }
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_CLI_JSON_SCHEMA_H_
