// Hand-checked cases for the estimator's formulas, on hand-built catalog records.
#include "engine/estimator/estimator.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "base/file_source.h"
#include "engine/estimator/basis.h"
#include "catalog/hf_config.h"
#include "gtest/gtest.h"
#include "tests/model_fixtures.h"

namespace fitrank {
namespace {

const Estimator& Est() {
  static const Estimator* est = [] {
    Diagnostics d;
    EmbeddedSource src;
    auto e = Estimator::Load(src, &d);
    EXPECT_FALSE(d.HasErrors()) << d.Render();
    return e.release();
  }();
  return *est;
}

Gpu Rtx4090() {
  Gpu g;
  g.id = "geforce-rtx-4090";
  g.name = "GeForce RTX 4090";
  g.vendor = "NVIDIA";
  g.segment = Segment::kConsumer;
  g.form_factor = "pcie-card";
  g.memory_gb = 24;
  g.memory_type = "GDDR6X";
  g.bandwidth_gbps = 1008;
  g.fp32_tflops = 82.58;
  g.fp16_tflops = 330.3;
  g.fp16_fp32acc_tflops = 165.2;
  g.fp8_tflops = 660.6;
  g.precisions = {"FP32", "FP16", "BF16", "FP8", "INT8"};
  g.platforms = {"CUDA", "Vulkan"};
  g.pcie_gbps = 31.5;
  return g;
}

Gpu Rtx3090() {
  Gpu g = Rtx4090();
  g.id = "geforce-rtx-3090";
  g.name = "GeForce RTX 3090";
  g.bandwidth_gbps = 936;
  g.fp32_tflops = 35.58;
  g.fp16_tflops = 142.3;
  g.fp16_fp32acc_tflops = 71.2;
  g.fp8_tflops = 0;
  g.precisions = {"FP32", "FP16", "BF16", "INT8"};
  return g;
}

Gpu AppleM2Max64() {
  Gpu g;
  g.id = "apple-m2-max-64gb";
  g.name = "Apple M2 Max 64GB";
  g.vendor = "Apple";
  g.segment = Segment::kApple;
  g.memory_gb = 64;
  g.memory_type = "LPDDR5 (unified)";
  g.bandwidth_gbps = 400;
  g.fp32_tflops = 13.6;
  g.fp16_tflops = 13.6;
  g.platforms = {"Metal"};
  g.unified_memory = true;
  return g;
}

using testing::Llama31_8B;

Model Llama70B() {
  Model m = Llama31_8B();
  m.id = "llama-3.3-70b-instruct";
  m.params_b = 70.55;
  m.active_params_b = 70.55;
  m.layers = 80;
  m.hidden_size = 8192;
  m.attention_heads = 64;
  m.attention.kv_layers = 80;
  return m;
}

Model Gemma3_27B() {
  Model m;
  m.id = "gemma-3-27b-it";
  m.params_b = 27.43;
  m.layers = 62;
  m.hidden_size = 5376;
  m.attention_heads = 32;
  m.kv_heads = 16;
  m.head_dim = 128;
  m.max_context = 131072;
  m.attention.kind = AttentionKind::kSlidingMix;
  m.attention.kv_layers = 62;
  m.attention.sliding_window = 1024;
  m.attention.sliding_window_layers = 52;
  return m;
}

Model DeepSeekV3() {
  Model m;
  m.id = "deepseek-v3";
  m.params_b = 671;
  m.active_params_b = 37;
  m.experts = 256;
  m.experts_per_token = 8;
  m.layers = 61;
  m.hidden_size = 7168;
  m.attention_heads = 128;
  m.kv_heads = 128;
  m.head_dim = 128;
  m.max_context = 131072;
  m.attention.kind = AttentionKind::kMla;
  m.attention.kv_layers = 61;
  m.attention.kv_lora_rank = 512;
  m.attention.qk_rope_head_dim = 64;
  return m;
}

Quant Q4KM() {
  Quant q;
  q.id = "Q4_K_M";
  q.family = "gguf-k";
  q.bpw = 4.8994;
  q.runtimes = {"llama.cpp", "ollama"};
  return q;
}

Quant Fp8() {
  Quant q;
  q.id = "FP8";
  q.family = "fp8";
  q.bpw = 8;
  q.runtimes = {"vllm"};
  q.requires_precision = "FP8";
  return q;
}

Runtime LlamaCpp() {
  Runtime r;
  r.id = "llama.cpp";
  r.name = "llama.cpp";
  r.platforms = {"CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU"};
  r.quant_families = {"gguf-legacy", "gguf-k", "gguf-iq", "float", "fp4"};
  r.parallelism = {"layer"};
  return r;
}

Runtime Vllm() {
  Runtime r;
  r.id = "vllm";
  r.name = "vLLM";
  r.platforms = {"CUDA", "ROCm"};
  r.quant_families = {"float", "fp8", "fp4", "gptq", "awq"};
  r.parallelism = {"tensor"};
  return r;
}

Runtime Mlx() {
  Runtime r;
  r.id = "mlx";
  r.name = "MLX";
  r.platforms = {"Metal"};
  r.quant_families = {"float", "fp4"};
  return r;
}

Setup MakeSetup(std::vector<DeviceGroup> d, SetupOptions o = {}) {
  auto s = BuildSetup(Est(), std::move(d), o);
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

// An estimate of `model` at `quant` with `runtime` on `setup`, workload numbers defaulted.
EstimateInput Input(const fitrank::Setup& setup, const Model& model, const Quant& quant,
                    const Runtime& runtime) {
  EstimateInput in;
  in.setup = &setup;
  in.model = &model;
  in.quant = &quant;
  in.runtime = &runtime;
  return in;
}

bool AllFinite(const Estimate& e) {
  const double v[] = {e.memory.weights_gb, e.memory.kv_gb, e.memory.overhead_gb, e.memory.total_gb,
                      e.memory.usable_gb, e.fit.headroom_pct, e.fit.offload_pct, e.fit.host_ram_gb,
                      e.decode_tok_s, e.prefill_tok_s, e.ttft_ms, e.range.decode_low,
                      e.range.decode_high, e.range.prefill_low, e.range.prefill_high,
                      e.serving.aggregate_tok_s, e.serving.per_user_tok_s, e.kv_bytes_per_token};
  for (double x : v) {
    if (!std::isfinite(x) || x < 0) return false;
  }
  return true;
}

TEST(KvCache, Llama31_8B_F16Is131072BytesPerToken) {
  Model m = Llama31_8B();
  // 2 (K,V) x 32 layers x 8 KV heads x 128 dims x 2 bytes.
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 8192, KvCacheType::kF16), 131072);
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 8192, KvCacheType::kQ8_0), 131072 / 2.0 * 34 / 32);
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 8192, KvCacheType::kQ4_0), 131072 / 2.0 * 18 / 32);
}

