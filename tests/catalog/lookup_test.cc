// Forgiving name lookup: exact names, word matching, ambiguity and suggestions, on a catalog
// built in code with the real products' names.
#include <string>
#include <vector>

#include "catalog/builder.h"
#include "catalog/catalog.h"
#include "catalog/internal/name_match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

Gpu G(std::string id, std::string name, std::string vendor, std::vector<std::string> aliases = {}) {
  Gpu g;
  g.id = std::move(id);
  g.name = std::move(name);
  g.vendor = std::move(vendor);
  g.aliases = std::move(aliases);
  return g;
}

Model M(std::string id, std::string name, std::string org, std::vector<std::string> aliases = {}) {
  Model m;
  m.id = std::move(id);
  m.name = std::move(name);
  m.org = std::move(org);
  m.aliases = std::move(aliases);
  return m;
}

std::unique_ptr<Catalog> TestCatalog() {
  CatalogBuilder b;
  b.Add(G("geforce-rtx-3060-8gb", "GeForce RTX 3060 8GB", "NVIDIA"))
      .Add(G("geforce-rtx-3060-12gb", "GeForce RTX 3060 12GB", "NVIDIA"))
      .Add(G("geforce-rtx-3060-ti", "GeForce RTX 3060 Ti", "NVIDIA"))
      .Add(G("geforce-rtx-4070", "GeForce RTX 4070", "NVIDIA"))
      .Add(G("geforce-rtx-4070-super", "GeForce RTX 4070 SUPER", "NVIDIA"))
      .Add(G("geforce-rtx-4070-ti", "GeForce RTX 4070 Ti", "NVIDIA"))
      .Add(G("geforce-rtx-4070-ti-super", "GeForce RTX 4070 Ti SUPER", "NVIDIA"))
      .Add(G("geforce-rtx-4090", "GeForce RTX 4090", "NVIDIA"))
      .Add(G("geforce-rtx-4090-d", "GeForce RTX 4090 D", "NVIDIA"))
      .Add(G("rtx-a6000", "RTX A6000", "NVIDIA"))
      .Add(G("rtx-6000-ada", "RTX 6000 Ada Generation", "NVIDIA"))
      .Add(G("nvidia-a100-pcie-40gb", "NVIDIA A100 PCIe 40GB", "NVIDIA"))
      .Add(G("nvidia-a100-pcie-80gb", "NVIDIA A100 PCIe 80GB", "NVIDIA"))
      .Add(G("nvidia-a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", "NVIDIA"))
      .Add(G("nvidia-a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", "NVIDIA"))
      .Add(G("nvidia-h100-pcie-80gb", "NVIDIA H100 PCIe 80GB", "NVIDIA"))
      .Add(G("nvidia-h100-sxm5-80gb", "NVIDIA H100 SXM5 80GB", "NVIDIA"))
      .Add(G("nvidia-h100-nvl-94gb", "NVIDIA H100 NVL 94GB", "NVIDIA"))
      .Add(G("nvidia-h200", "NVIDIA H200", "NVIDIA"))
      .Add(G("nvidia-h200-nvl-141gb", "NVIDIA H200 NVL 141GB", "NVIDIA"))
      .Add(G("instinct-mi300a", "Instinct MI300A", "AMD"))
      .Add(G("instinct-mi300x", "Instinct MI300X", "AMD"))
      .Add(G("instinct-mi325x", "Instinct MI325X", "AMD"))
      .Add(G("radeon-rx-7900-xt", "Radeon RX 7900 XT", "AMD"))
      .Add(G("radeon-rx-7900-xtx", "Radeon RX 7900 XTX", "AMD"))
      .Add(G("apple-m3-max-30c-36gb", "Apple M3 Max (30-core GPU) 36GB", "Apple"))
      .Add(G("apple-m3-max-40c-64gb", "Apple M3 Max (40-core GPU) 64GB", "Apple"))
      .Add(G("apple-m3-max-40c-128gb", "Apple M3 Max (40-core GPU) 128GB", "Apple"))
      .Add(G("apple-m3-pro-36gb", "Apple M3 Pro 36GB", "Apple"))
      .Add(G("dgx-spark", "NVIDIA DGX Spark (GB10)", "NVIDIA"));
  b.Add(M("llama-3.1-8b-instruct", "Llama 3.1 8B Instruct", "Meta", {"llama3.1:8b"}))
      .Add(M("llama-3.1-70b-instruct", "Llama 3.1 70B Instruct", "Meta"))
      .Add(M("llama-3.1-405b-instruct", "Llama 3.1 405B Instruct", "Meta"))
      .Add(M("llama-3-8b-instruct", "Llama 3 8B Instruct", "Meta"))
      .Add(M("qwen3-32b", "Qwen3 32B", "Qwen"))
      .Add(M("qwen3-32b-awq", "Qwen3 32B AWQ", "Qwen"))
      .Add(M("qwen3-30b-a3b", "Qwen3 30B A3B", "Qwen"))
      .Add(M("qwen3-coder-30b-a3b-instruct", "Qwen3 Coder 30B A3B Instruct", "Qwen"))
      .Add(M("qwen2.5-7b-instruct", "Qwen2.5 7B Instruct", "Qwen"))
      .Add(M("qwen2.5-coder-7b-instruct", "Qwen2.5 Coder 7B Instruct", "Qwen"))
      .Add(M("deepseek-r1", "DeepSeek R1", "DeepSeek"))
      .Add(M("deepseek-r1-distill-llama-8b", "DeepSeek R1 Distill Llama 8B", "DeepSeek"))
      .Add(M("deepseek-r1-distill-qwen-7b", "DeepSeek R1 Distill Qwen 7B", "DeepSeek"))
      .Add(M("gemma-3-27b-it", "Gemma 3 27B IT", "Google"))
      .Add(M("gemma-3-27b-pt", "Gemma 3 27B PT", "Google"))
      .Add(M("c4ai-command-r-08-2024", "Command R 08-2024 (35B)", "Cohere"))
      .Add(M("c4ai-command-r-plus", "Command R+ v01 (104B)", "Cohere"));
  return std::move(b).Build();
}

