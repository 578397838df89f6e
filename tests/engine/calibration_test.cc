// The estimator against the shared public measurements: the accuracy targets of issue 3. A
// regression in the physics or the constants turns this red.
#include "engine/estimator/calibration.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "base/file_source.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

// The repository's copy of the shared calibration table (engine/estimator/calibration/README.md),
// so that this test runs in any clone and never skips.
TEST(Calibration, RepositoryMeasurementsMeetTheTargets) {
  const std::string path =
      std::string(FITRANK_SOURCE_DIR) + "/engine/estimator/calibration/measured.tsv";
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << "cannot read " << path;
  std::stringstream ss;
  ss << f.rdbuf();
  Diagnostics d;
  std::vector<MeasuredRow> rows;
  ASSERT_TRUE(ParseMeasurements(ss.str(), path, &rows, &d)) << d.Render();
  EmbeddedSource src;
  auto catalog = Catalog::Load(src, &d);
  ASSERT_NE(catalog, nullptr) << d.Render();
  auto est = Estimator::Load(src, &d);
  ASSERT_NE(est, nullptr) << d.Render();
  CalibrationReport rep = RunCalibration(*catalog, *est, rows);
  ASSERT_FALSE(rep.groups.empty());
  const CalibrationGroup& all = rep.groups[0];
  EXPECT_EQ(all.name, "overall");
  EXPECT_GE(all.decode.rows, 140);
  // Every row maps, among them Llama-2-70B EXL2 2.5 bpw on one RTX 4090 (23.4 GB of weights,
  // KV and buffers on a card sold as 24 GB = 24 GiB = 25.8 GB).
  EXPECT_EQ(rep.unmapped, 0);
  // Issue 12's targets (the rows outside, among them the 2023 vLLM and Q2_K/Q3_K rows, are
  // reported in CALIBRATION.md, not fitted).
  EXPECT_LE(all.decode.median_ape, 6.0);
  EXPECT_GE(all.decode.within_25, 90.0);
  EXPECT_LE(all.prefill.median_ape, 12.0);
  EXPECT_GE(all.prefill.within_25, 85.0);
  // Every row is either estimated or listed with its reason.
  for (const CalibrationRow& r : rep.rows) {
    if (!r.mapped) EXPECT_FALSE(r.reason.empty()) << "line " << r.row.line;
  }
}

TEST(Calibration, BadFileReportsPositions) {
  Diagnostics d;
  std::vector<MeasuredRow> rows;
  std::string tsv =
      "gpu\tgpu_count\tmodel\tparams_b\tactive_params_b\tquant\truntime\tbatch\tprompt_tokens\tgen_tokens\tdecode_tok_s\tprefill_tok_s\tsource\n"
      "RTX 4090\tx\tLlama\t8\t8\tQ4_K_M\tllama.cpp (CUDA)\t1\t512\t128\t100\t\tsrc\n";
  EXPECT_FALSE(ParseMeasurements(tsv, "m.tsv", &rows, &d));
  EXPECT_NE(d.Render().find("m.tsv:2:10: error: `gpu_count` is not a non-negative number"), std::string::npos)
      << d.Render();
  Diagnostics d2;
  EXPECT_FALSE(ParseMeasurements("gpu\tmodel\n", "h.tsv", &rows, &d2));
  EXPECT_NE(d2.Render().find("missing column `gpu_count`"), std::string::npos);
}

// An EXL2 width is decimal bits, 1 to 32: "inf", "nan", hex or 1e300 once went through
// SimpleAtod into the estimate (weights sized at infinity). Such a row is unmapped, with why.
TEST(Calibration, Exl2WidthIsCheckedDecimal) {
  const std::string head =
      "gpu\tgpu_count\tmodel\tparams_b\tactive_params_b\tquant\truntime\tbatch\tprompt_tokens"
      "\tgen_tokens\tdecode_tok_s\tprefill_tok_s\tsource\n";
  std::string tsv = head;
  const char* quants[] = {"EXL2-4.0bpw", "EXL2-infbpw", "EXL2-nanbpw", "EXL2-0x4bpw",
                          "EXL2-1e300bpw", "EXL2-0.5bpw"};
  for (const char* q : quants) {
    tsv += absl::StrCat("NVIDIA GeForce RTX 4090\t1\tLlama-2-7B\t6.74\t6.74\t", q,
                        "\texllamav2\t1\t\t\t245\t\tturboderp/exllamav2 README.md\n");
  }
  Diagnostics d;
  std::vector<MeasuredRow> rows;
  ASSERT_TRUE(ParseMeasurements(tsv, "m.tsv", &rows, &d)) << d.Render();
  EmbeddedSource src;
  auto catalog = Catalog::Load(src, &d);
  ASSERT_NE(catalog, nullptr) << d.Render();
  auto est = Estimator::Load(src, &d);
  ASSERT_NE(est, nullptr) << d.Render();
  CalibrationReport rep = RunCalibration(*catalog, *est, rows);
  ASSERT_EQ(rep.rows.size(), 6u);
  EXPECT_TRUE(rep.rows[0].mapped) << rep.rows[0].reason;
  EXPECT_GT(rep.rows[0].decode_pred, 0);
  EXPECT_TRUE(std::isfinite(rep.rows[0].decode_pred));
  EXPECT_EQ(rep.rows[1].reason,
            "quant `EXL2-infbpw`: `inf` is not a width in bits per weight (1 to 32, decimal)");
  for (size_t i = 1; i < rep.rows.size(); ++i) {
    EXPECT_FALSE(rep.rows[i].mapped) << quants[i];
    EXPECT_NE(rep.rows[i].reason.find("is not a width in bits per weight"), std::string::npos)
        << quants[i] << ": " << rep.rows[i].reason;
  }
  EXPECT_EQ(rep.unmapped, 5);
}

TEST(Calibration, StatsMedianMeanWithin) {
  CalibrationStats s = ComputeStats({5, 30, 10, 50});
  EXPECT_EQ(s.rows, 4);
  EXPECT_DOUBLE_EQ(s.median_ape, 20);
  EXPECT_DOUBLE_EQ(s.mean_ape, 23.75);
  EXPECT_DOUBLE_EQ(s.within_25, 50);
}

}  // namespace
}  // namespace fitrank
