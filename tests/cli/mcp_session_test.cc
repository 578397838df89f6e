// A whole MCP session with the built binary: `fitrank mcp` started with pipes on stdin and
// stdout, as an MCP client starts it; each request is written and its answer read before the
// next, then stdin is closed and the server must exit 0.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

using Json = nlohmann::json;

struct Session {
  int exit_code = -1;
  std::vector<std::string> lines;  // stdout, one answer a line
};

// Runs `fitrank mcp` and talks to it in lockstep, as a client waiting for each answer does:
// each line of `input` is written, and unless it is a notification its answer is read before
// the next line is sent (a server that held answers back would hang here until the test's
// timeout). Then stdin is closed and the server must exit.
Session RunSession(const std::string& input, std::vector<std::string> flags = {}) {
  std::vector<std::string> args = {FITRANK_BINARY, "mcp"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  signal(SIGPIPE, SIG_IGN);
  int in_pipe[2], out_pipe[2];
  EXPECT_EQ(pipe(in_pipe), 0);
  EXPECT_EQ(pipe(out_pipe), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    close(in_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(out_pipe[1]);
    execv(FITRANK_BINARY, argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  std::vector<std::string> answers;
  std::string pending;  // read past the last answer's newline
  auto read_line = [&](std::string* line) {
    char buf[65536];
    size_t nl;
    while ((nl = pending.find('\n')) == std::string::npos) {
      ssize_t n = read(out_pipe[0], buf, sizeof(buf));
      if (n <= 0) return false;
      pending.append(buf, n);
    }
    *line = pending.substr(0, nl);
    pending.erase(0, nl + 1);
    return true;
  };
  for (absl::string_view request : absl::StrSplit(input, '\n', absl::SkipEmpty())) {
    std::string line = absl::StrCat(request, "\n");
    // A server that has exited (bad flags or data) closed its end: EPIPE, not SIGPIPE.
    if (write(in_pipe[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) break;
    if (absl::StrContains(request, "notifications/")) continue;
    std::string answer;
    if (!read_line(&answer)) break;
    answers.push_back(std::move(answer));
  }
  close(in_pipe[1]);
  for (std::string rest; read_line(&rest);) answers.push_back(std::move(rest));
  close(out_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Session s;
  s.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  s.lines = std::move(answers);
  return s;
}

TEST(McpSessionTest, InitializeListCallAndErrorsThroughAPipe) {
  const std::string input =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe-test","version":"0"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
      "\n"
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fit","arguments":{"model":"qwen3-30b-a3b","gpu":["RTX 4090"],"workload":"coding"}}})"
      "\n"
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"compare","arguments":{"gpus":["mi325x","h200 sxm"]}}})"
      "\n"
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"recommend","arguments":{"gpu":"4090","mode":"interactve"}}})"
      "\n"
      "this is not json\n"
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"estimate","arguments":{"gpu":"4090","model":"llama 3.1 8b","contxt":4096}}})"
      "\n";
  Session s = RunSession(input);
  EXPECT_EQ(s.exit_code, 0);
  ASSERT_EQ(s.lines.size(), 7u);  // the notification gets no answer
  std::vector<Json> r;
  for (const std::string& l : s.lines) r.push_back(Json::parse(l));

  EXPECT_EQ(r[0]["id"], 1);
  EXPECT_EQ(r[0]["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r[1]["result"]["tools"].size(), 6u);

  EXPECT_EQ(r[2]["id"], 3);
  EXPECT_EQ(r[2]["result"]["isError"], false);
  EXPECT_TRUE(r[2]["result"]["structuredContent"].is_object());

  EXPECT_EQ(r[3]["id"], 4);
  EXPECT_EQ(r[3]["result"]["isError"], false);

  EXPECT_EQ(r[4]["id"], 5);
  EXPECT_EQ(r[4]["result"]["isError"], true);
  EXPECT_EQ(r[4]["result"]["content"][0]["text"],
            "fitrank recommend: error: unknown mode `interactve`\n"
            "  hint: did you mean `interactive`?");

  EXPECT_EQ(r[5]["error"]["code"], -32700);
  EXPECT_TRUE(r[5]["id"].is_null());

  EXPECT_EQ(r[6]["id"], 6);
  EXPECT_EQ(r[6]["error"]["code"], -32602);
  EXPECT_EQ(r[6]["error"]["message"],
            "unknown argument `contxt` for tool `estimate` (did you mean `context`?)");
}

TEST(McpSessionTest, DataDirAppliesToEveryCall) {
  // The fixture catalog has the 4090 but no 3090.
  const std::string input =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"estimate","arguments":{"gpu":"GeForce RTX 4090","model":"llama 3.1 8b"}}})"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"estimate","arguments":{"gpu":"RTX 3090","model":"llama 3.1 8b"}}})"
      "\n";
  Session s =
      RunSession(input, {"--data", std::string(FITRANK_SOURCE_DIR) + "/tests/catalog/testdata"});
  EXPECT_EQ(s.exit_code, 0);
  ASSERT_EQ(s.lines.size(), 2u);
  Json ok = Json::parse(s.lines[0]), unknown = Json::parse(s.lines[1]);
  EXPECT_EQ(ok["result"]["isError"], false) << s.lines[0];
  EXPECT_EQ(unknown["result"]["isError"], true);
  EXPECT_THAT(unknown["result"]["content"][0]["text"].get<std::string>(),
              ::testing::StartsWith("fitrank estimate: error: unknown GPU `RTX 3090`"));
}

TEST(McpSessionTest, BrokenDataEndsTheServerBeforeTheFirstMessage) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "mcp_broken";
  fs::create_directories(dir / "catalog");
  fs::copy_file(std::string(FITRANK_SOURCE_DIR) +
                    "/tests/catalog/testdata/broken/syntax_error/gpus.yaml",
                dir / "catalog" / "gpus.yaml", fs::copy_options::overwrite_existing);
  Session s = RunSession(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {"--data", dir.string()});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_TRUE(s.lines.empty());
}

TEST(McpSessionTest, EmptyInputEndsTheSessionCleanly) {
  Session s = RunSession("");
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_TRUE(s.lines.empty());
}

}  // namespace
}  // namespace fitrank::cli
