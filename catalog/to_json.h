// Catalog records as JSON objects: one key per field of catalog/types.h, named as the field,
// in declaration order, every field present (0 / "" / [] where the source does not know).
// Enums are their YAML spellings ("consumer", "sliding"); `source` is {"key", "text"}.
// This is the stable schema of `fitrank catalog ... --json` and of the HTTP API.
#ifndef FITRANK_CATALOG_TO_JSON_H_
#define FITRANK_CATALOG_TO_JSON_H_

#include "catalog/types.h"
#include "nlohmann/json.hpp"

namespace fitrank {

nlohmann::ordered_json ToJson(const SourceRef& s);
nlohmann::ordered_json ToJson(const Gpu& g);
nlohmann::ordered_json ToJson(const Attention& a);
nlohmann::ordered_json ToJson(const Quality& q);
nlohmann::ordered_json ToJson(const Model& m);
nlohmann::ordered_json ToJson(const DiffusionModel& d);
nlohmann::ordered_json ToJson(const Quant& q);
nlohmann::ordered_json ToJson(const Runtime& r);
nlohmann::ordered_json ToJson(const Interconnect& i);
nlohmann::ordered_json ToJson(const Price& p);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_TO_JSON_H_