TEST(KvCache, GemmaSlidingLayersKeepOnlyTheWindow) {
  Model m = Gemma3_27B();
  const double per_layer = 2 * 16 * 128 * 2;  // 8192 B per layer per token
  // At 1024 tokens every layer holds all of them.
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 1024, KvCacheType::kF16), 62 * per_layer);
  // At 32768: 10 global layers x 32768 tokens + 52 sliding layers x 1024 tokens.
  const double total = per_layer * (10.0 * 32768 + 52.0 * 1024);
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 32768, KvCacheType::kF16) * 32768, total);
}

TEST(KvCache, DeepSeekMlaCachesTheLatent) {
  Model m = DeepSeekV3();
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 4096, KvCacheType::kF16), 576.0 * 2 * 61);
}

TEST(KvCache, HybridLayersWithoutKvAndNone) {
  Model m = Llama31_8B();
  m.attention.kind = AttentionKind::kHybrid;
  m.attention.kv_layers = 8;
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 4096, KvCacheType::kF16), 131072 / 4.0);
  m.attention.kind = AttentionKind::kNone;
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(m, 4096, KvCacheType::kF16), 0);
}

TEST(Memory, AppleWorkingSetLimit) {
  Gpu mac = AppleM2Max64();
  // Sold as 64 GB = 64 GiB = 68.72 GB (1e9 bytes), x 0.75.
  EXPECT_NEAR(Est().UsableMemoryGb(mac), 64 * 1.073741824 * 0.75, 1e-9);
  mac.memory_gb = 32;
  EXPECT_NEAR(Est().UsableMemoryGb(mac), 32 * 1.073741824 * 0.667, 1e-9);  // up to 36 GB: about 2/3
}

