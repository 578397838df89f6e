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
#include "tests/cli/detect_fixture.h"
#include "tests/scratch_dir.h"

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
  EXPECT_EQ(r[1]["result"]["tools"].size(), 7u);

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
  const fs::path dir = fitrank::testing::ScratchDir("mcp_broken");
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

// The detect tool and the tools without a GPU, in one session on a fake machine (fake
// nvidia-smi on PATH, fake /proc; tests/cli/detect_fixture.h): the server inherits the
// environment an MCP client starts it with.
using McpOnAFakeMachine = FakeMachine;

std::string Call(int id, const std::string& tool, const std::string& arguments) {
  return absl::StrCat(R"({"jsonrpc":"2.0","id":)", id,
                      R"(,"method":"tools/call","params":{"name":")", tool,
                      R"(","arguments":)", arguments, "}}\n");
}

TEST_F(McpOnAFakeMachine, DetectAndTheToolsWithoutAGpuUseThisMachine) {
  ToolPrinting("nvidia-smi", kOne4090);
  Host64GB();
  Session s = RunSession(Call(1, "detect", "{}") +
                         Call(2, "recommend", R"({"workload":"coding","top":2})") +
                         Call(3, "gpu", "{}") +
                         Call(4, "fit", R"({"model":"llama 3.1 8b","free_memory":true})") +
                         Call(5, "upgrade", R"({"budget":2000})") +
                         Call(6, "estimate", R"({"model":"llama 3.1 8b"})") +
                         Call(7, "recommend", R"({"gpu":["RTX 3090"],"free_memory":true})"));
  EXPECT_EQ(s.exit_code, 0);
  ASSERT_EQ(s.lines.size(), 7u);
  std::vector<Json> r;
  for (const std::string& l : s.lines) r.push_back(Json::parse(l));

  const Json& detect = r[0]["result"];
  EXPECT_EQ(detect["isError"], false) << s.lines[0];
  ASSERT_EQ(detect["structuredContent"]["gpus"].size(), 1u);
  EXPECT_EQ(detect["structuredContent"]["gpus"][0]["catalog"]["id"], "geforce-rtx-4090");
  EXPECT_EQ(detect["structuredContent"]["host"]["cpu_model"],
            "AMD Ryzen 9 7950X 16-Core Processor");

  // Each call without a GPU ran on the detected 4090 and says so in its result.
  for (size_t i = 1; i <= 5; ++i) {
    const Json& res = r[i]["result"];
    EXPECT_EQ(res["isError"], false) << i;
    ASSERT_EQ(res["content"].size(), 2u) << i;
    EXPECT_THAT(res["content"][1]["text"].get<std::string>(),
                ::testing::StartsWith("Using the detected setup: GeForce RTX 4090 ("))
        << i;
  }
  EXPECT_EQ(r[1]["result"]["content"][1]["text"],
            "Using the detected setup: GeForce RTX 4090 (nvidia-smi), 62.5 GiB RAM (--gpu NAME to "
            "choose another)");
  EXPECT_EQ(r[1]["result"]["structuredContent"]["setup"]["label"], "GeForce RTX 4090");
  EXPECT_EQ(r[1]["result"]["structuredContent"]["picks"].size(), 2u);
  EXPECT_EQ(r[3]["result"]["content"][1]["text"],
            "Using the detected setup: GeForce RTX 4090 (22.6 GB free) (nvidia-smi), free memory "
            "only, 62.5 GiB RAM (--gpu NAME to choose another)");
  EXPECT_EQ(r[5]["result"]["structuredContent"]["setup"]["gpu_count"], 1);

  // free_memory with a named GPU is the command's own usage error.
  EXPECT_EQ(r[6]["result"]["isError"], true);
  EXPECT_EQ(r[6]["result"]["content"][0]["text"],
            "fitrank recommend: error: --free-memory needs the detected setup\n"
            "  hint: drop --gpu, or use --gpu auto");
}

TEST_F(McpOnAFakeMachine, NoGpuDetectedIsAToolErrorThatSaysWhatToDo) {
  Tool("nvidia-smi", "echo 'NVIDIA-SMI has failed' >&2; exit 9");
  Host64GB();
  Session s = RunSession(Call(1, "detect", "{}") + Call(2, "recommend", "{}"));
  EXPECT_EQ(s.exit_code, 0);
  ASSERT_EQ(s.lines.size(), 2u);
  Json detect = Json::parse(s.lines[0]), rec = Json::parse(s.lines[1]);
  EXPECT_EQ(detect["result"]["isError"], false);
  EXPECT_TRUE(detect["result"]["structuredContent"]["gpus"].empty());
  EXPECT_EQ(detect["result"]["structuredContent"]["notes"][0],
            "nvidia-smi: exited with status 9");
  EXPECT_EQ(rec["result"]["isError"], true);
  EXPECT_THAT(rec["result"]["content"][0]["text"].get<std::string>(),
              ::testing::StartsWith(
                  "fitrank recommend: error: no GPU given, and none detected on this machine"));
}

}  // namespace
}  // namespace fitrank::cli
