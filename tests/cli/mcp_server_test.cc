// The MCP JSON-RPC layer (cli/mcp_server.h), one line at a time, with the real commands
// (RunCli) or a recording fake behind the tools.
#include "cli/mcp_server.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/mcp_tools.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

using Json = nlohmann::json;

const McpCommandRunner kRunCli = [](const std::vector<std::string>& argv, std::ostream& out,
                                    std::ostream& err) { return RunCli(argv, out, err); };

// Sends `request`, expects exactly one line back, parses it.
Json Call(const Json& request, const McpCommandRunner& run = kRunCli) {
  std::optional<std::string> line = HandleMcpLine(request.dump(), run);
  EXPECT_TRUE(line.has_value()) << request.dump();
  if (!line) return Json();
  EXPECT_EQ(line->find('\n'), std::string::npos);
  return Json::parse(*line);
}

Json ToolCall(const std::string& tool, const Json& arguments) {
  return Call({{"jsonrpc", "2.0"},
               {"id", 7},
               {"method", "tools/call"},
               {"params", {{"name", tool}, {"arguments", arguments}}}});
}

TEST(McpServerTest, InitializeAnswersTheClientsVersionWhenSpoken) {
  Json r = Call({{"jsonrpc", "2.0"},
                 {"id", 1},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-03-26"},
                   {"capabilities", Json::object()},
                   {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}});
  EXPECT_EQ(r["jsonrpc"], "2.0");
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-03-26");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "fitrank");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));

  Json other = Call({{"jsonrpc", "2.0"}, {"id", "a"}, {"method", "initialize"},
                     {"params", {{"protocolVersion", "1999-01-01"}}}});
  EXPECT_EQ(other["id"], "a");
  EXPECT_EQ(other["result"]["protocolVersion"], std::string(kMcpProtocolVersion));
}

TEST(McpServerTest, NotificationsAndBlankLinesGetNoAnswer) {
  EXPECT_EQ(HandleMcpLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", kRunCli),
            std::nullopt);
  EXPECT_EQ(HandleMcpLine(R"({"jsonrpc":"2.0","method":"no/such/notification"})", kRunCli),
            std::nullopt);
  EXPECT_EQ(HandleMcpLine("   ", kRunCli), std::nullopt);
  EXPECT_EQ(HandleMcpLine("", kRunCli), std::nullopt);
}

TEST(McpServerTest, ToolsListHasEveryToolWithASchema) {
  Json r = Call({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}});
  std::vector<std::string> names;
  for (const Json& t : r["result"]["tools"]) {
    names.push_back(t["name"]);
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    EXPECT_FALSE(t["description"].get<std::string>().empty());
    for (auto& [k, p] : t["inputSchema"]["properties"].items()) {
      EXPECT_FALSE(p["description"].get<std::string>().empty()) << t["name"] << "." << k;
    }
  }
  EXPECT_THAT(names, ::testing::ElementsAre("recommend", "fit", "gpu", "compare", "upgrade",
                                            "estimate", "detect"));
  Json fit = r["result"]["tools"][1]["inputSchema"];
  // No GPU: the detected setup, so only the model is required.
  EXPECT_EQ(fit["required"], Json::array({"model"}));
  EXPECT_THAT(fit["properties"]["gpu"]["description"].get<std::string>(),
              ::testing::HasSubstr("omit it for the GPUs detected"));
  EXPECT_EQ(fit["properties"]["free_memory"]["type"], "boolean");
  EXPECT_EQ(fit["properties"]["quant"]["description"],
            "quantization for the headline numbers (default: the best here)");
  EXPECT_EQ(fit["properties"]["gpu"]["type"], "array");
  EXPECT_EQ(fit["properties"]["gpu"]["minItems"], 1);
  EXPECT_EQ(fit["additionalProperties"], false);
  EXPECT_EQ(fit["properties"]["ram"]["description"],
            "host RAM for offload (default: typical for the GPU class) [GB]");
  for (const Json& t : r["result"]["tools"]) {
    if (t["name"] == "compare") continue;  // compares the GPUs it is given
    EXPECT_FALSE(t["inputSchema"].contains("required") &&
                 (std::find(t["inputSchema"]["required"].begin(),
                            t["inputSchema"]["required"].end(), "gpu") !=
                      t["inputSchema"]["required"].end() ||
                  std::find(t["inputSchema"]["required"].begin(),
                            t["inputSchema"]["required"].end(), "name") !=
                      t["inputSchema"]["required"].end()))
        << t["name"] << " must run on the detected setup without a GPU";
  }
  Json detect = r["result"]["tools"][6]["inputSchema"];
  EXPECT_FALSE(detect.contains("required"));
  EXPECT_EQ(detect["properties"]["probe_timeout_ms"]["type"], "integer");
}