TEST(Memory, WeightsAndFitOfLlama8BOn4090) {
  Gpu g = Rtx4090();
  Model m = Llama31_8B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in = Input(s, m, q, r);
  in.context = 8192;
  Estimate e;
  Est().Run(in, &e);
  ASSERT_TRUE(e.runnable());
  // Real Q4_K_M file: 4.92 GB.
  EXPECT_NEAR(e.memory.weights_gb, 4.92, 0.15);
  EXPECT_NEAR(e.memory.kv_gb, 131072.0 * 8192 / 1e9, 1e-9);
  EXPECT_EQ(e.fit.kind, FitKind::kNativeComfortable);
  EXPECT_GT(e.decode_tok_s, 100);
  EXPECT_LT(e.decode_tok_s, 200);
  EXPECT_GT(e.prefill_tok_s, e.decode_tok_s);
  EXPECT_GT(e.ttft_ms, 0);
  EXPECT_LE(e.range.decode_low, e.decode_tok_s);
  EXPECT_GE(e.range.decode_high, e.decode_tok_s);
  EXPECT_EQ(e.safe_context, 131072);
  EXPECT_TRUE(AllFinite(e));
}

TEST(Memory, ExactFileSizeReplacesParamsTimesBpw) {
  Gpu g = Rtx4090();
  Model m = Llama31_8B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in = Input(s, m, q, r);
  in.context = 8192;
  Estimate from_bpw, from_file;
  Est().Run(in, &from_bpw);
  // The real Q4_K_M file of Llama 3.1 8B: 4,920,734,272 bytes of tensors.
  m.file_weights_bytes = 4'920'734'272.0;
  m.file_quant = "Q4_K_M";
  Est().Run(in, &from_file);
  EXPECT_DOUBLE_EQ(from_file.memory.weights_gb, 4.920734272);
  EXPECT_DOUBLE_EQ(from_file.memory.kv_gb, from_bpw.memory.kv_gb);
  // Twice the bytes: the weights double and decode, bound by reading them, slows down.
  m.file_weights_bytes = 2 * from_bpw.memory.weights_gb * 1e9;
  Estimate doubled;
  Est().Run(in, &doubled);
  EXPECT_NEAR(doubled.memory.weights_gb, 2 * from_bpw.memory.weights_gb, 1e-9);
  EXPECT_LT(doubled.decode_tok_s, from_bpw.decode_tok_s * 0.6);
  EXPECT_TRUE(AllFinite(doubled));
  Basis b;
  Est().Explain(in, &doubled, &b);
  bool noted = false;
  for (const std::string& n : b.notes) noted |= n.rfind("weights: ", 0) == 0 && n.find("exactly, from the file's tensors") != std::string::npos;
  EXPECT_TRUE(noted);
  // At another quant, or with a bpw override, the file's bytes do not apply.
  in.bpw = 4.5;
  Estimate overridden;
  Est().Run(in, &overridden);
  EXPECT_LT(overridden.memory.weights_gb, doubled.memory.weights_gb * 0.6);
  in.bpw = 0;
  m.file_quant = "Q8_0";
  Estimate other_quant;
  Est().Run(in, &other_quant);
  EXPECT_DOUBLE_EQ(other_quant.memory.weights_gb, from_bpw.memory.weights_gb);
}

TEST(MultiGpu, Mixed4090And3090SplitsByMemoryAndSumsTimes) {
  Gpu a = Rtx4090(), b = Rtx3090();
  Model m = Llama70B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  fitrank::Setup mixed = MakeSetup({{&a, 1}, {&b, 1}});
  EXPECT_EQ(mixed.label, "GeForce RTX 4090 + GeForce RTX 3090");
  EXPECT_TRUE(mixed.mixed);
  EstimateInput in = Input(mixed, m, q, r);
  in.context = 4096;
  Estimate e;
  Est().Run(in, &e);
  ASSERT_TRUE(e.runnable());
  EXPECT_EQ(e.parallelism, Parallelism::kLayer);
  // Both cards hold part of the model; the display card (first) keeps a larger reserve.
  EXPECT_GT(e.placement.group_weights_gb[0], 15);
  EXPECT_GT(e.placement.group_weights_gb[1], 15);
  EXPECT_LT(e.placement.group_weights_gb[0], e.placement.group_weights_gb[1]);
  // Layer split: slower than two 4090s (the 3090's share runs at its bandwidth), faster than
  // two 3090s.
  fitrank::Setup two4090 = MakeSetup({{&a, 2}}), two3090 = MakeSetup({{&b, 2}});
  Estimate e4, e3;
  in.setup = &two4090;
  Est().Run(in, &e4);
  in.setup = &two3090;
  Est().Run(in, &e3);
  EXPECT_LT(e.decode_tok_s, e4.decode_tok_s);
  EXPECT_GT(e.decode_tok_s, e3.decode_tok_s);
  EXPECT_TRUE(AllFinite(e));
}

