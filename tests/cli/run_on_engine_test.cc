// Commands run in-process on a given Engine snapshot (RunOptions::engine), as the server and
// the MCP session run them.
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/file_source.h"
#include "cli/command.h"
#include "engine/engine.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

std::shared_ptr<const FileSource> Embedded() { return std::make_shared<EmbeddedSource>(); }

// The same page from one snapshot on several threads at once is the same page: builders keep
// no shared mutable state beyond the grader's guarded query cache.
TEST(Engine, OneSnapshotAnswersConcurrentCommandsIdentically) {
  Diagnostics diags;
  std::shared_ptr<const Engine> e = Engine::Load({.data = Embedded()}, &diags);
  ASSERT_NE(e, nullptr) << diags.Render();
  auto run = [&](std::vector<std::string> argv) {
    std::ostringstream out, err;
    argv.insert(argv.begin(), "fitrank");
    int rc = cli::RunCli(argv, out, err, cli::RunOptions{.engine = e});
    return std::to_string(rc) + "\n" + out.str() + err.str();
  };
  const std::vector<std::vector<std::string>> commands = {
      {"gpu", "RTX 3090", "--json"},
      {"recommend", "--gpu", "4090", "--workload", "coding", "--json"},
      {"fit", "qwen3-30b-a3b", "--gpu", "M4 Max 64GB", "--json"},
  };
  std::vector<std::string> expected;
  for (const auto& c : commands) expected.push_back(run(c));
  std::vector<std::string> got(commands.size() * 4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = run(commands[i % commands.size()]); });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], expected[i % commands.size()]) << "command " << i % commands.size();
  }
  EXPECT_EQ(expected[0].substr(0, 2), "0\n");
}

TEST(Engine, ASnapshotsSourcesAreFixed) {
  Diagnostics diags;
  std::shared_ptr<const Engine> e = Engine::Load({.data = Embedded()}, &diags);
  ASSERT_NE(e, nullptr);
  std::ostringstream out, err;
  int rc = cli::RunCli({"fitrank", "gpu", "4090", "--data", "/tmp"}, out, err,
                       cli::RunOptions{.engine = e});
  EXPECT_EQ(rc, 2);
  EXPECT_EQ(err.str(),
            "fitrank gpu: error: --data cannot be set here\n"
            "  hint: this process answers from the data and rules it was started with\n");
}

}  // namespace
}  // namespace fitrank
