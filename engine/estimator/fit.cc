// Fit: where the working set (weights + KV cache + buffers) lives, and whether it fits.
//
// Layer split puts consecutive layers on each GPU in proportion to its free memory (llama.cpp's
// default tensor split), so a mixed rig fills each card to the same share. Tensor parallel
// gives each GPU 1/N. What does not fit spills to host RAM (runtimes that can offload), whole
// layers with their KV. The runtime allocates the whole context's KV up front, so memory uses
// the full context while speed uses the filled part.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {
namespace {

// The setup's DeviceMemory, into the state once (sizings made from this one keep it). In the
// order ComputeFit reads the constants, so that an explanation lists them in that order.
void KnowDevices(Ctx* ctx) {
  DeviceMemory& d = ctx->devices;
  if (d.known) return;
  const Setup& s = *ctx->setup;
  const int groups = static_cast<int>(s.devices.size());
  double o0 = 0, o1 = 0;
  for (int i = 0; i < groups; ++i) {
    const Gpu& g = *s.devices[i].gpu;
    d.usable_first_gb[i] = UsableGb(*ctx, g, i == 0);
    o0 += s.devices[i].count * DeviceOverheadGb(*ctx, g, 0, i + 1 == groups);
    o1 += s.devices[i].count * DeviceOverheadGb(*ctx, g, 1, i + 1 == groups);
    // Further cards of a group keep only the secondary reserve.
    d.usable_rest_gb[i] = s.devices[i].count > 1 ? UsableGb(*ctx, g, false) : d.usable_first_gb[i];
  }
  d.overhead0_gb = o0;
  d.overhead1_gb = o1;
  d.known = true;
}

// Largest context in [1, max_ctx] whose working set (weights + KV of `batch` sequences + all
// overheads) is at most limit_gb; 0 if none. The overhead is linear in the context (the
// attention mask), so the search only re-runs the KV formula (no constant lookups in the loop:
// this is on the ranker's fast path).
int LargestContext(const Ctx& ctx, double limit_gb, int max_ctx) {
  const double o0 = ctx.devices.overhead0_gb, o1 = ctx.devices.overhead1_gb;
  const double slope = o1 - o0;
  const double base = ctx.m.weights_bytes / 1e9 + o0;
  auto need = [&](int c) {
    return base + slope * c + ctx.kv.Bytes(c) * ctx.batch / 1e9;
  };
  if (max_ctx < 1 || need(1) > limit_gb) return 0;
  if (need(max_ctx) <= limit_gb) return max_ctx;
  int lo = 1, hi = max_ctx;  // need(lo) fits, need(hi) does not
  // need() never decreases with the context (each of its terms never does, and so does their
  // rounded sum), so the largest context that fits is one number however it is searched for.
  // Start where the line through need(1) and need(max_ctx) meets the limit (exact when the KV
  // cache is linear in the context), gallop outwards to bracket it, then bisect.
  const double n1 = need(1), nmax = need(max_ctx);
  const double guess = 1 + (limit_gb - n1) * (max_ctx - 1) / (nmax - n1);
  if (guess > lo && guess < hi) {
    const int g = static_cast<int>(guess);
    if (g > lo && g < hi) {
      if (need(g) <= limit_gb) {
        lo = g;
        for (int step = 1; lo + step < hi; step *= 2) {
          if (need(lo + step) > limit_gb) {
            hi = lo + step;
            break;
          }
          lo += step;
        }
      } else {
        hi = g;
        for (int step = 1; hi - step > lo; step *= 2) {
          if (need(hi - step) <= limit_gb) {
            lo = hi - step;
            break;
          }
          hi -= step;
        }
      }
    }
  }
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (need(mid) <= limit_gb) lo = mid;
    else hi = mid;
  }
  return lo >= 1024 ? lo / 256 * 256 : lo;  // round to what people configure
}

}  // namespace