TEST(MultiGpu, TensorParallelMustDivideHeads) {
  Gpu a = Rtx4090();
  Model m = Llama70B();  // 64 heads, 8 KV heads
  Quant q;
  q.id = "AWQ-4bit";
  q.family = "awq";
  q.bpw = 4.16;
  q.runtimes = {"vllm"};
  Runtime r = Vllm();
  fitrank::Setup three = MakeSetup({{&a, 3}});
  EstimateInput in = Input(three, m, q, r);
  Estimate e;
  Est().Run(in, &e);
  EXPECT_EQ(e.parallelism, Parallelism::kTensor);
  EXPECT_TRUE(e.problems & kProblemTensorParallelHeads);
  EXPECT_FALSE(e.runnable());
  EXPECT_EQ(e.decode_tok_s, 0);
  fitrank::Setup four = MakeSetup({{&a, 4}});
  in.setup = &four;
  Est().Run(in, &e);
  EXPECT_TRUE(e.runnable()) << e.problems;
  EXPECT_GT(e.decode_tok_s, 0);
}

TEST(Problems, Fp8NeedsHardwareAndMlxNeedsApple) {
  Gpu g3090 = Rtx3090(), g4090 = Rtx4090();
  Quant fp8 = Fp8();
  Runtime v = Vllm(), mlx = Mlx();
  fitrank::Setup s3 = MakeSetup({{&g3090, 1}}), s4 = MakeSetup({{&g4090, 1}});
  EXPECT_TRUE(Est().CheckCombination(s3, &fp8, &v) & kProblemPrecisionUnsupported);
  EXPECT_EQ(Est().CheckCombination(s4, &fp8, &v), 0u);
  EXPECT_TRUE(Est().CheckCombination(s4, nullptr, &mlx) & kProblemRuntimeNotOnPlatform);
  Quant q = Q4KM();
  EXPECT_TRUE(Est().CheckCombination(s4, &q, &v) & kProblemQuantNotLoadable);
  EstimateInput in;
  in.setup = &s4;
  in.quant = &q;
  in.runtime = &v;
  EXPECT_FALSE(DescribeProblems(kProblemQuantNotLoadable, in).empty());
}

// The power law of prefill.tflops_per_watt: energy per operation follows the GEMM's width, so
// on a power-limited board FP8 GEMMs keep an advantage over 16-bit ones. (Its power budget was
// once scaled by the share of the FP8 peak the kernels reach, which held FP8 to the 16-bit
// rate: the two ran equally fast, 1.0x.)
TEST(Prefill, Fp8GemmsOnAPowerLimitedBoardOutrunSixteenBit) {
  Gpu g;
  g.id = "h100-pcie-like";
  g.name = "a 350 W board with H100 PCIe's datasheet";
  g.vendor = "NVIDIA";
  g.segment = Segment::kDatacenter;
  g.memory_gb = 80;
  g.memory_type = "HBM2e";
  g.bandwidth_gbps = 2039;
  g.fp32_tflops = 51.2;
  g.fp16_tflops = 756.5;
  g.fp8_tflops = 1513;
  g.tdp_w = 350;
  g.precisions = {"FP32", "FP16", "BF16", "FP8", "INT8"};
  g.platforms = {"CUDA"};
  Model m = Llama31_8B();
  Quant fp8 = Fp8();
  Quant f16;
  f16.id = "F16";
  f16.family = "float";
  f16.bpw = 16;
  f16.runtimes = {"vllm"};
  Runtime v = Vllm();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in8 = Input(s, m, fp8, v), in16 = Input(s, m, f16, v);
  in8.context = in16.context = 4096;
  in8.prompt_tokens = in16.prompt_tokens = 2048;
  Estimate e8, e16;
  Est().Run(in8, &e8);
  Est().Run(in16, &e16);
  // Power limits: 16-bit 1 TFLOPS/W x 350 W; FP8 twice that (its peak is twice the 16-bit
  // one); with its kernels at half the FP8 peak: 239 against 363 sustained TFLOPS, 1.5x.
  EXPECT_GT(e8.prefill_tok_s, 1.3 * e16.prefill_tok_s)
      << e8.prefill_tok_s << " vs " << e16.prefill_tok_s;
  EXPECT_LT(e8.prefill_tok_s, 2.0 * e16.prefill_tok_s);
}

