// Internal: the per-estimate working state shared by the physics files (memory.cc, kv_cache.cc,
// fit.cc, decode.cc, prefill.cc, multi_gpu.cc, serving.cc), and the tracer Explain uses to
// record the basis. Nothing here allocates unless a Tracer is attached.
#ifndef FITRANK_ENGINE_ESTIMATOR_INTERNAL_CONTEXT_H_
#define FITRANK_ENGINE_ESTIMATOR_INTERNAL_CONTEXT_H_

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "engine/estimator/basis.h"
#include "engine/estimator/constants.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/internal/sizing_state.h"

namespace fitrank::internal {

// Records the basis; only used by Explain.
class Tracer {
 public:
  explicit Tracer(Basis* b) : b_(b) {}
  void Const(K id, double value, const ConstantCase* matched, const Constant& c);
  void Formula(std::string quantity, std::string formula, std::string detail);
  void Default(std::string text) { b_->defaults.push_back(std::move(text)); }
  void Note(std::string text) { b_->notes.push_back(std::move(text)); }
  Basis* basis() { return b_; }

 private:
  Basis* b_;
};

// Division that never yields NaN or infinity: 0 when the denominator is not positive and
// finite, or the quotient is not finite (as it is not for a NaN or infinite numerator, which
// therefore needs no test of its own: two comparisons fewer on the estimator's hottest line).
inline double SafeDiv(double num, double den) {
  constexpr double kMax = std::numeric_limits<double>::max();
  if (!(den > 0 && den <= kMax)) return 0;
  const double r = num / den;
  return std::fabs(r) <= kMax ? r : 0;
}
inline double Finite(double v) { return std::isfinite(v) && v > 0 ? v : 0; }

// Everything resolved for one estimate: the pointers of this call and the state that
// Estimator::Size hands to Estimator::Finish (SizingState).
struct Ctx : SizingState {
  const Constants* k = nullptr;
  Tracer* t = nullptr;
  const EstimateInput* in = nullptr;
  const Setup* setup = nullptr;
  const Model* model = nullptr;
  // Estimator::SizeLike: the safe context of this setup, model and KV cache when
  // `known_safe_batch` sequences run (ComputeFit uses it instead of searching; -1: unknown).
  int known_safe_batch = -1;
  int known_safe_context = 0;

  // Fills `resolved` / `group_constants` for `key` and the setup's device groups, and reads
  // them from there.
  void ResolveConstants() {
    const int groups = setup != nullptr ? static_cast<int>(setup->devices.size()) : 0;
    k->Resolve(key, &resolved[0]);
    group_constants[0] = 0;
    int distinct = 1;
    std::array<int8_t, kMaxDeviceGroups> memory{};  // each group's MemoryKind
    memory[0] = key.memory;
    for (int i = 1; i < groups && i < kMaxDeviceGroups; ++i) {
      const Gpu& g = *setup->devices[i].gpu;
      ConstantKey k2 = key;
      k2.memory = static_cast<int8_t>(MemoryKindOf(g));
      k2.segment = static_cast<int8_t>(g.segment);
      memory[i] = k2.memory;
      int same = -1;
      for (int j = 0; j < i && same < 0; ++j) {
        const Gpu& h = *setup->devices[j].gpu;
        if (&h == &g || (memory[j] == k2.memory && h.segment == g.segment)) {
          same = group_constants[j];
        }
      }
      if (same < 0 && distinct < kMaxResolvedSets) {
        k->Resolve(k2, &resolved[distinct]);
        same = distinct++;
      }
      group_constants[i] = static_cast<int8_t>(same);
    }
    groups_resolved = groups < kMaxDeviceGroups ? groups : kMaxDeviceGroups;
    resolved_sets = distinct;
    constants = resolved.data();
    UseFastPath();
  }
  // The working state of an estimate of `in` that starts from `state` (a sizing's, which
  // outlives it): its state but for the constants, read where `state` keeps them.
  void StartFrom(const SizingState& state, const Constants& constants_table,
                 const EstimateInput& input) {
    CopyStateFrom(state, /*with_constants=*/false);
    constants = state.resolved.data();
    k = &constants_table;
    in = &input;
    setup = input.setup;
    model = input.model;
    UseFastPath();
  }
  // The resolved constant sets C() reads: this state's own (ResolveConstants), or those of the
  // sizing it was copied from without them (SizingState::CopyStateFrom), which outlives it.
  const ResolvedConstants* constants = nullptr;

  // The setup's first GPU and its resolved constants, for C(id, gpu) of that GPU without the
  // search below (the physics asks for it most); null while tracing. Set by ResolveConstants
  // and StartFrom.
  const Gpu* gpu0 = nullptr;
  const double* gpu0_constants = nullptr;
  void UseFastPath() {
    if (t != nullptr || groups_resolved == 0 || group_constants[0] < 0) return;
    gpu0 = setup->devices[0].gpu;
    gpu0_constants = constants[group_constants[0]].value.data();
  }

