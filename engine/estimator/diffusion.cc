// Diffusion: memory and time per image or per video frame.
//
// Step cost. A step runs the denoiser cfg_passes times (classifier-free guidance: 2). One pass
// costs linear work that grows with the tokens plus self-attention that grows with tokens^2:
// - UNets (SD 1.5, SDXL, SVD): attention only at downsampled levels, convolutions everywhere,
//   so no formula over "params x tokens" holds; the catalog carries the pass's FLOPs at the
//   default resolution and their attention part (tools/diffusion_flops.py), scaled here:
//   linear x (tokens / default), attention x (tokens / default)^2 (per frame for SVD).
// - Transformers (DiT, MMDiT): 2 x token_params x tokens + 4 x tokens^2 x hidden x layers over
//   the whole sequence (image tokens, a reference image's, joint text tokens). token_params
//   leaves out adaLN modulation, which runs once per sample (FLUX.1: 6.5B of 11.9B). Unknown
//   layout: all active params per token and a width for depth = width / 64 (estimate, high).
// Time = FLOPs / (matrix peak x diffusion.compute_efficiency) + a fixed per-step cost, then the
// VAE decode. FP8 weights compute at 16 bits unless diffusion.fp8_matmul and the GPU has FP8
// tensor cores (then the linear part runs at up to twice the 16-bit rate); GGUF always at 16.
//
// Memory: the text encoders run once per prompt and are freed before sampling (ComfyUI,
// diffusers' model CPU offload): peak = max(denoiser + activations, text encoders) + VAE +
// runtime context. When the caller leaves the precision open, the denoiser drops from 16 bits
// to 8 to 4.5 until it fits, as people run FLUX and Wan on 24 GB and smaller cards.
//
// Latent tokens per frame = (W / downsample / patch) x (H / downsample / patch).
#include <algorithm>
#include <cmath>

#include "engine/estimator/estimator.h"
#include "engine/estimator/internal/context.h"

