// The OpenAPI 3 document of /api/v1, generated from the endpoint table (api.h) and the
// commands' flags, so it cannot drift from what the server accepts. Tests check it against
// real responses (tests/serve/openapi_test.cc).
#ifndef FITRANK_CLI_SERVE_OPENAPI_H_
#define FITRANK_CLI_SERVE_OPENAPI_H_

#include "nlohmann/json.hpp"

namespace fitrank::cli::serve {

nlohmann::ordered_json OpenApiDocument();

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_OPENAPI_H_