class LookupTest : public ::testing::Test {
 protected:
  std::string Gpu1(absl::string_view q) {
    auto r = catalog_->FindGpu(q);
    if (!r) return "<none>";
    return r.found->id;
  }
  std::vector<std::string> GpuAmbiguous(absl::string_view q) {
    std::vector<std::string> ids;
    for (const Gpu* g : catalog_->FindGpu(q).ambiguous) ids.push_back(g->id);
    return ids;
  }
  std::string Model1(absl::string_view q) {
    auto r = catalog_->FindModel(q);
    if (!r) return "<none>";
    return r.found->id;
  }
  std::vector<std::string> ModelAmbiguous(absl::string_view q) {
    std::vector<std::string> ids;
    for (const Model* m : catalog_->FindModel(q).ambiguous) ids.push_back(m->id);
    return ids;
  }
  std::unique_ptr<Catalog> catalog_ = TestCatalog();
};

TEST_F(LookupTest, ExactIdNameOrAliasIsExact) {
  auto r = catalog_->FindGpu("geforce-rtx-4090");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r.exact);
  EXPECT_TRUE(catalog_->FindGpu("GeForce RTX 4090").exact);
  EXPECT_TRUE(catalog_->FindGpu("geforce_rtx_4090").exact);
  EXPECT_TRUE(catalog_->FindModel("LLAMA3.1:8B").exact);
  EXPECT_FALSE(catalog_->FindGpu("4090").exact);
}

