#include "cli/mcp_server.h"

#include <exception>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/text.h"
#include "cli/mcp_tools.h"
#include "cli/version.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

// Thrown inside this file only, turned into a JSON-RPC error by HandleMcpLine.
struct RpcError {
  int code;
  std::string message;
  std::string hint;
};

std::string Line(const Json& j) {
  // One line: dump() escapes control characters; bad UTF-8 from a tool becomes U+FFFD.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string ErrorLine(const Json& id, const RpcError& e) {
  std::string message = e.hint.empty() ? e.message : absl::StrCat(e.message, " (", e.hint, ")");
  Json error = {{"code", e.code}, {"message", std::move(message)}};
  if (!e.hint.empty()) error["data"] = {{"hint", e.hint}};
  return Line({{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

const std::vector<std::string>& Methods() {
  static const std::vector<std::string> k = {"initialize", "ping", "tools/list", "tools/call"};
  return k;
}

Json Initialize(const Json& params) {
  std::string version(kMcpProtocolVersion);
  if (params.is_object()) {
    auto it = params.find("protocolVersion");
    if (it != params.end() && it->is_string()) {
      const std::string asked = it->get<std::string>();
      if (asked == "2025-06-18" || asked == "2025-03-26" || asked == "2024-11-05") version = asked;
    }
  }
  return {{"protocolVersion", version},
          {"capabilities", {{"tools", {{"listChanged", false}}}}},
          {"serverInfo", {{"name", "fitrank"}, {"version", std::string(FitrankVersion())}}},
          {"instructions",
           "fitrank answers which AI models run on which GPUs, how fast, and what to buy next. "
           "GPU and model names are forgiving (\"4090\", \"llama 3.3 70b\"); an unknown name "
           "returns isError with the closest names."}};
}

Json ToolsList() {
  Json tools = Json::array();
  for (const McpTool& t : McpTools()) tools.push_back(McpToolListing(t));
  return {{"tools", std::move(tools)}};
}

Json TextContent(std::string text) {
  return Json::array({{{"type", "text"}, {"text", std::move(text)}}});
}

Json ToolsCall(const Json& params, const McpCommandRunner& run) {
  if (!params.is_object()) {
    throw RpcError{kInvalidParams, "tools/call needs params {name, arguments}", ""};
  }
  auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string()) {
    throw RpcError{kInvalidParams, "tools/call needs a tool `name` (a string)", ""};
  }
  const std::string name = name_it->get<std::string>();
  const McpTool* tool = FindMcpTool(name);
  if (tool == nullptr) {
    std::vector<std::string> names;
    for (const McpTool& t : McpTools()) names.push_back(t.name);
    std::string hint = DidYouMean(ClosestMatches(name, names));
    if (hint.empty()) hint = absl::StrCat("the tools are ", QuotedList(names, " and "));
    throw RpcError{kInvalidParams, absl::StrCat("unknown tool `", name, "`"), hint};
  }
  auto args_it = params.find("arguments");
  const Json arguments = args_it == params.end() ? Json() : *args_it;
  McpArgProblem problem;
  std::optional<std::vector<std::string>> argv = McpToolArgv(*tool, arguments, &problem);
  if (!argv) throw RpcError{kInvalidParams, problem.message, problem.hint};

  std::ostringstream out, err;
  const int code = run(*argv, out, err);
  std::string err_text(absl::StripTrailingAsciiWhitespace(err.str()));
  Json report;
  bool have_report = false;
  if (code == 0 || code == 1) {
    report = Json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
    have_report = !report.is_discarded() && (report.is_object() || report.is_array());
  }
  Json result;
  if (have_report) {
    result["content"] = TextContent(Line(report));
    if (!err_text.empty()) result["content"].push_back({{"type", "text"}, {"text", err_text}});
    // structuredContent must be an object; a list is wrapped.
    result["structuredContent"] = report.is_object() ? report : Json{{"items", report}};
    result["isError"] = false;
  } else {
    if (err_text.empty()) {
      err_text = absl::StrCat("fitrank ", name, " ended with exit code ", code, " and no report");
    }
    result["content"] = TextContent(err_text);
    result["isError"] = true;
  }
  return result;
}

// The answer to a request (a result object), or throws RpcError.
Json Dispatch(const std::string& method, const Json& params, const McpCommandRunner& run) {
  if (method == "initialize") return Initialize(params);
  if (method == "ping") return Json::object();
  if (method == "tools/list") return ToolsList();
  if (method == "tools/call") return ToolsCall(params, run);
  std::string hint = DidYouMean(ClosestMatches(method, Methods()));
  throw RpcError{kMethodNotFound, absl::StrCat("unknown method `", method, "`"),
                 hint.empty() ? absl::StrCat("this server answers ", QuotedList(Methods(), " and "))
                              : hint};
}

}  // namespace

std::optional<std::string> HandleMcpLine(absl::string_view line, const McpCommandRunner& run) {
  if (absl::StripAsciiWhitespace(line).empty()) return std::nullopt;
  Json msg = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) {
    return ErrorLine(nullptr, {kParseError, "parse error: the line is not one JSON value",
                               "send one JSON-RPC message per line"});
  }
  if (msg.is_array()) {
    return ErrorLine(nullptr, {kInvalidRequest, "batches are not supported",
                               "send one JSON-RPC message per line"});
  }
  if (!msg.is_object()) {
    return ErrorLine(nullptr, {kInvalidRequest, "a JSON-RPC message must be an object", ""});
  }
  auto id_it = msg.find("id");
  const bool is_request = id_it != msg.end();
  Json id = nullptr;
  if (is_request) {
    if (!id_it->is_string() && !id_it->is_number_integer()) {
      return ErrorLine(nullptr, {kInvalidRequest, "`id` must be a string or an integer", ""});
    }
    id = *id_it;
  }
  auto version_it = msg.find("jsonrpc");
  auto method_it = msg.find("method");
  if (version_it == msg.end() || *version_it != "2.0") {
    if (!is_request) return std::nullopt;
    return ErrorLine(id, {kInvalidRequest, "not JSON-RPC 2.0", "add \"jsonrpc\": \"2.0\""});
  }
  if (method_it == msg.end() || !method_it->is_string()) {
    // A response from the client (we send no requests) or a malformed notification.
    if (!is_request || msg.contains("result") || msg.contains("error")) return std::nullopt;
    return ErrorLine(id, {kInvalidRequest, "the request has no `method`", ""});
  }
  if (!is_request) return std::nullopt;  // notifications/initialized, notifications/cancelled
  auto params_it = msg.find("params");
  const Json params = params_it == msg.end() ? Json() : *params_it;
  try {
    Json result = Dispatch(method_it->get<std::string>(), params, run);
    return Line({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  } catch (const RpcError& e) {
    return ErrorLine(id, e);
  } catch (const std::exception& e) {
    return ErrorLine(id, {-32603, absl::StrCat("internal error: ", e.what()), ""});
  }
}

}  // namespace fitrank::cli
