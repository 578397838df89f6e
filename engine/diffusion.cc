// Diffusion: memory and time per image or per video frame.
//
// Memory: the denoiser at its precision, the text encoders and VAE at 16 bits, activations of
// the latent tokens, the runtime context. Time: each step runs the denoiser over the latent
// tokens, FLOPs ~ 2 x params x tokens (the linear layers) plus attention ~ tokens^2 x width x
// depth; we know params, not width and depth, so width is estimated from params for a
// transformer whose depth is width/64 (params ~ 12 x depth x width^2). A published FLOPs figure
// at the default resolution, when the catalog has one, is scaled by the same formula instead.
// Latent tokens = (W / downsample / patch) x (H / downsample / patch) x latent frames.
#include <algorithm>
#include <cmath>

#include "engine/estimator.h"
#include "engine/internal/context.h"

namespace fitrank {
namespace {

double StepFlops(double params, double hidden, double tokens) {
  // Linear layers: 2 P T. Attention: 4 T^2 x hidden x depth, depth x hidden ~ P / (12 hidden).
  return 2 * params * tokens + internal::SafeDiv(4 * tokens * tokens * params, 12 * hidden);
}

}  // namespace

void Estimator::RunDiffusion(const DiffusionInput& in, DiffusionEstimate* out) const {
  using internal::SafeDiv;
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
  c.quant = in.weight_bits <= 8.5 && g.fp8_tflops > 0 ? QuantFamily::kFp8 : QuantFamily::kFloat;
  c.key.runtime = static_cast<int8_t>(c.runtime);
  c.key.backend = static_cast<int8_t>(c.backend);
  c.key.quant = static_cast<int8_t>(c.quant);

  e.width = in.width > 0 ? in.width : (m.width > 0 ? m.width : 1024);
  e.height = in.height > 0 ? in.height : (m.height > 0 ? m.height : 1024);
  e.steps = in.steps > 0 ? in.steps : (m.steps > 0 ? m.steps : 30);
  const bool video = m.kind == "video";
  e.frames = video ? (in.frames > 0 ? in.frames : std::max(m.frames, 1)) : 1;
  const int ds = std::max(m.latent_downsample, 1);
  const int patch = std::max(m.patch_size, 1);
  const int tds = std::max(m.temporal_downsample, 1);
  const double latent_frames = video ? 1 + std::floor((e.frames - 1) / double(tds)) : 1;
  auto tokens_at = [&](int w, int h, double lf) {
    return std::ceil(double(w) / ds / patch) * std::ceil(double(h) / ds / patch) * lf;
  };
  e.latent_tokens = tokens_at(e.width, e.height, latent_frames);

  const double active = (m.active_params_b > 0 ? m.active_params_b : m.params_b) * 1e9;
  const double hidden = std::cbrt(64.0 * active / 12.0);
  const double bits = in.weight_bits > 0 ? in.weight_bits : 16;
  e.weights_gb = (m.params_b * bits / 8 + (m.vae_params_b + m.text_encoder_params_b) * 2);
  e.activations_gb = e.latent_tokens * hidden * c.C(K::kDiffusionActivationBytes) / 1e9;
  e.overhead_gb = c.C(K::kRuntimeContextGb, g);
  // Text encoders run once per prompt and are freed before sampling (ComfyUI, diffusers'
  // model CPU offload): peak = max(denoiser + activations, text encoders) + VAE + context.
  const double te_gb = m.text_encoder_params_b * 2;
  e.total_gb = std::max(m.params_b * bits / 8 + e.activations_gb, te_gb) + m.vae_params_b * 2 +
               e.overhead_gb;
  e.usable_gb = internal::UsableGb(c, g);

  double flops = StepFlops(active, hidden, e.latent_tokens);
  if (m.gflops_per_step > 0 && m.width > 0 && m.height > 0) {
    const double lf0 = video ? 1 + std::floor((std::max(m.frames, 1) - 1) / double(tds)) : 1;
    const double t0 = tokens_at(m.width, m.height, lf0);
    flops = m.gflops_per_step * 1e9 * SafeDiv(flops, StepFlops(active, hidden, t0));
  }
  e.tflop_per_step = flops / 1e12;
  const double peak = internal::MatrixPeakTflops(c, g) * 1e12 * c.C(K::kDiffusionEfficiency, g);
  e.step_ms = SafeDiv(flops, peak) * 1e3 + c.C(K::kDiffusionStepOverheadMs, g);
  const double vae_s =
      SafeDiv(c.C(K::kDiffusionVaeGflopsPerMpx) * 1e9 * e.width * e.height / 1e6 * e.frames, peak);

  // Fit: all resident; or text encoders parked in host RAM (ComfyUI's default when short);
  // or the denoiser streamed over PCIe every step (sequential offload).
  const double host = in.setup->unified ? 0 : std::max(in.setup->host_ram_gb - c.C(K::kHostOsReserveGb), 0.0);
  const double tight = c.C(K::kTightHeadroomPct);
  double transfer_ms = 0;
  if (e.total_gb <= e.usable_gb) {
    const double headroom = SafeDiv(e.usable_gb - e.total_gb, e.usable_gb) * 100;
    e.fit = headroom >= tight ? FitKind::kNativeComfortable : FitKind::kNativeTight;
  } else if (e.activations_gb + e.overhead_gb < e.usable_gb && host >= e.weights_gb) {
    e.fit = FitKind::kOffload;
    const double pcie = g.pcie_gbps > 0 ? g.pcie_gbps : 16;
    transfer_ms = SafeDiv(m.params_b * bits / 8, pcie) * 1e3;
  } else {
    e.fit = FitKind::kNoFit;
  }
  if (e.fit == FitKind::kNoFit) {
    e.step_ms = 0;
    return;
  }
  e.step_ms += transfer_ms;
  e.seconds_per_image = e.steps * e.step_ms / 1e3 + vae_s;
  e.seconds_per_frame = e.seconds_per_image / e.frames;
  const double u = std::hypot(c.C(K::kRangeBase), c.C(K::kRangeEstimatedInput));
  e.low_s = e.seconds_per_image / (1 + u);
  e.high_s = e.seconds_per_image * (1 + u);
}

}  // namespace fitrank