TEST_F(LookupTest, ForgivingGpuNames) {
  EXPECT_EQ(Gpu1("4090"), "geforce-rtx-4090");  // not the 4090 D
  EXPECT_EQ(Gpu1("rtx4090"), "geforce-rtx-4090");
  EXPECT_EQ(Gpu1("RTX 4090"), "geforce-rtx-4090");
  EXPECT_EQ(Gpu1("nvidia 4090"), "geforce-rtx-4090");
  EXPECT_EQ(Gpu1("gef 4090"), "geforce-rtx-4090");
  EXPECT_EQ(Gpu1("4090 d"), "geforce-rtx-4090-d");
  EXPECT_EQ(Gpu1("mi325x"), "instinct-mi325x");
  EXPECT_EQ(Gpu1("MI300X"), "instinct-mi300x");
  EXPECT_EQ(Gpu1("M3 Max 128GB"), "apple-m3-max-40c-128gb");
  EXPECT_EQ(Gpu1("m3 max 36gb"), "apple-m3-max-30c-36gb");
  EXPECT_EQ(Gpu1("h100 sxm"), "nvidia-h100-sxm5-80gb");
  EXPECT_EQ(Gpu1("h100 nvl"), "nvidia-h100-nvl-94gb");
  EXPECT_EQ(Gpu1("a100 sxm 80gb"), "nvidia-a100-sxm4-80gb");
  EXPECT_EQ(Gpu1("a6000"), "rtx-a6000");
  EXPECT_EQ(Gpu1("gb10"), "dgx-spark");
  EXPECT_EQ(Gpu1("dgx spark"), "dgx-spark");
  EXPECT_EQ(Gpu1("7900 xt"), "radeon-rx-7900-xt");   // exact word beats the prefix of "xtx"
  EXPECT_EQ(Gpu1("7900xtx"), "radeon-rx-7900-xtx");
}

TEST_F(LookupTest, BaseProductBeatsItsVariants) {
  EXPECT_EQ(Gpu1("4070"), "geforce-rtx-4070");
  EXPECT_EQ(Gpu1("4070 ti"), "geforce-rtx-4070-ti");
  EXPECT_EQ(Gpu1("4070 super"), "geforce-rtx-4070-super");
  EXPECT_EQ(Gpu1("3060 ti"), "geforce-rtx-3060-ti");
  EXPECT_EQ(Gpu1("h200"), "nvidia-h200");  // needs no qualifier, unlike H200 NVL
}

TEST_F(LookupTest, AmbiguousListsTheCandidates) {
  EXPECT_THAT(GpuAmbiguous("3060"),
              ElementsAre("geforce-rtx-3060-8gb", "geforce-rtx-3060-12gb"));
  EXPECT_THAT(GpuAmbiguous("a100 80gb"),
              ElementsAre("nvidia-a100-pcie-80gb", "nvidia-a100-sxm4-80gb"));
  EXPECT_THAT(GpuAmbiguous("a100"), ElementsAre("nvidia-a100-pcie-40gb", "nvidia-a100-pcie-80gb",
                                                "nvidia-a100-sxm4-40gb", "nvidia-a100-sxm4-80gb"));
  EXPECT_THAT(GpuAmbiguous("h100"), UnorderedElementsAre("nvidia-h100-pcie-80gb",
                                                         "nvidia-h100-sxm5-80gb",
                                                         "nvidia-h100-nvl-94gb"));
  EXPECT_THAT(GpuAmbiguous("mi300"), ElementsAre("instinct-mi300a", "instinct-mi300x"));
  EXPECT_THAT(GpuAmbiguous("m3 max"), ElementsAre("apple-m3-max-30c-36gb", "apple-m3-max-40c-64gb",
                                                  "apple-m3-max-40c-128gb"));
  auto r = catalog_->FindGpu("3060");
  EXPECT_EQ(r.found, nullptr);
  EXPECT_TRUE(r.suggestions.empty());
}

TEST_F(LookupTest, ForgivingModelNames) {
  EXPECT_EQ(Model1("llama 3.1 405b"), "llama-3.1-405b-instruct");
  EXPECT_EQ(Model1("llama 3.1 8b"), "llama-3.1-8b-instruct");  // the instruct model is the default
  EXPECT_EQ(Model1("llama3.1 8b"), "llama-3.1-8b-instruct");
  EXPECT_EQ(Model1("llama 3 8b"), "llama-3-8b-instruct");      // "3" is not "3.1"
  EXPECT_EQ(Model1("qwen3-30b-a3b"), "qwen3-30b-a3b");
  EXPECT_EQ(Model1("qwen3 30b"), "qwen3-30b-a3b");             // not the Coder
  EXPECT_EQ(Model1("qwen3 coder 30b"), "qwen3-coder-30b-a3b-instruct");
  EXPECT_EQ(Model1("qwen3 32b"), "qwen3-32b");                 // exact beats "32B AWQ"
  EXPECT_EQ(Model1("qwen 3 32b"), "qwen3-32b");
  EXPECT_EQ(Model1("qwen2.5 7b"), "qwen2.5-7b-instruct");
  EXPECT_EQ(Model1("deepseek r1"), "deepseek-r1");
  EXPECT_EQ(Model1("r1 distill llama"), "deepseek-r1-distill-llama-8b");
  EXPECT_EQ(Model1("meta llama 3.1 70b"), "llama-3.1-70b-instruct");
  EXPECT_EQ(Model1("gemma 3 27b"), "gemma-3-27b-it");         // "it" qualifies, "pt" does not
  EXPECT_EQ(Model1("command r+"), "c4ai-command-r-plus");      // "r+" is not "r"
  EXPECT_NE(Model1("command r"), "c4ai-command-r-plus");
  EXPECT_THAT(ModelAmbiguous("deepseek r1 distill"),
              ElementsAre("deepseek-r1-distill-llama-8b", "deepseek-r1-distill-qwen-7b"));
  EXPECT_THAT(ModelAmbiguous("llama 3.1"),
              ElementsAre("llama-3.1-8b-instruct", "llama-3.1-70b-instruct",
                          "llama-3.1-405b-instruct"));
}

