// Installed models: the Hugging Face cache (a fake hub directory) and Ollama (a fake server on
// 127.0.0.1, ephemeral port, serving fixture JSON), listed by `detect` and ranked by
// `recommend --installed`.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tests/cli/cli_run.h"
#include "tests/cli/detect_fixture.h"
#include "tests/gguf_writer.h"

namespace fitrank::cli {
namespace {

constexpr char kTags[] = R"({"models": [
  {"name": "llama3.1:8b", "model": "llama3.1:8b", "size": 4920753328, "digest": "46e0c10c039e",
   "details": {"format": "gguf", "family": "llama", "parameter_size": "8.0B", "quantization_level": "Q4_K_M"}},
  {"name": "qwen2.5:7b", "model": "qwen2.5:7b", "size": 8098525888,
   "details": {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q8_0"}},
  {"name": "mystery-model:latest", "size": 1000000000, "details": {"quantization_level": "Q4_0"}}
]})";

// An Ollama stand-in answering GET /api/tags with `status` and `body`, on 127.0.0.1.
class FakeOllama {
 public:
  FakeOllama(int status, std::string body) {
    server_.Get("/api/tags", [status, body](const httplib::Request&, httplib::Response& res) {
      res.status = status;
      res.set_content(body, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FakeOllama() {
    server_.stop();
    thread_.join();
  }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

class LocalModels : public FakeMachine {
 protected:
  void SetUp() override {
    FakeMachine::SetUp();
    Host64GB();
  }
  void HubModel(const std::string& dir, const std::string& config) {
    const std::string snap = this->dir() + "/hub/" + dir + "/snapshots/0123abcd";
    std::filesystem::create_directories(snap);
    if (!config.empty()) std::ofstream(snap + "/config.json") << config;
  }
};

TEST_F(LocalModels, DetectListsOllamaAndTheHuggingFaceCache) {
  FakeOllama ollama(200, kTags);
  setenv("OLLAMA_HOST", ("http://" + ollama.host()).c_str(), 1);
  HubModel("models--meta-llama--Llama-3.1-8B-Instruct", R"({"model_type": "llama"})");
  HubModel("models--someone--Not-A-Catalog-Model", R"({"model_type": "llama"})");
  HubModel("models--broken--download", "");
  nlohmann::json j = FitrankJson({"detect"});
  const nlohmann::json& m = j["models"];
  ASSERT_EQ(m.size(), 5u) << m.dump(2);
  EXPECT_EQ(m[0]["source"], "hf-cache");
  EXPECT_EQ(m[0]["name"], "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(m[0]["catalog_id"], "llama-3.1-8b-instruct");
  EXPECT_EQ(m[0]["match"], "by repo");
  EXPECT_EQ(m[1]["name"], "someone/Not-A-Catalog-Model");
  EXPECT_TRUE(m[1]["catalog_id"].is_null());
  EXPECT_EQ(m[2]["source"], "ollama");
  EXPECT_EQ(m[2]["name"], "llama3.1:8b");
  EXPECT_EQ(m[2]["quant"], "Q4_K_M");
  EXPECT_EQ(m[2]["size_gb"], 4.92);
  EXPECT_EQ(m[2]["catalog_id"], "llama-3.1-8b-instruct");
  EXPECT_EQ(m[2]["match"], "by Ollama tag");
  EXPECT_EQ(m[3]["catalog_id"], "qwen2.5-7b-instruct");
  EXPECT_EQ(m[4]["match"], "not in the catalog");
  EXPECT_EQ(j["notes"][0], "hf-cache: broken/download: no snapshot with a config.json");
}

TEST_F(LocalModels, RecommendInstalledRanksOnlyWhatIsInstalled) {
  FakeOllama ollama(200, kTags);
  setenv("OLLAMA_HOST", ollama.host().c_str(), 1);
  nlohmann::json j = FitrankJson({"recommend", "--gpu", "4090", "--installed", "--top", "5"});
  const nlohmann::json& picks = j["picks"];
  ASSERT_EQ(picks.size(), 2u) << j.dump(2);
  std::set<std::string> ids;
  for (const nlohmann::json& p : picks) {
    ids.insert(p["model_id"].get<std::string>());
    EXPECT_EQ(p["reasons"][0].get<std::string>().rfind("Installed: Ollama `", 0), 0u)
        << p["reasons"][0];
  }
  EXPECT_EQ(ids, (std::set<std::string>{"llama-3.1-8b-instruct", "qwen2.5-7b-instruct"}));
  EXPECT_EQ(picks[0]["rank"], 1);
  EXPECT_EQ(picks[1]["rank"], 2);
  bool unmapped_noted = false;
  for (const nlohmann::json& n : j["notes"]) {
    unmapped_noted |=
        n == "Installed but not in the catalog, so not ranked: `mystery-model:latest`.";
  }
  EXPECT_TRUE(unmapped_noted) << j["notes"].dump();
}

TEST_F(LocalModels, RecommendInstalledRanksAGgufFileWithThem) {
  FakeOllama ollama(200, kTags);
  setenv("OLLAMA_HOST", ollama.host().c_str(), 1);
  const std::string path = dir() + "/synthetic-7b.gguf";
  testing::Llama7BShaped().Write(path);
  nlohmann::json j =
      FitrankJson({"recommend", "--gpu", "4090", "--installed", "--model-gguf", path});
  const nlohmann::json& picks = j["picks"];
  ASSERT_EQ(picks.size(), 3u) << j.dump(2);
  bool found = false;
  for (size_t i = 0; i < picks.size(); ++i) {
    EXPECT_EQ(picks[i]["rank"], i + 1);
    if (i > 0) EXPECT_GE(picks[i - 1]["score"].get<double>(), picks[i]["score"].get<double>());
    if (picks[i]["model_id"] != "gguf:Synthetic 7B") continue;
    found = true;
    EXPECT_EQ(picks[i]["quant"], "Q4_K_M");
    EXPECT_EQ(picks[i]["reasons"][0],
              "Installed: the GGUF file `" + path + "`, sized from its tensors.");
    EXPECT_FALSE(picks[i]["grade"].get<std::string>().empty());
  }
  EXPECT_TRUE(found);

  CliRun r = Fitrank({"recommend", "--gpu", "4090", "--model-gguf", path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank recommend: error: --model-gguf needs --installed on recommend\n"
            "  hint: fitrank recommend --installed --model-gguf file.gguf\n");
}

TEST_F(LocalModels, NothingInstalledIsSaid) {
  CliRun r = Fitrank({"recommend", "--gpu", "4090", "--installed"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("No installed model found (Hugging Face cache, Ollama)"), std::string::npos)
      << r.out;
}

TEST_F(LocalModels, OllamaErrorsGarbageAndRemoteHostsAreNotes) {
  {
    FakeOllama ollama(500, "{}");
    setenv("OLLAMA_HOST", ollama.host().c_str(), 1);
    nlohmann::json j = FitrankJson({"detect"});
    EXPECT_EQ(j["notes"][0], "ollama: " + ollama.host() + " answered /api/tags with HTTP 500");
  }
  {
    FakeOllama ollama(200, "<html>hello</html>");
    setenv("OLLAMA_HOST", ollama.host().c_str(), 1);
    nlohmann::json j = FitrankJson({"detect"});
    EXPECT_EQ(j["notes"][0],
              "ollama: /api/tags did not answer the JSON expected ({\"models\": [...]})");
  }
  setenv("OLLAMA_HOST", "http://192.0.2.7:11434", 1);
  nlohmann::json j = FitrankJson({"detect"});
  EXPECT_EQ(j["notes"][0],
            "ollama: OLLAMA_HOST points to `192.0.2.7`, not this machine: not asked (fitrank only "
            "asks loopback)");
}

}  // namespace
}  // namespace fitrank::cli