namespace fitrank {
namespace {

using internal::SafeDiv;

// Denoiser weight formats. Bits per weight are format facts: GGUF Q8_0 stores 32 weights in 34
// bytes (8.5 bits), Q4_0 in 18 bytes (4.5 bits); FP8 e4m3 checkpoints carry per-tensor scales.
struct WeightFormat {
  double bits;
  absl::string_view name;
};
constexpr WeightFormat kBf16{16, "BF16"};
constexpr WeightFormat kFp8{8, "FP8"};
constexpr WeightFormat kQ8_0{8.5, "Q8_0"};
constexpr WeightFormat kQ4_0{4.5, "Q4_0"};

WeightFormat FormatOf(double bits) {
  for (const WeightFormat& f : {kBf16, kFp8, kQ8_0, kQ4_0}) {
    if (std::fabs(bits - f.bits) < 1e-6) return f;
  }
  return {bits, "custom"};
}

// FLOPs of one denoiser pass.
struct PassFlops {
  double linear = 0;
  double attention = 0;
};

// Tokens of one pass: per latent frame, latent frames, sequence (with reference images and
// joint text tokens).
struct Tokens {
  double per_frame = 0;
  double frames = 1;
  double sequence = 0;
};

Tokens TokensAt(const DiffusionModel& m, int width, int height, int frames, bool video) {
  const int ds = std::max(m.latent_downsample, 1);
  const int patch = std::max(m.patch_size, 1);
  const int tds = std::max(m.temporal_downsample, 1);
  Tokens t;
  t.per_frame = std::ceil(double(width) / ds / patch) * std::ceil(double(height) / ds / patch);
  t.frames = video ? 1 + std::floor((std::max(frames, 1) - 1) / double(tds)) : 1;
  t.sequence = t.per_frame * t.frames * (1 + std::max(m.context_images, 0)) +
               std::max(m.text_tokens, 0);
  return t;
}

// Width used for activations and for the attention term when the layout is unknown: a
// transformer whose depth is width / 64 has params ~ 12 x depth x width^2.
double HiddenOf(const DiffusionModel& m, double active) {
  return m.hidden_size > 0 ? m.hidden_size : std::cbrt(64.0 * active / 12.0);
}

PassFlops FlopsOf(const DiffusionModel& m, const Tokens& t, const Tokens& t0, double active) {
  PassFlops f;
  if (m.gflops_per_pass > 0) {
    const double r = SafeDiv(t.per_frame, t0.per_frame);
    const double fr = SafeDiv(t.frames, t0.frames);
    const double attention = m.attention_gflops_per_pass * 1e9;
    f.linear = (m.gflops_per_pass * 1e9 - attention) * r * fr;
    f.attention = m.per_frame_attention ? attention * r * r * fr : attention * r * r * fr * fr;
    return f;
  }
  const double hidden = HiddenOf(m, active);
  const double token_params = m.token_params_b > 0 ? m.token_params_b * 1e9 : active;
  const double layers =
      m.hidden_size > 0 ? m.attention_layers : SafeDiv(active, 12 * hidden * hidden);
  const double squared = m.per_frame_attention
                             ? SafeDiv(t.sequence * t.sequence, t.frames)
                             : t.sequence * t.sequence;
  f.linear = 2 * token_params * t.sequence;
  f.attention = 4 * squared * hidden * layers;
  return f;
}

// Memory and fit of one denoiser format.
struct Placement {
  double total_gb = 0;       // peak, all resident
  FitKind fit = FitKind::kNoFit;
  bool streamed = false;     // denoiser streamed each step
  bool text_parked = false;  // text encoders wait in host RAM
};

}  // namespace

void Estimator::RunDiffusion(const DiffusionInput& in, DiffusionEstimate* out) const {
  *out = DiffusionEstimate{};
  DiffusionEstimate& e = *out;
  if (in.setup == nullptr || in.model == nullptr || in.setup->devices.empty() ||
      in.setup->devices[0].gpu == nullptr || !(in.model->params_b > 0)) {
    return;
  }
  const DiffusionModel& m = *in.model;
  const Gpu& g = *in.setup->devices[0].gpu;
  internal::Ctx c;
  c.k = &constants_;
  c.runtime = constants_.FamilyIndex("diffusers");
  c.backend = in.backend != Backend::kAuto ? in.backend : DefaultBackend(nullptr, g);
  c.quant = QuantFamily::kFloat;
  c.key.runtime = static_cast<int8_t>(c.runtime);
  c.key.backend = static_cast<int8_t>(c.backend);
  c.key.quant = static_cast<int8_t>(c.quant);

  e.width = in.width > 0 ? in.width : (m.width > 0 ? m.width : 1024);
  e.height = in.height > 0 ? in.height : (m.height > 0 ? m.height : 1024);
  e.steps = in.steps > 0 ? in.steps : (m.steps > 0 ? m.steps : 30);
  const bool video = m.kind == DiffusionKind::kVideo;
  e.frames = video ? (in.frames > 0 ? in.frames : std::max(m.frames, 1)) : 1;
  const Tokens tokens = TokensAt(m, e.width, e.height, e.frames, video);
  const Tokens tokens0 = TokensAt(m, m.width > 0 ? m.width : e.width,
                                  m.height > 0 ? m.height : e.height, m.frames, video);
  e.latent_tokens = tokens.sequence;
  e.denoiser_passes = m.cfg_passes == 1 ? 1 : 2;

  const double active = (m.active_params_b > 0 ? m.active_params_b : m.params_b) * 1e9;
  e.activations_gb = tokens.sequence * HiddenOf(m, active) *
                     c.C(K::kDiffusionActivationBytes) / 1e9;
  e.overhead_gb = c.C(K::kRuntimeContextGb, g);
  e.usable_gb = internal::UsableGb(c, g);
  const double te_gb = m.text_encoder_params_b * 2;
  const double vae_gb = m.vae_params_b * 2;
  const double host = in.setup->unified
                          ? 0
                          : std::max(in.setup->host_ram_gb * kGbPerGib - c.C(K::kHostOsReserveGb), 0.0);
  auto place = [&](const WeightFormat& f) {
    Placement p;
    const double denoiser_gb = m.params_b * f.bits / 8;
    p.total_gb = std::max(denoiser_gb + e.activations_gb, te_gb) + vae_gb + e.overhead_gb;
    if (p.total_gb <= e.usable_gb) {
      const double headroom = SafeDiv(e.usable_gb - p.total_gb, e.usable_gb) * 100;
      p.fit = headroom >= c.C(K::kTightHeadroomPct) ? FitKind::kNativeComfortable
                                                    : FitKind::kNativeTight;
    } else if (denoiser_gb + e.activations_gb + vae_gb + e.overhead_gb <= e.usable_gb &&
               host >= te_gb) {
      p.fit = FitKind::kOffload;
      p.text_parked = true;
    } else if (e.activations_gb + vae_gb + e.overhead_gb < e.usable_gb &&
               host >= denoiser_gb + te_gb) {
      p.fit = FitKind::kOffload;
      p.streamed = true;
    }
    return p;
  };

  // Precision: the caller's, or the highest that keeps the denoiser resident.
  const WeightFormat eight = c.backend == Backend::kCuda ? kFp8 : kQ8_0;
  WeightFormat format = in.weight_bits > 0 ? FormatOf(in.weight_bits) : kBf16;
  Placement placed = place(format);
  if (in.weight_bits <= 0) {
    const WeightFormat ladder[] = {kBf16, eight, kQ4_0};
    bool done = false;
    for (bool allow_parked : {false, true}) {
      for (const WeightFormat& f : ladder) {
        Placement p = place(f);
        if (p.fit == FitKind::kNoFit || p.streamed || (p.text_parked && !allow_parked)) continue;
        format = f;
        placed = p;
        done = true;
        break;
      }
      if (done) break;
    }
    if (!done) {
      // Streamed at 8 bits (half the PCIe traffic of 16, near-lossless); if even that cannot
      // run, report the smallest footprint as what is needed.
      format = eight;
      placed = place(format);
      if (placed.fit == FitKind::kNoFit) {
        format = kQ4_0;
        placed = place(format);
      }
    }
  }
  e.weight_bits = format.bits;
  e.precision = format.name;
  e.weights_gb = m.params_b * format.bits / 8 + te_gb + vae_gb;
  e.total_gb = placed.total_gb;
  e.fit = placed.fit;
  e.denoiser_streamed = placed.streamed;

  // Compute: 16-bit peak for attention and for upcast weights; FP8 matmuls only when asked for
  // and the GPU has them (FP8 at FP32 accumulate: twice the 16-bit rate used here).
  const double peak16 = internal::MatrixPeakTflops(c, g) * 1e12;
  double linear_peak = peak16;
  if (format.name == kFp8.name && g.fp8_tflops > 0 && c.C(K::kDiffusionFp8Matmul, g) >= 0.5) {
    linear_peak = std::min(g.fp8_tflops * 1e12, 2 * peak16);
    c.key.quant = static_cast<int8_t>(QuantFamily::kFp8);
  }
  const double eff = c.C(K::kDiffusionEfficiency, g);
  const PassFlops pass = FlopsOf(m, tokens, tokens0, active);
  e.tflop_per_step = e.denoiser_passes * (pass.linear + pass.attention) / 1e12;
  const double pass_s = SafeDiv(pass.linear, linear_peak * eff) +
                        SafeDiv(pass.attention, peak16 * eff);
  e.step_ms = e.denoiser_passes * pass_s * 1e3 + c.C(K::kDiffusionStepOverheadMs, g);
  const double vae_s = SafeDiv(
      c.C(K::kDiffusionVaeGflopsPerMpx) * 1e9 * e.width * e.height / 1e6 * e.frames, peak16 * eff);

  if (e.fit == FitKind::kNoFit) {
    e.step_ms = 0;
    return;
  }
  const double pcie = g.pcie_gbps > 0 ? g.pcie_gbps : 16;
  double once_s = 0;
  if (placed.streamed) e.step_ms += SafeDiv(m.params_b * format.bits / 8, pcie) * 1e3;
  if (placed.text_parked) once_s = SafeDiv(te_gb, pcie);
  e.seconds_per_image = e.steps * e.step_ms / 1e3 + vae_s + once_s;
  e.seconds_per_frame = e.seconds_per_image / e.frames;
  const double u = std::hypot(c.C(K::kRangeBase), c.C(K::kRangeEstimatedInput));
  e.low_s = e.seconds_per_image / (1 + u);
  e.high_s = e.seconds_per_image * (1 + u);
}

}  // namespace fitrank