  // A constant for this estimate (optionally for one GPU: its memory kind and segment).
  double C(K id) const {
    if (t == nullptr && groups_resolved > 0) return constants[0][id];
    return Get(id, key);
  }
  double C(K id, const Gpu& gpu) const {
    if (&gpu == gpu0) return gpu0_constants[static_cast<int>(id)];
    if (t == nullptr) {
      for (int i = 0; i < groups_resolved; ++i) {
        if (setup->devices[i].gpu == &gpu && group_constants[i] >= 0) {
          return constants[group_constants[i]][id];
        }
      }
    }
    ConstantKey k2 = key;
    k2.memory = static_cast<int8_t>(MemoryKindOf(gpu));
    k2.segment = static_cast<int8_t>(gpu.segment);
    return Get(id, k2);
  }
  double Get(K id, const ConstantKey& kk) const {
    if (t == nullptr) return k->Lookup(id, kk);
    const ConstantCase* matched = nullptr;
    double v = k->Get(id, kk, &matched);
    t->Const(id, v, matched, k->constant(id));
    return v;
  }
};

// ---- memory.cc ----
// Fills ctx->m from the model, bpw and quant family.
void ComputeShape(Ctx* ctx, double bpw);
// Usable accelerator memory of one GPU (GB) for this estimate's runtime/backend.
double UsableGb(const Ctx& ctx, const Gpu& gpu, bool first = true);
// Runtime context + compute buffers for one GPU at `context` tokens (GB).
double DeviceOverheadGb(const Ctx& ctx, const Gpu& gpu, int context, bool holds_output);
// Host RAM available for offload (GB).
double HostAvailableGb(const Ctx& ctx);

// ---- kv_cache.cc ----
// KV bytes of one sequence holding `tokens` tokens (sliding layers capped at the window).
double KvBytes(const Model& m, double tokens, double elem_bytes);
// The same as a function of tokens: KvShapeOf(m, e).Bytes(t) == KvBytes(m, t, e).
KvShape KvShapeOf(const Model& m, double elem_bytes);

// ---- fit.cc ----
void ComputeFit(Ctx* ctx, Estimate* e);

// ---- decode.cc / multi_gpu.cc ----
// Milliseconds per decode step for `batch` sequences at average context `avg_ctx` (batch 1:
// one token). Uses e->placement. 0 if the model does not run.
double DecodeStepMs(const Ctx& ctx, const Estimate& e, int batch, double avg_ctx, bool trace);
// Batch-1 decode tokens/s, averaged over the generated tokens (Estimate::decode_tok_s).
double DecodeTokS(const Ctx& ctx, const Estimate& e);
void ComputeDecode(Ctx* ctx, Estimate* e);
// Latency-bound steps of one all-reduce over `n` GPUs (0 for one GPU).
double AllReduceSteps(int n);
// Tensor parallel: all-reduce time per layer (ms) for `tokens` rows of activations
// (ctx.allreduce_steps steps).
double AllReduceLayerMs(const Ctx& ctx, double tokens, bool trace);
// True if the TP degree divides heads and KV heads.
bool TensorParallelDivides(const Model& m, int degree);

// ---- prefill.cc ----
void ComputePrefill(Ctx* ctx, Estimate* e);
// Peak dense matrix TFLOPS the runtime's GEMMs use on `gpu` (FP8/FP4 peaks at their reachable
// share, dp4a int8 for GGUF on GPUs without fast FP16).
double MatrixPeakTflops(const Ctx& ctx, const Gpu& gpu);
// What long GEMMs sustain: the peak limited by board power (prefill.tflops_per_watt x TDP,
// combined harmonically) times the runtime's prefill.matmul_efficiency. TFLOPS.
double SustainedMatrixTflops(const Ctx& ctx, const Gpu& gpu);
// GEMM efficiency factor for `rows` rows: rows / (rows + half).
double GemmFactor(const Ctx& ctx, double rows);

// ---- serving.cc ----
// serving.max_concurrency: sequences of `context` tokens whose KV fits beside the weights, for
// an estimate that runs; the figures behind it go to the optional outputs (for the basis).
int MaxConcurrency(const Ctx& ctx, const Estimate& e, double* cap_gb = nullptr,
                   double* kv_seq_gb = nullptr, double* max_seqs = nullptr);
// Fills e->serving. Keeps the sizing's e->serving.max_concurrency when it is > 0 and no Tracer is
// attached (the sizing and the finish share the model, setup and context).
void ComputeServing(Ctx* ctx, Estimate* e);

}  // namespace fitrank::internal

#endif  // FITRANK_ENGINE_ESTIMATOR_INTERNAL_CONTEXT_H_
