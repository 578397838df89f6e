// The shipped catalog (embedded catalog/*.yaml): it loads cleanly, its numbers are in the
// documented units and plausible ranges, and every name the product promises resolves.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "catalog/builder.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"
#include "re2/re2.h"

namespace fitrank {
namespace {

TEST(ShippedCatalogTest, LoadsWithoutAnyDiagnostic) {
  Diagnostics diags;
  auto c = Catalog::Load(EmbeddedSource(), &diags);
  ASSERT_NE(c, nullptr) << diags.Render();
  EXPECT_TRUE(diags.empty()) << diags.Render();
}

TEST(ShippedCatalogTest, HasTheDocumentedSize) {
  const Catalog& c = testing::ShippedCatalog();
  EXPECT_GE(c.gpus().size(), 200u);
  EXPECT_GE(c.models().size(), 350u);
  EXPECT_GE(c.diffusion().size(), 40u);
  EXPECT_GE(c.quants().size(), 30u);
  EXPECT_GE(c.runtimes().size(), 8u);
  EXPECT_FALSE(c.interconnects().empty());
  EXPECT_FALSE(c.prices().empty());
}

// QuantIndex finds a quant by its record, and a copy of it by its id.
TEST(ShippedCatalogTest, QuantIndexFindsTheRecordAndACopyOfIt) {
  const Catalog& c = testing::ShippedCatalog();
  ASSERT_GE(c.quants().size(), 2u);
  for (int i : {0, static_cast<int>(c.quants().size()) - 1}) {
    EXPECT_EQ(c.QuantIndex(c.quants()[i]), i);
    const Quant copy = c.quants()[i];
    EXPECT_EQ(c.QuantIndex(copy), i) << copy.id;
  }
  Quant unknown = c.quants()[0];
  unknown.id = "not-a-quant";
  EXPECT_EQ(c.QuantIndex(unknown), -1);
}

TEST(ShippedCatalogTest, EveryGpuHasMemoryBandwidthAndCompute) {
  for (const Gpu& g : testing::ShippedCatalog().gpus()) {
    SCOPED_TRACE(g.id);
    EXPECT_GT(g.memory_gb, 0);
    EXPECT_GT(g.bandwidth_gbps, 0);
    EXPECT_GT(g.fp16_tflops, 0);
    // Gaudi runs only Intel's SynapseAI stack, none of the platforms fitrank knows.
    if (g.id.find("gaudi") == std::string::npos) EXPECT_FALSE(g.platforms.empty());
    EXPECT_FALSE(g.source.text.empty());
    EXPECT_GT(g.launch_year, 1995);
    // GB/s per GB of memory: catches Gbit/s for GB/s, MB for GB and the like.
    double per_gb = g.bandwidth_gbps / g.memory_gb;
    EXPECT_GT(per_gb, 0.05) << g.bandwidth_gbps << " GB/s for " << g.memory_gb << " GB";
    EXPECT_LT(per_gb, 200) << g.bandwidth_gbps << " GB/s for " << g.memory_gb << " GB";
    EXPECT_GT(g.gpu_memory_share, 0);
    EXPECT_LE(g.gpu_memory_share, 1);
    if (g.segment == Segment::kApple) EXPECT_TRUE(g.unified_memory);
    if (g.unified_memory && g.segment == Segment::kApple) EXPECT_LT(g.gpu_memory_share, 1);
  }
}

TEST(ShippedCatalogTest, MemorySizeInAGpuNameIsItsMemory) {
  // "GeForce RTX 3060 12GB" has 12 GB: each memory size is its own entry.
  static const LazyRE2 kSize = {R"((\d+)GB\b)"};
  for (const Gpu& g : testing::ShippedCatalog().gpus()) {
    std::string gb;
    re2::StringPiece name(g.name.data(), g.name.size());
    if (!RE2::FindAndConsume(&name, *kSize, &gb)) continue;
    if (RE2::PartialMatch(name, *kSize)) continue;  // two sizes in the name: skip
    double n = 0;
    ASSERT_TRUE(absl::SimpleAtod(gb, &n));
    EXPECT_DOUBLE_EQ(g.memory_gb, n) << g.id;
  }
}

TEST(ShippedCatalogTest, ModelArchitecturesAreConsistent) {
  for (const Model& m : testing::ShippedCatalog().models()) {
    SCOPED_TRACE(m.id);
    EXPECT_GT(m.params_b, 0);
    EXPECT_GT(m.active_params_b, 0);
    EXPECT_LE(m.active_params_b, m.params_b);
    EXPECT_GT(m.layers, 0);
    EXPECT_GE(m.max_context, 512);
    EXPECT_LE(m.attention.kv_layers, m.layers);
    EXPECT_LE(m.attention.sliding_window_layers, m.attention.kv_layers);
    const AttentionKind k = m.attention.kind;
    if (k == AttentionKind::kFull || k == AttentionKind::kSlidingMix) {
      ASSERT_GT(m.kv_heads, 0);
      EXPECT_EQ(m.attention_heads % m.kv_heads, 0)
          << m.kv_heads << " KV heads, " << m.attention_heads << " heads";
      EXPECT_GT(m.head_dim, 0);
      EXPECT_EQ(m.attention.kv_layers > 0, true);
    }
    if (k == AttentionKind::kSlidingMix) {
      EXPECT_GT(m.attention.sliding_window, 0);
      EXPECT_GT(m.attention.sliding_window_layers, 0);
    }
    if (k == AttentionKind::kMla) EXPECT_GT(m.attention.kv_lora_rank, 0);
    if (m.experts_per_token > 0) EXPECT_LE(m.experts_per_token, m.experts);
    // Billions, not millions: a dense transformer has roughly 4-70 x layers x hidden^2
    // parameters (embeddings push small models higher).
    if (m.attention_heads > 0 && m.hidden_size > 0) {
      double per_layer = m.params_b * 1e9 / (double(m.layers) * m.hidden_size * m.hidden_size);
      EXPECT_GT(per_layer, 1) << m.params_b << "B for " << m.layers << "x" << m.hidden_size;
      if (m.active_params_b == m.params_b) EXPECT_LT(per_layer, 100);
    }
  }
}

TEST(ShippedCatalogTest, ParameterCountInAModelNameIsItsSize) {
  // "Llama 3.1 8B Instruct" has about 8 billion parameters (OLMo 2 1B has 1.48B: real names
  // round loosely, so only unit-sized mistakes fail).
  static const LazyRE2 kSize = {R"((?:^|\s)(\d+(?:\.\d+)?)B(?:\s|$))"};
  for (const Model& m : testing::ShippedCatalog().models()) {
    if (m.active_params_b < m.params_b) continue;  // MoE names mix total and active sizes
    std::string b;
    if (!RE2::PartialMatch(m.name, *kSize, &b)) continue;
    double n = 0;
    ASSERT_TRUE(absl::SimpleAtod(b, &n));
    EXPECT_GT(m.params_b / n, 0.5) << m.id << ": " << m.params_b << "B";
    EXPECT_LT(m.params_b / n, 1.75) << m.id << ": " << m.params_b << "B";
  }
}

TEST(ShippedCatalogTest, EveryModelHasAQualityWithItsSource) {
  for (const Model& m : testing::ShippedCatalog().models()) {
    SCOPED_TRACE(m.id);
    EXPECT_GE(m.quality.score, 0);
    EXPECT_LE(m.quality.score, 100);
    EXPECT_FALSE(m.quality.source.empty());
    EXPECT_FALSE(m.source.text.empty());
    EXPECT_FALSE(m.release_date.empty());
  }
}

TEST(ShippedCatalogTest, CodingAndMathQualityAreOnTheScoreScale) {
  int measured_coding = 0;
  for (const Model& m : testing::ShippedCatalog().models()) {
    SCOPED_TRACE(m.id);
    EXPECT_GE(m.quality.coding, 0);
    EXPECT_LE(m.quality.coding, 100);
    EXPECT_GE(m.quality.math, 0);
    EXPECT_LE(m.quality.math, 100);
    // A measured category needs a measured text score (it comes from the same leaderboard).
    if (m.quality.estimated) {
      EXPECT_TRUE(m.quality.coding_estimated);
      EXPECT_TRUE(m.quality.math_estimated);
    }
    if (!m.quality.coding_estimated) ++measured_coding;
  }
  EXPECT_GE(measured_coding, 100);
  // LMArena's coding category separates a code model from its text score: Qwen2.5 Coder 32B
  // (text elo 1230.3, coding 1275.9).
  const Model* coder = testing::ShippedCatalog().ModelById("qwen2.5-coder-32b-instruct");
  ASSERT_NE(coder, nullptr);
  EXPECT_NEAR(coder->quality.coding, (1275.9 - 975) / 5, 0.01);
  EXPECT_GT(coder->quality.coding, coder->quality.score + 5);
}

TEST(ShippedCatalogTest, EstimatedQualityIsConservative) {
  auto model = [](absl::string_view id) {
    const Model* m = testing::ShippedCatalog().ModelById(id);
    EXPECT_NE(m, nullptr) << id;
    return m;
  };
  // Extrapolations must not put small models above measured larger ones: a 0.8B estimate
  // below the measured Llama 3.1 8B, a 10B vision "flash" model below its family's flagship
  // by a wide margin and not above Gemma 3 27B (measured).
  EXPECT_TRUE(model("qwen3.5-0.8b")->quality.estimated);
  EXPECT_LT(model("qwen3.5-0.8b")->quality.score, model("llama-3.1-8b-instruct")->quality.score);
  EXPECT_LT(model("gemma-3-270m-it")->quality.score, 20);
  EXPECT_LT(model("glm-4.6v-flash")->quality.score, model("gemma-3-27b-it")->quality.score);
  EXPECT_LT(model("glm-4.6v-flash")->quality.score, model("glm-4.6")->quality.score - 10);
  // Never above a larger scored model of the same family.
  for (const Model& m : testing::ShippedCatalog().models()) {
    if (!m.quality.estimated || m.kind == "embedding") continue;
    for (const Model& r : testing::ShippedCatalog().models()) {
      if (r.quality.estimated || r.family != m.family) continue;
      auto eff = [](const Model& x) {
        return x.active_params_b < x.params_b ? std::sqrt(x.params_b * x.active_params_b)
                                              : x.params_b;
      };
      if (eff(r) > eff(m) * 1.05) {
        EXPECT_LE(m.quality.score, r.quality.score + 1e-9) << m.id << " above " << r.id;
      }
    }
  }
}

TEST(ShippedCatalogTest, IQ4XSKeepsWhatQ4KSKeeps) {
  // llama.cpp PR #5747: IQ4_XS matches Q4_K_S perplexity at fewer bits per weight.
  const Quant* iq4 = testing::ShippedCatalog().FindQuant("IQ4_XS").found;
  const Quant* q4ks = testing::ShippedCatalog().FindQuant("Q4_K_S").found;
  ASSERT_NE(iq4, nullptr);
  ASSERT_NE(q4ks, nullptr);
  EXPECT_DOUBLE_EQ(iq4->quality_retention, q4ks->quality_retention);
  EXPECT_LT(iq4->bpw, q4ks->bpw);
}

// A model loses nothing at the precision it was published in, nor upcast to 16 bits; other
// quants keep what their table says (measured against 16-bit weights).
TEST(ShippedCatalogTest, ReleaseQuantKeepsFullQuality) {
  const Catalog& c = testing::ShippedCatalog();
  const Model* oss = c.ModelById("gpt-oss-120b");
  const Model* dsv3 = c.ModelById("deepseek-v3");
  const Model* llama = c.ModelById("llama-3.1-8b-instruct");
  ASSERT_TRUE(oss != nullptr && dsv3 != nullptr && llama != nullptr);
  EXPECT_EQ(oss->release_quant, "MXFP4");
  EXPECT_EQ(dsv3->release_quant, "FP8");
  EXPECT_EQ(llama->release_quant, "");
  const Quant& mxfp4 = *c.QuantById("MXFP4");
  const Quant& fp8 = *c.QuantById("FP8");
  const Quant& f16 = *c.QuantById("F16");
  const Quant& q4 = *c.QuantById("Q4_K_M");
  EXPECT_LT(mxfp4.quality_retention, 1.0);
  EXPECT_EQ(QualityRetention(*oss, mxfp4), 1.0);
  EXPECT_EQ(QualityRetention(*oss, f16), 1.0);
  EXPECT_EQ(QualityRetention(*oss, q4), q4.quality_retention);
  EXPECT_EQ(QualityRetention(*dsv3, fp8), 1.0);
  EXPECT_EQ(QualityRetention(*dsv3, mxfp4), mxfp4.quality_retention);
  EXPECT_EQ(QualityRetention(*llama, mxfp4), mxfp4.quality_retention);
  EXPECT_EQ(QualityRetention(*llama, fp8), fp8.quality_retention);
  EXPECT_EQ(QualityRetention(*llama, f16), f16.quality_retention);
}

TEST(ShippedCatalogTest, DiffusionModelsAreComplete) {
  int video = 0;
  for (const DiffusionModel& d : testing::ShippedCatalog().diffusion()) {
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.params_b, 0);
    EXPECT_LE(d.active_params_b, d.params_b);
    EXPECT_EQ(d.width % 8, 0);
    EXPECT_EQ(d.height % 8, 0);
    EXPECT_GT(d.steps, 0);
    if (d.kind == DiffusionKind::kVideo) {
      ++video;
      EXPECT_GT(d.frames, 0);
    }
  }
  EXPECT_GE(video, 5);
}

TEST(ShippedCatalogTest, QuantBitsPerWeightAreRealistic) {
  for (const Quant& q : testing::ShippedCatalog().quants()) {
    SCOPED_TRACE(q.id);
    EXPECT_GT(q.quality_retention, 0);
    EXPECT_LE(q.quality_retention, 1);
    EXPECT_FALSE(q.runtimes.empty());
    if (q.variable_bpw) continue;
    // Effective bpw includes block scales and higher-precision tensors, never much less.
    EXPECT_GE(q.bpw, q.bits * 0.9);
    EXPECT_LE(q.bpw, q.bits * 1.75);
  }
}

TEST(ShippedCatalogTest, HasEveryCommonQuantizationAndRuntime) {
  const Catalog& c = testing::ShippedCatalog();
  for (const char* q :
       {"Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q4_0", "Q4_1", "Q4_K_S", "Q4_K_M", "Q5_0", "Q5_1",
        "Q5_K_S", "Q5_K_M", "Q6_K", "Q8_0", "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ3_M", "IQ4_XS",
        "IQ4_NL", "F32", "F16", "BF16", "FP8", "NVFP4", "MXFP4", "GPTQ-4bit", "GPTQ-8bit",
        "AWQ-4bit", "EXL2", "q4f16_1"}) {
    EXPECT_NE(c.QuantById(q), nullptr) << q;
  }
  for (const char* r :
       {"llama.cpp", "ollama", "vllm", "sglang", "mlx", "exllamav2", "tensorrt-llm", "mlc-llm"}) {
    EXPECT_TRUE(c.FindRuntime(r)) << r;
  }
}

// The names the issue promises. Each must name exactly one entry, unless listed with the
// candidates it is ambiguous between (variants the user has to choose from).
TEST(ShippedCatalogTest, PromisedGpuNamesResolve) {
  const Catalog& c = testing::ShippedCatalog();
  for (const char* name :
       {"GTX 1060 6GB", "GTX 1080 Ti", "Tesla P40", "P100", "T4", "RTX 2060", "2080 Ti",
        "Titan RTX", "RTX 3060 12GB", "3060 Ti", "3070", "3080 10GB", "3080 12GB", "3080 Ti",
        "3090", "3090 Ti", "4060", "4060 Ti 8GB", "4060 Ti 16GB", "4070", "4070 Super",
        "4070 Ti", "4070 Ti Super", "4080", "4080 Super", "4090", "5060 Ti 16GB", "5070",
        "5070 Ti", "5080", "5090", "RTX A2000", "RTX A4000", "RTX A4500", "RTX A5000",
        "RTX A6000", "RTX 4000 Ada", "RTX 4500 Ada", "RTX 5000 Ada", "RTX 6000 Ada",
        "RTX PRO 6000 Blackwell Workstation", "A10", "A10G", "A30", "A40", "A100 40GB PCIe",
        "A100 80GB PCIe", "A100 40GB SXM", "A100 80GB SXM", "L4", "L40", "L40S", "H100 PCIe",
        "H100 SXM", "H100 NVL", "H200 SXM", "H200 NVL", "GH200", "B200", "B300", "GB200",
        "DGX Spark", "GB10", "Jetson AGX Orin 64GB", "Jetson Orin Nano", "RX 5700 XT",
        "RX 6600", "RX 6700 XT", "RX 6800", "RX 6800 XT", "RX 6900 XT", "RX 6950 XT", "RX 7600",
        "RX 7700 XT", "RX 7800 XT", "RX 7900 GRE", "RX 7900 XT", "RX 7900 XTX", "RX 9070",
        "RX 9070 XT", "Radeon VII", "Radeon Pro W7800", "Radeon Pro W7900", "MI50", "MI60",
        "MI100", "MI210", "MI250", "MI250X", "MI300A", "MI300X", "MI325X", "MI350X", "MI355X",
        "Ryzen AI Max+ 395 64GB", "Ryzen AI Max+ 395 128GB", "Arc A380", "Arc A580",
        "Arc A750", "Arc A770 16GB", "Arc B570", "Arc B580", "Arc Pro B60", "Gaudi 2",
        "Gaudi 3", "Data Center GPU Max 1550", "M3 Max 128GB", "M4 Max 128GB",
        // the issue's own examples
        "4090", "rtx4090", "GeForce RTX 4090", "mi325x", "h100 sxm"}) {
    auto r = c.FindGpu(name);
    EXPECT_TRUE(r) << "`" << name << "`: " << r.ambiguous.size() << " candidates";
  }
}

TEST(ShippedCatalogTest, BareDatacenterNamesMeanTheSxmBoard) {
  const Catalog& c = testing::ShippedCatalog();
  // "h100"/"h200" alone mean the SXM part (the catalog's explicit alias, tools/catalog_gpus.py);
  // the other form factors stay reachable by their qualifier.
  ASSERT_TRUE(c.FindGpu("h200"));
  EXPECT_EQ(c.FindGpu("h200").found->id, "nvidia-h200-sxm-141gb");
  EXPECT_EQ(c.FindGpu("H200").found->id, "nvidia-h200-sxm-141gb");
  ASSERT_TRUE(c.FindGpu("nvidia h200"));  // the brand in front of the alias
  EXPECT_EQ(c.FindGpu("nvidia h200").found->id, "nvidia-h200-sxm-141gb");
  EXPECT_EQ(c.FindGpu("h100").found->id, "nvidia-h100-sxm5-80gb");
  EXPECT_EQ(c.FindGpu("h200 nvl").found->id, "nvidia-h200-nvl-141gb");
  EXPECT_EQ(c.FindGpu("h100 pcie").found->id, "nvidia-h100-pcie-80gb");
  EXPECT_EQ(c.FindGpu("h100 nvl").found->id, "nvidia-h100-nvl-94gb");
  // Variants that differ in memory size are not chosen for the user.
  EXPECT_FALSE(c.FindGpu("a100"));
}

TEST(ShippedCatalogTest, GpuFamiliesListTheirVariants) {
  const Catalog& c = testing::ShippedCatalog();
  // Each memory size (or form factor) is its own entry: the bare family name is ambiguous,
  // and every candidate belongs to it.
  for (const char* name :
       {"3060", "a100 80gb", "V100 16GB", "V100 32GB", "M1", "M1 Pro", "M1 Max", "M1 Ultra",
        "M2", "M2 Pro", "M2 Max", "M2 Ultra", "M3", "M3 Pro", "M3 Max", "M3 Ultra", "M4",
        "M4 Pro", "M4 Max", "Ryzen AI 9 HX 370", "dual-channel DDR4", "dual-channel DDR5",
        "8-channel DDR5", "12-channel DDR5"}) {
    auto r = c.FindGpu(name);
    EXPECT_FALSE(r) << name << " -> " << (r.found ? r.found->id : "");
    EXPECT_GE(r.ambiguous.size(), 2u) << name;
  }
  auto a100 = c.FindGpu("a100 80gb");
  for (const Gpu* g : a100.ambiguous) EXPECT_DOUBLE_EQ(g->memory_gb, 80) << g->id;
  auto m3 = c.FindGpu("m3 max");
  for (const Gpu* g : m3.ambiguous) EXPECT_EQ(g->segment, Segment::kApple) << g->id;
}

TEST(ShippedCatalogTest, PromisedModelNamesResolve) {
  const Catalog& c = testing::ShippedCatalog();
  for (const char* name :
       {"LLaMA 7B", "LLaMA 13B", "LLaMA 30B", "LLaMA 65B", "Llama 2 7B", "Llama 2 13B",
        "Llama 2 70B", "Code Llama 7B", "Code Llama 13B", "Code Llama 34B", "Code Llama 70B",
        "Llama 3 8B", "Llama 3 70B", "Llama 3.1 8B", "Llama 3.1 70B", "llama 3.1 405b",
        "Llama 3.2 1B", "Llama 3.2 3B", "Llama 3.3 70B", "Llama 4 Scout", "Llama 4 Maverick",
        "Mistral 7B", "Mixtral 8x7B", "Mixtral 8x22B", "Mistral Small 3.1 24B",
        "Mistral Large 2", "Codestral", "Qwen2.5 0.5B", "Qwen2.5 1.5B", "Qwen2.5 3B",
        "Qwen2.5 7B", "Qwen2.5 14B", "Qwen2.5 32B", "Qwen2.5 72B", "Qwen2.5-Coder 1.5B",
        "Qwen2.5-Coder 3B", "Qwen2.5-Coder 7B", "Qwen2.5-Coder 14B", "Qwen2.5-Coder 32B",
        "QwQ-32B", "Qwen3 0.6B", "Qwen3 1.7B", "Qwen3 4B", "Qwen3 8B", "Qwen3 14B",
        "Qwen3 32B", "qwen3-30b-a3b", "Qwen3-235B-A22B", "Qwen3-Coder-30B-A3B",
        "Qwen3-Coder-480B-A35B", "DeepSeek-V3", "DeepSeek-R1", "DeepSeek R1 Distill Qwen 7B",
        "DeepSeek R1 Distill Llama 8B", "DeepSeek R1 Distill Qwen 32B",
        "DeepSeek R1 Distill Llama 70B", "Gemma 2 2B", "Gemma 2 9B", "Gemma 2 27B",
        "Gemma 3 1B", "Gemma 3 4B", "Gemma 3 12B", "Gemma 3 27B", "Phi-4", "gpt-oss-20b",
        "gpt-oss-120b", "GLM-4.5", "GLM-4.5-Air", "Kimi K2", "Command R+", "Falcon 7B",
        "Falcon 40B", "Falcon 180B", "GPT-J 6B", "TinyLlama 1.1B", "OpenLLaMA 3B", "Yi 34B",
        "dots.llm1", "Hunyuan-A13B"}) {
    auto r = c.FindModel(name);
    EXPECT_TRUE(r) << "`" << name << "`: " << r.ambiguous.size() << " candidates";
  }
  // Families with several members list them.
  for (const char* name : {"Devstral", "Phi-3", "Command R", "Granite 3", "SmolLM", "OLMo 2"}) {
    auto r = c.FindModel(name);
    EXPECT_TRUE(r || r.ambiguous.size() >= 2) << name;
  }
  EXPECT_TRUE(c.FindModel("Nemotron") || !c.FindModel("Nemotron").ambiguous.empty());
}

TEST(ShippedCatalogTest, PromisedDiffusionNamesResolve) {
  const Catalog& c = testing::ShippedCatalog();
  for (const char* name : {"SD 1.5", "SD 3.5 Large", "Flux.1 dev", "Flux.1 schnell",
                           "HunyuanVideo", "Wan2.1 T2V 14B"}) {
    EXPECT_TRUE(c.FindDiffusion(name)) << name;
  }
  for (const char* name : {"SDXL", "LTX Video", "Wan"}) {
    auto r = c.FindDiffusion(name);
    EXPECT_TRUE(r || r.ambiguous.size() >= 2) << name;
  }
}

TEST(ShippedCatalogTest, ResolvedNamesAreTheRightEntries) {
  const Catalog& c = testing::ShippedCatalog();
  auto g = c.FindGpu("4090");
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g.found->memory_gb, 24);
  auto m3 = c.FindGpu("M3 Max 128GB");
  ASSERT_TRUE(m3);
  EXPECT_DOUBLE_EQ(m3.found->memory_gb, 128);
  auto l = c.FindModel("llama 3.1 405b");
  ASSERT_TRUE(l);
  EXPECT_NEAR(l.found->params_b, 405, 5);
  auto q = c.FindModel("qwen3-30b-a3b");
  ASSERT_TRUE(q);
  EXPECT_NEAR(q.found->active_params_b, 3.3, 0.5);
}

}  // namespace
}  // namespace fitrank