TEST(McpServerTest, ToolResultIsTheCommandsOwnJson) {
  Json r = ToolCall("recommend", {{"gpu", "RTX 4090"}, {"workload", "coding"}, {"top", 2}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_EQ(r["id"], 7);
  EXPECT_EQ(r["result"]["isError"], false);
  Json cli = FitrankJson({"recommend", "--gpu", "RTX 4090", "--workload", "coding", "--top", "2"});
  EXPECT_EQ(r["result"]["structuredContent"], cli);
  EXPECT_EQ(Json::parse(r["result"]["content"][0]["text"].get<std::string>()), cli);
}

TEST(McpServerTest, EveryToolRuns) {
  struct Case {
    std::string tool;
    Json args;
  };
  std::vector<Case> cases = {
      {"fit", {{"model", "llama 3.1 8b"}, {"gpu", {"4090"}}, {"quant", "Q4_K_M"}}},
      {"gpu", {{"name", "RTX 3090"}, {"mode", "interactive"}}},
      {"compare", {{"gpus", {"4090", "3090"}}}},
      {"upgrade", {{"gpu", "RTX 3060 12GB"}, {"budget", 2000}}},
      {"estimate",
       {{"gpu", {"4090", "3090"}}, {"model", "llama 3.3 70b"}, {"context", 8192},
        {"bpw", 4.65}, {"kv_cache", "q8_0"}}},
  };
  for (const Case& c : cases) {
    Json r = ToolCall(c.tool, c.args);
    ASSERT_TRUE(r.contains("result")) << c.tool << ": " << r.dump();
    EXPECT_EQ(r["result"]["isError"], false) << c.tool << ": " << r["result"]["content"].dump();
    EXPECT_TRUE(r["result"]["structuredContent"].is_object()) << c.tool;
  }
  Json est = ToolCall(cases.back().tool, cases.back().args);
  EXPECT_EQ(est["result"]["structuredContent"]["setup"]["gpu_count"], 2);
  EXPECT_EQ(est["result"]["structuredContent"]["workload"]["context"], 8192);
}

TEST(McpServerTest, UnknownGpuIsAToolErrorWithTheCommandsHint) {
  Json r = ToolCall("gpu", {{"name", "RTX 4099"}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_EQ(r["result"]["isError"], true);
  CliRun cli = Fitrank({"gpu", "RTX 4099", "--json"});
  EXPECT_EQ(cli.code, 2);
  EXPECT_THAT(cli.err, ::testing::HasSubstr("hint: did you mean"));
  EXPECT_EQ(r["result"]["content"][0]["text"].get<std::string>() + "\n", cli.err);
  EXPECT_FALSE(r["result"].contains("structuredContent"));
}

TEST(McpServerTest, BadArgumentsAreInvalidParamsWithDidYouMean) {
  Json r = ToolCall("recommend", {{"gpuu", "4090"}});
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(r["error"]["message"],
            "unknown argument `gpuu` for tool `recommend` (did you mean `gpu` or `gpus`?)");
  EXPECT_EQ(r["error"]["data"]["hint"], "did you mean `gpu` or `gpus`?");
  EXPECT_EQ(r["id"], 7);

  Json type = ToolCall("recommend", {{"gpu", "4090"}, {"top", "three"}});
  EXPECT_EQ(type["error"]["code"], -32602);
  EXPECT_EQ(type["error"]["message"],
            "argument `top` of tool `recommend` must be an integer, not \"three\"");

  Json missing = ToolCall("fit", {{"gpu", "4090"}});
  EXPECT_EQ(missing["error"]["message"],
            "tool `fit` needs the argument `model` (`model`: the model: a catalog name, id or "
            "alias (\"llama 3.3 70b\"))");

  Json few = ToolCall("compare", {{"gpus", {"4090"}}});
  EXPECT_EQ(few["error"]["message"],
            "argument `gpus` of tool `compare` needs 2 or more entries");

  Json grade = ToolCall("recommend", {{"gpu", "4090"}, {"min_grade", "b"}});
  EXPECT_EQ(grade["error"]["message"],
            "argument `min_grade` of tool `recommend` is `b` (did you mean `B`?)");

  Json tool = ToolCall("recomend", Json::object());
  EXPECT_EQ(tool["error"]["code"], -32602);
  EXPECT_EQ(tool["error"]["message"], "unknown tool `recomend` (did you mean `recommend`?)");
}

TEST(McpServerTest, ProtocolErrors) {
  Json parse = Json::parse(*HandleMcpLine("{\"jsonrpc\": \"2.0\", \"id\": 1,", kRunCli));
  EXPECT_EQ(parse["error"]["code"], -32700);
  EXPECT_TRUE(parse["id"].is_null());

  Json batch = Json::parse(*HandleMcpLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])",
                                          kRunCli));
  EXPECT_EQ(batch["error"]["code"], -32600);

  Json method = Call({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/lst"}});
  EXPECT_EQ(method["error"]["code"], -32601);
  EXPECT_EQ(method["error"]["message"],
            "unknown method `tools/lst` (did you mean `tools/list` or `tools/call`?)");

  Json version = Call({{"jsonrpc", "1.0"}, {"id", 4}, {"method", "ping"}});
  EXPECT_EQ(version["error"]["code"], -32600);
  EXPECT_EQ(version["id"], 4);

  Json id = Call({{"jsonrpc", "2.0"}, {"id", {1, 2}}, {"method", "ping"}});
  EXPECT_EQ(id["error"]["code"], -32600);

  Json ping = Call({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "ping"}});
  EXPECT_EQ(ping["result"], Json::object());

  Json params = Call({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "tools/call"}, {"params", 3}});
  EXPECT_EQ(params["error"]["code"], -32602);
}

TEST(McpServerTest, ArgumentsBecomeFlagsAndPositionalsAfterDoubleDash) {
  std::vector<std::string> seen;
  McpCommandRunner fake = [&seen](const std::vector<std::string>& argv, std::ostream& out,
                                  std::ostream&) {
    seen = argv;
    out << "{\"ok\": true}";
    return 0;
  };
  Json r = Call(Json::parse(R"({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "fit", "arguments": {"model": "-odd name",
                 "gpu": ["4090", "4090"], "ram": 64.5, "gpus": 2.0}}})"),
                fake);
  EXPECT_EQ(r["result"]["structuredContent"], Json({{"ok", true}}));
  EXPECT_THAT(seen, ::testing::ElementsAre("fitrank", "fit", "--gpu=4090", "--gpu=4090",
                                           "--gpus=2", "--ram=64.5", "--json", "--",
                                           "-odd name"));

  // A boolean is a switch: true writes it, false leaves it out; other JSON is a type error.
  Call(Json::parse(R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "recommend", "arguments": {"free_memory": true}}})"),
       fake);
  EXPECT_THAT(seen, ::testing::ElementsAre("fitrank", "recommend", "--free-memory", "--json"));
  Call(Json::parse(R"({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "recommend", "arguments": {"free_memory": false}}})"),
       fake);
  EXPECT_THAT(seen, ::testing::ElementsAre("fitrank", "recommend", "--json"));
  Json bad = Call(Json::parse(R"({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "recommend", "arguments": {"free_memory": "yes"}}})"),
                  fake);
  EXPECT_EQ(bad["error"]["message"],
            "argument `free_memory` of tool `recommend` must be true or false, not \"yes\"");
  Call(Json::parse(R"({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "detect", "arguments": {"probe_timeout_ms": 500}}})"),
       fake);
  EXPECT_THAT(seen, ::testing::ElementsAre("fitrank", "detect", "--probe-timeout-ms=500",
                                           "--json"));
}