void ComputeFit(Ctx* ctx, Estimate* e) {
  const Setup& s = *ctx->setup;
  const int groups = static_cast<int>(s.devices.size());
  const bool tensor = ctx->par == Parallelism::kTensor && s.device_count > 1;
  double usable_total = 0, overhead_total = 0, cap_total = 0, cap_min = 1e300;
  double cap[kMaxDeviceGroups] = {};
  KnowDevices(ctx);
  for (int i = 0; i < groups; ++i) {
    const Gpu& g = *s.devices[i].gpu;
    const double usable = ctx->devices.usable_first_gb[i];
    const double over = DeviceOverheadGb(*ctx, g, ctx->context, i + 1 == groups);
    const double usable_rest = ctx->devices.usable_rest_gb[i];
    cap[i] = std::max(usable - over, 0.0);
    const double cap_rest = std::max(usable_rest - over, 0.0);
    usable_total += usable + (s.devices[i].count - 1) * usable_rest;
    overhead_total += s.devices[i].count * over;
    cap_total += cap[i] + (s.devices[i].count - 1) * cap_rest;
    cap[i] = (cap[i] + (s.devices[i].count - 1) * cap_rest) / s.devices[i].count;
    cap_min = std::min(cap_min, cap[i]);
    e->placement.group_usable_gb[i] = usable;
  }
  if (tensor) cap_total = cap_min * s.device_count;
  ctx->device_cap_gb = cap_total;
  e->placement.groups = groups;

  const double weights_gb = ctx->m.weights_bytes / 1e9;
  const double kv_gb = ctx->kv.Bytes(ctx->context) * ctx->batch / 1e9;
  const double need = weights_gb + kv_gb;  // what is split over the devices
  MemoryEstimate& mem = e->memory;
  mem.weights_gb = weights_gb;
  mem.kv_gb = kv_gb;
  mem.overhead_gb = overhead_total;
  mem.total_gb = weights_gb + kv_gb + overhead_total;
  mem.usable_gb = usable_total;

  const double tight = ctx->C(K::kTightHeadroomPct);
  const bool can_offload = ctx->C(K::kHostOffload) >= 0.5;
  const double host_avail = HostAvailableGb(*ctx);
  FitEstimate& fit = e->fit;
  fit = FitEstimate{};
  if (need <= cap_total) {
    for (int i = 0; i < groups; ++i) {
      e->placement.group_weights_gb[i] =
          tensor ? need / s.device_count : need * SafeDiv(cap[i], cap_total);
    }
    fit.headroom_pct = std::clamp(SafeDiv(usable_total - mem.total_gb, usable_total) * 100, 0.0, 100.0);
    fit.kind = fit.headroom_pct >= tight ? FitKind::kNativeComfortable : FitKind::kNativeTight;
  } else {
    const double spill = need - cap_total;
    for (int i = 0; i < groups; ++i) e->placement.group_weights_gb[i] = tensor ? cap_min : cap[i];
    e->placement.host_weights_gb = spill;
    fit.offload_pct = std::clamp(SafeDiv(spill, need) * 100, 0.0, 100.0);
    fit.host_ram_gb = spill;
    if (!can_offload) {
      e->problems |= kProblemNoOffload;
      fit.kind = FitKind::kNoFit;
    } else {
      fit.kind = spill <= host_avail ? FitKind::kOffload : FitKind::kNoFit;
    }
  }

  // Safe context: the largest context that fits natively; if the weights alone overflow the
  // accelerators, the largest that fits with offload.
  const int max_ctx = ctx->model->max_context > 0 ? ctx->model->max_context : (1 << 20);
  int safe = ctx->known_safe_context;
  if (ctx->known_safe_batch != ctx->batch) {  // SizeLike sets it, never tracing
    safe = LargestContext(*ctx, usable_total, max_ctx);
    if (safe == 0 && can_offload) safe = LargestContext(*ctx, usable_total + host_avail, max_ctx);
  }
  e->safe_context = safe;

  if (ctx->t != nullptr) {
    ctx->t->Formula("memory.total_gb", "weights + kv(context) x batch + sum over GPUs (runtime context + compute buffers)",
                    absl::StrFormat("%.2f + %.2f + %.2f = %.2f GB of %.2f GB usable", weights_gb,
                                    kv_gb, overhead_total, mem.total_gb, usable_total));
    ctx->t->Formula("fit", "native if weights+kv <= sum(usable - overhead); else offload the rest to host RAM",
                    absl::StrFormat("%s, headroom %.1f%%, offload %.1f%% (%.2f GB host; %.1f GB host available)",
                                    FitKindName(fit.kind), fit.headroom_pct, fit.offload_pct,
                                    fit.host_ram_gb, host_avail));
    ctx->t->Formula("safe_context", "largest context whose working set still fits, capped at the model maximum",
                    absl::StrFormat("%d tokens (model maximum %d)", safe, max_ctx));
  }
}

}  // namespace fitrank::internal