TEST_F(LookupTest, UnknownNamesGetUpToThreeSuggestions) {
  auto r = catalog_->FindGpu("rtx 4099");
  EXPECT_FALSE(r);
  EXPECT_TRUE(r.ambiguous.empty());
  ASSERT_FALSE(r.suggestions.empty());
  EXPECT_LE(r.suggestions.size(), 3u);
  EXPECT_EQ(r.suggestions[0], "GeForce RTX 4090");

  auto m = catalog_->FindModel("lama 3.1 8b");
  EXPECT_FALSE(m);
  ASSERT_FALSE(m.suggestions.empty());
  EXPECT_EQ(m.suggestions[0], "Llama 3.1 8B Instruct");

  EXPECT_TRUE(catalog_->FindGpu("zzzzqqqq").suggestions.empty());
  EXPECT_FALSE(catalog_->FindGpu(""));
  EXPECT_FALSE(catalog_->FindGpu("  - "));
}

TEST(NameMatchTest, Tokens) {
  auto texts = [](absl::string_view s) {
    std::vector<std::string> out;
    for (const auto& t : catalog_internal::QueryTokens(s)) out.push_back(t.text);
    return out;
  };
  EXPECT_THAT(texts("RTX4090"), ElementsAre("rtx", "4090"));
  EXPECT_THAT(texts("M3 Max 128GB"), ElementsAre("m", "3", "max", "128", "gb"));
  EXPECT_THAT(texts("qwen3-30b-a3b"), ElementsAre("qwen", "3", "30", "b", "a", "3", "b"));
  EXPECT_THAT(texts("Llama-3.1 8B"), ElementsAre("llama", "3.1", "8", "b"));
  EXPECT_THAT(texts("llama3.1:8b"), ElementsAre("llama", "3.1", "8", "b"));
  EXPECT_THAT(texts("v1. end."), ElementsAre("v", "1", "end"));
  EXPECT_THAT(texts("Ryzen AI Max+ 395"), ElementsAre("ryzen", "ai", "max+", "395"));
  EXPECT_THAT(texts("Command R+"), ElementsAre("command", "r+"));
}

TEST(NameMatchTest, QualifierWords) {
  using catalog_internal::MakeForm;
  using catalog_internal::QueryTokens;
  using catalog_internal::ScoreForm;
  auto s = ScoreForm(QueryTokens("3060"), MakeForm("GeForce RTX 3060 12GB"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->extras, 0);
  EXPECT_EQ(s->qualifiers, 1);  // 12gb; brand words (geforce, rtx) cost nothing
  s = ScoreForm(QueryTokens("3060"), MakeForm("GeForce RTX 3060 Ti"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->extras, 1);  // ti changes the product
  s = ScoreForm(QueryTokens("m3 max"), MakeForm("M3 Max (40-core GPU) 128GB", "Apple"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->extras, 0);
  EXPECT_EQ(s->qualifiers, 4);  // 40, core, gpu, 128gb
  EXPECT_FALSE(ScoreForm(QueryTokens("3"), MakeForm("Llama 3.1")));
  EXPECT_FALSE(ScoreForm(QueryTokens("4090 4090"), MakeForm("RTX 4090")));
}

}  // namespace
}  // namespace fitrank