TEST(McpServerTest, ToolOutputThatIsNotUtf8StillMakesValidJson) {
  McpCommandRunner fake = [](const std::vector<std::string>&, std::ostream&, std::ostream& err) {
    err << "bad \xff\xfe bytes\n";
    return 2;
  };
  std::optional<std::string> line = HandleMcpLine(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gpu","arguments":{"name":"x"}}})",
      fake);
  ASSERT_TRUE(line);
  Json r = Json::parse(*line);
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_EQ(r["result"]["content"][0]["text"], "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes");
}

TEST(McpCommandTest, UsageErrorsBeforeReadingStdin) {
  CliRun extra = Fitrank({"mcp", "serve"});
  EXPECT_EQ(extra.code, 2);
  EXPECT_EQ(extra.err,
            "fitrank mcp: error: unexpected argument `serve`\n"
            "  hint: `fitrank mcp` takes no arguments; an MCP client starts it and talks on "
            "stdin/stdout\n");
  CliRun json = Fitrank({"mcp", "--json"});
  EXPECT_EQ(json.code, 2);
  EXPECT_EQ(json.err,
            "fitrank mcp: error: `fitrank mcp` always answers in JSON-RPC\n"
            "  hint: drop --json/--format; each tool's result is already its command's JSON\n");
}

TEST(McpToolsTest, EveryArgumentIsAFlagOfItsCommand) {
  for (const McpTool& t : McpTools()) {
    const Command* cmd = nullptr;
    for (const Command& c : Commands()) {
      if (c.name == t.name) cmd = &c;
    }
    ASSERT_NE(cmd, nullptr) << t.name;
    for (const McpArg& a : t.args) {
      if (a.flag.empty()) continue;
      bool found = false;
      for (const FlagSpec& f : cmd->flags) found |= f.name == a.flag;
      EXPECT_TRUE(found) << t.name << ": --" << a.flag;
    }
  }
}

}  // namespace
}  // namespace fitrank::cli
