// engine/report_env.h: run commands built from the runtimes' templates.
#include "engine/report/env.h"

#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

TEST(RunCommand, LlamaCppUsesAKnownGgufRepoElseNamesALocalFile) {
  const testing::ShippedEngine& e = Shipped();
  const Runtime& llama = *e.catalog->RuntimeById("llama.cpp");
  const Quant& q4 = *e.catalog->QuantById("Q4_K_M");
  fitrank::Setup setup = e.SetupOf("RTX 4090");
  const Model& known = *e.catalog->ModelById("qwen3-30b-a3b-instruct-2507");
  ASSERT_FALSE(known.gguf_repo.empty());
  EXPECT_EQ(RunCommandFor(llama, known, q4, setup, 32768, "q8_0"),
            "llama-server -hf " + known.gguf_repo +
                ":Q4_K_M -c 32768 -ngl 99 -ctk q8_0 -ctv q8_0");
  Model unknown = known;
  unknown.gguf_repo.clear();
  EXPECT_EQ(RunCommandFor(llama, unknown, q4, setup, 4096),
            "llama-server -m qwen3-30b-a3b-instruct-2507-Q4_K_M.gguf -c 4096 -ngl 99 -ctk f16 "
            "-ctv f16");
  // No template is left with a placeholder it does not fill.
  for (const Runtime& r : e.catalog->runtimes()) {
    std::string cmd = RunCommandFor(r, known, q4, setup, 4096);
    EXPECT_EQ(cmd.find('{'), std::string::npos) << r.id << ": " << cmd;
  }
}

TEST(RunCommand, GgufReposAreNamedHuggingFaceGgufRepos) {
  int with = 0;
  for (const Model& m : Shipped().catalog->models()) {
    if (m.gguf_repo.empty()) continue;
    ++with;
    EXPECT_NE(m.gguf_repo.find('/'), std::string::npos) << m.id;
    EXPECT_NE(m.gguf_repo.find("GGUF"), std::string::npos) << m.id << ": " << m.gguf_repo;
  }
  EXPECT_GT(with, 100);
}

}  // namespace
}  // namespace fitrank