TEST(Fit, SeventyBillionOnOne4090Offloads) {
  Gpu g = Rtx4090();
  Model m = Llama70B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  SetupOptions o;
  o.host_ram_gb = 64;
  fitrank::Setup s = MakeSetup({{&g, 1}}, o);
  EstimateInput in = Input(s, m, q, r);
  in.context = 4096;
  Estimate e;
  Est().Run(in, &e);
  EXPECT_EQ(e.fit.kind, FitKind::kOffload);
  EXPECT_GT(e.fit.offload_pct, 30);
  EXPECT_LT(e.fit.offload_pct, 70);
  EXPECT_NEAR(e.fit.host_ram_gb, e.placement.host_weights_gb, 1e-9);
  EXPECT_GT(e.decode_tok_s, 0.5);
  EXPECT_LT(e.decode_tok_s, 5);  // host RAM bandwidth dominates
  // Too little host RAM: no fit.
  SetupOptions small;
  small.host_ram_gb = 16;
  fitrank::Setup s2 = MakeSetup({{&g, 1}}, small);
  in.setup = &s2;
  Est().Run(in, &e);
  EXPECT_EQ(e.fit.kind, FitKind::kNoFit);
  EXPECT_EQ(e.decode_tok_s, 0);
  // vLLM cannot offload.
  Runtime v = Vllm();
  Quant f16;
  f16.id = "F16";
  f16.family = "float";
  f16.bpw = 16;
  in.setup = &s;
  in.runtime = &v;
  in.quant = &f16;
  Est().Run(in, &e);
  EXPECT_EQ(e.fit.kind, FitKind::kNoFit);
  EXPECT_TRUE(e.problems & kProblemNoOffload);
}

TEST(Serving, ConcurrencyFromTheKvBudget) {
  Gpu g = Rtx4090();
  Model m = Llama31_8B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in = Input(s, m, q, r);
  in.context = 4096;
  in.batch = 4;
  Estimate e;
  Est().Run(in, &e);
  // KV per sequence: 131072 B x 4096 = 0.537 GB; ~23.3 GB usable - ~1 GB overhead - 4.9 GB.
  EXPECT_GE(e.serving.max_concurrency, 16);  // capped by llama.cpp's slots
  EXPECT_EQ(e.serving.concurrency, 4);
  EXPECT_GT(e.serving.aggregate_tok_s, e.serving.per_user_tok_s * 3.5);
  EXPECT_LT(e.serving.per_user_tok_s, e.decode_tok_s * 1.01);
}

// Serving and fit use one device capacity: `max_concurrency` sequences fit natively and one
// more does not (unless the runtime's slot cap binds first), on one card and on two.
TEST(Serving, MaxConcurrencyIsWhatTheFitAdmits) {
  Gpu g = Rtx4090();
  Model m = Llama31_8B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  for (int cards : {1, 2}) {
    fitrank::Setup s = MakeSetup({{&g, cards}});
    int slot_cap = 0;  // the runtime's most sequences: what a tiny context gets
    {
      EstimateInput in = Input(s, m, q, r);
      in.context = 256;
      Estimate e;
      Est().Run(in, &e);
      slot_cap = e.serving.max_concurrency;
    }
    for (int context = 8192; context <= 131072; context += 4096) {
      EstimateInput in = Input(s, m, q, r);
      in.context = context;
      Estimate e;
      Est().Run(in, &e);
      const int n = e.serving.max_concurrency;
      ASSERT_GE(n, 1) << cards << " cards, context " << context;
      in.batch = n;
      Estimate at;
      Est().Run(in, &at);
      EXPECT_LT(static_cast<int>(at.fit.kind), static_cast<int>(FitKind::kOffload))
          << cards << " cards, context " << context << ", " << n << " sequences";
      in.batch = n + 1;
      Estimate over;
      Est().Run(in, &over);
      if (n < slot_cap) {
        EXPECT_GE(static_cast<int>(over.fit.kind), static_cast<int>(FitKind::kOffload))
            << cards << " cards, context " << context << ", " << n + 1 << " sequences";
      }
    }
  }
}

