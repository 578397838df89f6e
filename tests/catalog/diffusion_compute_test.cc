// The shipped diffusion catalog's compute fields (tools/catalog_other.py DIFFUSION_COMPUTE):
// present for every model and consistent with the published layouts.
#include <memory>
#include <string>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"

namespace fitrank {
namespace {

TEST(ShippedDiffusionCompute, EveryModelHasAStepCostBasis) {
  for (const DiffusionModel& d : testing::ShippedCatalog().diffusion()) {
    SCOPED_TRACE(d.id);
    EXPECT_TRUE(d.cfg_passes == 1 || d.cfg_passes == 2);
    EXPECT_LE(d.token_params_b, d.active_params_b);
    EXPECT_LE(d.attention_gflops_per_pass, d.gflops_per_pass);
    if (d.gflops_per_pass > 0) {
      // A UNet: FLOPs from tools/diffusion_flops.py and a width for the activations.
      EXPECT_GT(d.attention_gflops_per_pass, 0);
      EXPECT_GT(d.hidden_size, 0);
    }
    // Every entry says where its compute layout comes from.
    EXPECT_NE(d.notes.find("compute: "), std::string::npos);
  }
}

TEST(ShippedDiffusionCompute, PublishedLayouts) {
  const DiffusionModel* flux = testing::ShippedCatalog().DiffusionById("flux.1-dev");
  ASSERT_NE(flux, nullptr);
  EXPECT_EQ(flux->cfg_passes, 1);          // guidance-distilled
  EXPECT_EQ(flux->hidden_size, 3072);      // config.json: 24 heads x 128
  EXPECT_EQ(flux->attention_layers, 57);   // 19 double + 38 single blocks
  EXPECT_NEAR(flux->token_params_b, 6.455, 0.01);
  EXPECT_EQ(flux->text_tokens, 512);
  const DiffusionModel* sd15 = testing::ShippedCatalog().DiffusionById("sd-1.5");
  ASSERT_NE(sd15, nullptr);
  EXPECT_EQ(sd15->cfg_passes, 2);
  // BK-SDM (arXiv:2305.15798) counts 338.7 GMACs without the attention matmuls.
  EXPECT_NEAR((sd15->gflops_per_pass - sd15->attention_gflops_per_pass) / 2, 338.7, 5);
  const DiffusionModel* kontext = testing::ShippedCatalog().DiffusionById("flux.1-kontext-dev");
  ASSERT_NE(kontext, nullptr);
  EXPECT_EQ(kontext->context_images, 1);
  const DiffusionModel* svd = testing::ShippedCatalog().DiffusionById("svd-xt");
  ASSERT_NE(svd, nullptr);
  EXPECT_TRUE(svd->per_frame_attention);
  for (const char* id : {"sdxl-turbo", "sdxl-lightning", "sd-turbo", "flux.1-schnell",
                         "sd3.5-large-turbo", "hunyuanvideo"}) {
    const DiffusionModel* d = testing::ShippedCatalog().DiffusionById(id);
    ASSERT_NE(d, nullptr) << id;
    EXPECT_EQ(d->cfg_passes, 1) << id;
  }
}

}  // namespace
}  // namespace fitrank
