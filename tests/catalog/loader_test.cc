// Catalog::Load on the fixture catalog, and the exact diagnostics for broken files.
#include <string>

#include "catalog/catalog.h"
#include "catalog/vocabulary.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"
#include "tests/golden.h"

namespace fitrank {
namespace {

using testing::BrokenCatalog;
using testing::FixtureCatalog;

TEST(LoaderTest, LoadsFixtureWithoutDiagnostics) {
  Diagnostics diags;
  auto catalog = Catalog::Load(FixtureCatalog(), &diags);
  ASSERT_NE(catalog, nullptr) << diags.Render();
  EXPECT_TRUE(diags.empty()) << diags.Render();
  EXPECT_EQ(catalog->gpus().size(), 3u);
  EXPECT_EQ(catalog->models().size(), 3u);
  EXPECT_EQ(catalog->diffusion().size(), 2u);
  EXPECT_EQ(catalog->quants().size(), 3u);
  EXPECT_EQ(catalog->runtimes().size(), 2u);
  EXPECT_EQ(catalog->interconnects().size(), 2u);
  EXPECT_EQ(catalog->prices().size(), 2u);
}

TEST(LoaderTest, ReadsEveryGpuField) {
  Diagnostics diags;
  auto catalog = Catalog::Load(FixtureCatalog(), &diags);
  ASSERT_NE(catalog, nullptr) << diags.Render();
  const Gpu* g = catalog->GpuById("geforce-rtx-4090");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->name, "GeForce RTX 4090");
  EXPECT_EQ(g->vendor, "NVIDIA");
  EXPECT_EQ(g->aliases, (std::vector<std::string>{"4090", "rtx 4090"}));
  EXPECT_EQ(g->segment, Segment::kConsumer);
  EXPECT_DOUBLE_EQ(g->memory_gb, 24);
  EXPECT_EQ(g->memory_bus_bits, 384);
  EXPECT_DOUBLE_EQ(g->bandwidth_gbps, 1008);
  EXPECT_DOUBLE_EQ(g->fp16_tflops, 330.3);
  EXPECT_DOUBLE_EQ(g->fp16_fp32acc_tflops, 165.2);
  EXPECT_DOUBLE_EQ(g->fp8_tflops, 660.6);
  EXPECT_DOUBLE_EQ(g->fp4_tflops, 0);
  EXPECT_EQ(g->platforms, (std::vector<std::string>{"CUDA", "Vulkan"}));
  EXPECT_EQ(g->interconnect, "pcie4-x16");
  EXPECT_DOUBLE_EQ(g->msrp_usd, 1599);
  EXPECT_FALSE(g->unified_memory);
  EXPECT_DOUBLE_EQ(g->gpu_memory_share, 1.0);  // default
  EXPECT_EQ(g->source.key, "vendor-specs");
  EXPECT_EQ(g->source.text, "Vendor datasheets (test fixture)");

  const Gpu* m3 = catalog->GpuById("apple-m3-max-40c-128gb");
  ASSERT_NE(m3, nullptr);
  EXPECT_EQ(m3->segment, Segment::kApple);
  EXPECT_TRUE(m3->unified_memory);
  EXPECT_DOUBLE_EQ(m3->gpu_memory_share, 0.75);
}

TEST(LoaderTest, AppliesModelDefaults) {
  Diagnostics diags;
  auto catalog = Catalog::Load(FixtureCatalog(), &diags);
  ASSERT_NE(catalog, nullptr) << diags.Render();
  const Model* llama = catalog->ModelById("llama-3.1-8b-instruct");
  ASSERT_NE(llama, nullptr);
  EXPECT_DOUBLE_EQ(llama->active_params_b, llama->params_b);  // dense: active = total
  EXPECT_EQ(llama->attention.kind, AttentionKind::kFull);
  EXPECT_EQ(llama->attention.kv_layers, 32);  // = layers when absent
  EXPECT_DOUBLE_EQ(llama->quality.score, 48.5);
  EXPECT_FALSE(llama->quality.estimated);
  // No coding/math categories in the fixture: they default to the text score and its flag.
  EXPECT_DOUBLE_EQ(llama->quality.coding, 48.5);
  EXPECT_FALSE(llama->quality.coding_estimated);
  EXPECT_DOUBLE_EQ(llama->quality.math, 48.5);
  EXPECT_FALSE(llama->quality.math_estimated);
  EXPECT_EQ(llama->release_date, "2024-07-23");

  const Model* moe = catalog->ModelById("qwen3-30b-a3b");
  ASSERT_NE(moe, nullptr);
  EXPECT_DOUBLE_EQ(moe->active_params_b, 3.3);
  EXPECT_EQ(moe->experts, 128);
  EXPECT_TRUE(moe->quality.estimated);
  EXPECT_TRUE(moe->quality.coding_estimated);
  EXPECT_TRUE(moe->quality.math_estimated);

  const Model* gemma = catalog->ModelById("gemma-3-27b-it");
  ASSERT_NE(gemma, nullptr);
  EXPECT_EQ(gemma->attention.kind, AttentionKind::kSlidingMix);
  EXPECT_EQ(gemma->attention.kv_layers, 62);
  EXPECT_EQ(gemma->attention.sliding_window, 1024);
  EXPECT_EQ(gemma->attention.sliding_window_layers, 52);
}

TEST(LoaderTest, ReadsOtherKinds) {
  Diagnostics diags;
  auto catalog = Catalog::Load(FixtureCatalog(), &diags);
  ASSERT_NE(catalog, nullptr) << diags.Render();
  const DiffusionModel* wan = catalog->DiffusionById("wan-2.1-t2v-14b");
  ASSERT_NE(wan, nullptr);
  EXPECT_EQ(wan->kind, DiffusionKind::kVideo);
  EXPECT_EQ(wan->frames, 81);
  EXPECT_EQ(wan->latent_downsample, 8);  // default
  EXPECT_DOUBLE_EQ(wan->active_params_b, 14);
  EXPECT_EQ(wan->cfg_passes, 2);
  EXPECT_EQ(wan->hidden_size, 5120);
  EXPECT_EQ(wan->attention_layers, 40);
  EXPECT_DOUBLE_EQ(wan->token_params_b, 11.95);
  EXPECT_EQ(wan->text_tokens, 0);  // default
  EXPECT_FALSE(wan->per_frame_attention);
  const DiffusionModel* sdxl = catalog->DiffusionById("sdxl-base-1.0");
  ASSERT_NE(sdxl, nullptr);
  EXPECT_EQ(sdxl->kind, DiffusionKind::kImage);
  EXPECT_EQ(sdxl->cfg_passes, 2);  // default: classifier-free guidance
  EXPECT_DOUBLE_EQ(sdxl->gflops_per_pass, 6761.2);
  EXPECT_DOUBLE_EQ(sdxl->attention_gflops_per_pass, 751.6);
  const Quant* fp8 = catalog->QuantById("FP8");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->requires_precision, "FP8");
  EXPECT_EQ(fp8->runtimes, (std::vector<std::string>{"vllm"}));
  const Runtime* vllm = catalog->RuntimeById("vllm");
  ASSERT_NE(vllm, nullptr);
  EXPECT_TRUE(vllm->serving);
  ASSERT_NE(catalog->InterconnectById("nvlink4"), nullptr);
  EXPECT_DOUBLE_EQ(catalog->InterconnectById("nvlink4")->bandwidth_gbps, 450);
  const Price* p = catalog->PriceFor("nvidia-h100-sxm5-80gb");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->cloud_usd_per_hour, 2.99);
  EXPECT_DOUBLE_EQ(p->street_usd, 0);
  EXPECT_EQ(catalog->PriceFor("apple-m3-max-40c-128gb"), nullptr);
  EXPECT_EQ(catalog->GpuById("4090"), nullptr);  // ById is exact ids only
}