TEST(Diffusion, ImageAndVideoTimes) {
  Gpu g = Rtx4090();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  DiffusionModel flux;
  flux.id = "flux-dev";
  flux.kind = DiffusionKind::kImage;
  flux.params_b = 12;
  flux.text_encoder_params_b = 4.9;
  flux.vae_params_b = 0.08;
  flux.width = flux.height = 1024;
  flux.steps = 28;
  flux.latent_downsample = 8;
  flux.patch_size = 2;
  DiffusionInput in;
  in.setup = &s;
  in.model = &flux;
  in.weight_bits = 8;
  DiffusionEstimate e;
  Est().RunDiffusion(in, &e);
  EXPECT_DOUBLE_EQ(e.latent_tokens, 64.0 * 64);
  EXPECT_GT(e.seconds_per_image, 3);
  EXPECT_LT(e.seconds_per_image, 120);
  EXPECT_NE(e.fit, FitKind::kNoFit);
  // Twice the pixels: more than twice the time (attention grows with tokens^2).
  DiffusionEstimate big;
  in.width = 1448;
  in.height = 1448;
  Est().RunDiffusion(in, &big);
  EXPECT_GT(big.seconds_per_image, 1.9 * e.seconds_per_image);
  DiffusionModel wan = flux;
  wan.kind = DiffusionKind::kVideo;
  wan.params_b = 14;
  wan.frames = 81;
  wan.temporal_downsample = 4;
  wan.width = 832;
  wan.height = 480;
  in.model = &wan;
  in.width = in.height = 0;
  DiffusionEstimate v;
  Est().RunDiffusion(in, &v);
  EXPECT_EQ(v.frames, 81);
  EXPECT_NEAR(v.seconds_per_frame * 81, v.seconds_per_image, 1e-6);
}

TEST(Robustness, DegenerateInputsNeverGiveNaN) {
  Gpu g = Rtx4090();
  g.bandwidth_gbps = 0;
  g.fp32_tflops = 0;
  g.fp16_tflops = 0;
  Model m = Llama31_8B();
  Quant q = Q4KM();
  Runtime r = LlamaCpp();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in = Input(s, m, q, r);
  Estimate e;
  Est().Run(in, &e);
  EXPECT_TRUE(AllFinite(e));
  Model empty;
  in.model = &empty;
  Est().Run(in, &e);
  EXPECT_TRUE(e.problems & kProblemInvalidInput);
  EXPECT_TRUE(AllFinite(e));
  in.model = &m;
  in.quant = nullptr;
  in.bpw = 0;
  Est().Run(in, &e);
  EXPECT_TRUE(e.problems & kProblemInvalidInput);
  in.setup = nullptr;
  Est().Run(in, &e);
  EXPECT_TRUE(AllFinite(e));
  // Huge context and batch.
  Gpu ok = Rtx4090();
  fitrank::Setup s2 = MakeSetup({{&ok, 1}});
  in.setup = &s2;
  in.quant = &q;
  in.context = 10'000'000;
  in.batch = 4096;
  Est().Run(in, &e);
  EXPECT_TRUE(AllFinite(e));
  EXPECT_TRUE(e.problems & kProblemContextBeyondModel);
}

TEST(Setup, RefusesBadRigs) {
  Gpu g = Rtx4090();
  Gpu mac = AppleM2Max64();
  EXPECT_FALSE(BuildSetup(Est(), {}).ok());
  EXPECT_FALSE(BuildSetup(Est(), {{&g, 0}}).ok());
  EXPECT_FALSE(BuildSetup(Est(), {{&g, 65}}).ok());
  EXPECT_FALSE(BuildSetup(Est(), {{&g, 1}, {&mac, 1}}).ok());
  auto s = BuildSetup(Est(), {{&mac, 1}});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->unified);
  EXPECT_DOUBLE_EQ(s->host_ram_gb, 64);
}

