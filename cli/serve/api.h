// The JSON API (/api/v1/...): each endpoint is a fitrank command run in-process with argv built
// from the query parameters plus --json, so the API returns exactly the CLI's JSON (one writer
// for both). The same calls feed the web pages, which therefore never disagree with the API.
//
// Parameters are the command's own flags (cli/command.h's FlagSpecs), less the ones that reach
// the file system or change the output format (data, rules, model-config, format, json,
// help); one endpoint parameter may become the command's positional arguments (the model of
// `fit`, the GPUs of `compare`). Values are passed as `--flag=value` and positionals after
// `--`, so no value can be read as a flag.
//
// Status codes: 200 with the command's JSON (exit 0); 400 with an error object for bad input
// (exit 2, or a parameter the endpoint does not take); 422 with an error object when the query
// had no answer (exit 1); 500 only if the command reported an internal error.
// Error object: {"error": {"code", "message", "hint", "candidates": [...]}}.
#ifndef FITRANK_CLI_SERVE_API_H_
#define FITRANK_CLI_SERVE_API_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "cli/command.h"
#include "cli/serve/query.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli::serve {

// Runs one fitrank command line (argv[0] = "fitrank") and returns its exit code; a usage error
// fills *problem. The server binds it to an engine snapshot (snapshot.h). Must be callable
// from many threads at once.
using CliRunner = std::function<int(const std::vector<std::string>& argv, std::ostream& out,
                                    std::ostream& err, UsageProblem* problem)>;

struct Endpoint {
  std::string path;                // under /api/v1/: "fit", "gpu/{id}", "catalog/gpus"
  std::string summary;
  std::vector<std::string> words;  // the command words: {"catalog", "gpus"}
  // The parameter whose values become positional arguments ("" none); for "gpu/{id}" the
  // path parameter `id`.
  std::string positional;
  std::string positional_help;
  bool positional_required = false;
  bool positional_repeated = false;
  std::vector<std::string> only_flags;  // if not empty, the only flags taken
  // Top-level keys every 200 response has (the OpenAPI schema's `required`, checked by tests).
  std::vector<std::string> response_keys;
  // Example query for the OpenAPI document and the tests ("gpu=RTX%204090&workload=coding"),
  // with the path parameter filled in for templated paths.
  std::string example_path;
  std::string example_query;
};

// Every endpoint, in documentation order.
const std::vector<Endpoint>& Endpoints();

// The flags `e` accepts as query parameters (without the positional one), in the command's
// order.
std::vector<FlagSpec> EndpointFlags(const Endpoint& e);
// True if the endpoint's command takes --gpu and the endpoint names no GPU otherwise (not
// gpu/{id}, not compare): then `gpu` is required. The CLI would use the detected setup; a
// server never answers for its own hardware (`gpu=auto` is refused too).
bool NeedsGpuParam(const Endpoint& e);

struct ApiResult {
  int status = 200;
  std::string body;  // the command's JSON (200) or the error object; ends with a newline
  nlohmann::ordered_json json;  // body parsed (pages use it): an object, or an array (catalog lists)
};

// Runs the endpoint at `path` (under /api/v1/, e.g. "gpu/RTX%204090", raw bytes, not decoded)
// with `params`. 404 error object for a path that is no endpoint.
ApiResult CallApi(const CliRunner& run, absl::string_view path,
                  const std::vector<QueryParam>& params);

// {"error": {...}} as a JSON text ending in a newline.
std::string ErrorBody(absl::string_view code, absl::string_view message, absl::string_view hint,
                      const std::vector<std::string>& candidates = {});

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_API_H_