// A diffusion model's kind is one of the vocabulary's words (read into DiffusionKind); another
// word is one located error with the closest word, and no consistency check that needs the
// kind (video without frames, image with frames) guesses one.
TEST(LoaderTest, DiffusionKindIsAWordOfTheVocabulary) {
  EXPECT_EQ(DiffusionKindNames(), (std::vector<std::string>{"image", "video"}));
  for (const std::string& name : DiffusionKindNames()) {
    ASSERT_TRUE(ParseDiffusionKind(name).has_value()) << name;
    EXPECT_EQ(DiffusionKindName(*ParseDiffusionKind(name)), name);
  }
  EXPECT_FALSE(ParseDiffusionKind("Video").has_value());

  MemorySource src = FixtureCatalog();
  const std::string path = "catalog/diffusion.yaml";
  const std::string text = *src.Read(path);
  const size_t at = text.find("kind: video");
  ASSERT_NE(at, std::string::npos);
  src.Set(path, std::string(text).replace(at, 11, "kind: vidoe"));
  Diagnostics diags;
  EXPECT_EQ(Catalog::Load(src, &diags), nullptr);
  EXPECT_EQ(diags.all().size(), 1u) << diags.Render();
  const std::string out = diags.Render();
  EXPECT_NE(out.find("catalog/diffusion.yaml:"), std::string::npos) << out;
  EXPECT_NE(out.find("vidoe"), std::string::npos) << out;
  EXPECT_NE(out.find("did you mean `video`?"), std::string::npos) << out;
}

// Each broken catalog: nothing is loaded, and the rendered diagnostics are exactly the golden
// file's text (tests/golden/catalog/<case>.txt).
class BrokenCatalogTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BrokenCatalogTest, ReportsEveryProblem) {
  Diagnostics diags;
  auto catalog = Catalog::Load(BrokenCatalog(GetParam()), &diags);
  EXPECT_EQ(catalog, nullptr);
  EXPECT_TRUE(diags.HasErrors());
  EXPECT_GOLDEN(diags.Render(), std::string("catalog/") + GetParam() + ".txt");
}

INSTANTIATE_TEST_SUITE_P(Goldens, BrokenCatalogTest,
                         ::testing::Values("syntax_error", "missing_field", "wrong_type",
                                           "out_of_range", "duplicate_names", "unknown_key",
                                           "bad_references", "model_consistency", "frame",
                                           "diffusion_consistency"),
                         [](const auto& info) { return std::string(info.param); });

TEST(LoaderTest, EveryDiagnosticHasAPositionAndAHint) {
  for (const char* name : {"missing_field", "wrong_type", "out_of_range", "duplicate_names",
                           "unknown_key", "bad_references", "model_consistency"}) {
    Diagnostics diags;
    Catalog::Load(BrokenCatalog(name), &diags);
    for (const Diagnostic& d : diags.all()) {
      EXPECT_GT(d.where.line, 0) << name << ": " << diags.Render(d);
      EXPECT_GT(d.where.col, 0) << name << ": " << diags.Render(d);
      EXPECT_FALSE(d.hint.empty()) << name << ": " << diags.Render(d);
    }
  }
}

TEST(LoaderTest, DiagnosticsAppendToExistingOnes) {
  Diagnostics diags;
  diags.Warning("earlier", {}, "an earlier warning");
  auto catalog = Catalog::Load(FixtureCatalog(), &diags);
  EXPECT_NE(catalog, nullptr);  // earlier problems of others do not fail the catalog
}

}  // namespace
}  // namespace fitrank