TEST(Basis, ExplainListsConstantsDefaultsAndRange) {
  Gpu g = Rtx4090();
  Model m = Llama31_8B();
  Quant q = Q4KM();
  fitrank::Setup s = MakeSetup({{&g, 1}});
  EstimateInput in;
  in.setup = &s;
  in.model = &m;
  in.quant = &q;
  Estimate e, plain;
  Basis b;
  Est().Explain(in, &e, &b);
  Est().Run(in, &plain);
  EXPECT_DOUBLE_EQ(e.decode_tok_s, plain.decode_tok_s);
  EXPECT_FALSE(b.formulas.empty());
  EXPECT_FALSE(b.constants.empty());
  bool has_bw = false;
  for (const BasisConstant& c : b.constants) {
    if (c.name == "decode.bw_efficiency") {
      has_bw = true;
      EXPECT_FALSE(c.source.empty());
    }
  }
  EXPECT_TRUE(has_bw);
  EXPECT_FALSE(b.defaults.empty());  // context, prompt, runtime were defaults
  EXPECT_FALSE(b.range.empty());
}

TEST(Constants, ErrorsHavePositions) {
  Diagnostics d;
  auto e = Estimator::FromYaml("schema: fitrank.estimator/v1\nruntimes: []\nconstants:\n  decode.bw_efficency:\n    value: 1\n    source: x\n",
                               "est.yaml", &d);
  EXPECT_EQ(e, nullptr);
  std::string r = d.Render();
  EXPECT_NE(r.find("est.yaml:4:3: error: unknown constant `decode.bw_efficency`"), std::string::npos) << r;
  EXPECT_NE(r.find("did you mean `decode.bw_efficiency`"), std::string::npos) << r;
  EXPECT_NE(r.find("is not defined"), std::string::npos);
}

std::string ReadFixture(const std::string& name) {
  std::ifstream f(std::string(FITRANK_SOURCE_DIR) + "/tests/engine/testdata/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(HfConfig, Llama31_8B) {
  auto m = ModelFromHfConfig(ReadFixture("llama-3.1-8b.config.json"), "config.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_NEAR(m->params_b, 8.03, 0.01);
  EXPECT_EQ(m->layers, 32);
  EXPECT_EQ(m->kv_heads, 8);
  EXPECT_EQ(m->head_dim, 128);
  EXPECT_EQ(m->vocab_size, 128256);
  EXPECT_EQ(m->max_context, 131072);
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(*m, 8192, KvCacheType::kF16), 131072);
}

TEST(HfConfig, GemmaSlidingPatternUnderTextConfig) {
  auto m = ModelFromHfConfig(ReadFixture("gemma-3-27b.config.json"), "gemma/config.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->attention.kind, AttentionKind::kSlidingMix);
  EXPECT_EQ(m->attention.sliding_window, 1024);
  EXPECT_EQ(m->attention.sliding_window_layers, 52);  // 62 - 62/6
  EXPECT_TRUE(m->tied_embeddings);
  EXPECT_NEAR(m->params_b, 27.0, 1.0);
}

TEST(HfConfig, DeepSeekMlaAndMoe) {
  auto m = ModelFromHfConfig(ReadFixture("deepseek-v3.config.json"), "config.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->attention.kind, AttentionKind::kMla);
  EXPECT_NEAR(m->params_b, 671, 15);
  EXPECT_NEAR(m->active_params_b, 37, 3);
  EXPECT_EQ(m->experts, 256);
  EXPECT_DOUBLE_EQ(Est().KvBytesPerToken(*m, 4096, KvCacheType::kF16), 70272);
}

TEST(HfConfig, HybridLayersAndMissingField) {
  auto h = ModelFromHfConfig(ReadFixture("qwen3-next-hybrid.config.json"), "config.json");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->attention.kind, AttentionKind::kHybrid);
  EXPECT_EQ(h->attention.kv_layers, 1);
  auto bad = ModelFromHfConfig(ReadFixture("missing-hidden.config.json"), "x/config.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "x/config.json: missing field `hidden_size`");
  auto junk = ModelFromHfConfig("{not json", "j.json");
  EXPECT_FALSE(junk.ok());
}

}  // namespace
}  // namespace fitrank
