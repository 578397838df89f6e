// Internal: the per-estimate working state shared by the physics files (memory.cc, kv_cache.cc,
// fit.cc, decode.cc, prefill.cc, multi_gpu.cc, serving.cc), and the tracer Explain uses to
// record the basis. Nothing here allocates unless a Tracer is attached.
#ifndef FITRANK_ENGINE_INTERNAL_CONTEXT_H_
#define FITRANK_ENGINE_INTERNAL_CONTEXT_H_

#include <array>
#include <cmath>
#include <string>

#include "engine/basis.h"
#include "engine/constants.h"
#include "engine/estimator.h"

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

// Division that never yields NaN or infinity: 0 when the denominator is not positive.
inline double SafeDiv(double num, double den) {
  if (!(den > 0) || !std::isfinite(num) || !std::isfinite(den)) return 0;
  double r = num / den;
  return std::isfinite(r) ? r : 0;
}
inline double Finite(double v) { return std::isfinite(v) && v > 0 ? v : 0; }

// The model's shapes as the estimator uses them, all in parameters (not billions) or bytes.
struct ModelShape {
  double params = 0;          // total
  double active = 0;          // per token
  double embed = 0;           // input embedding table (vocab x hidden); 0 if vocab unknown
  double head = 0;            // output matrix (vocab x hidden), tied or not
  bool tied = false;
  bool vocab_known = false;
  double body = 0;            // params - embed - (untied head)
  double active_body = 0;     // active - embed - (untied head)
  double routed_active = 0;   // MoE: routed expert params per token
  double expert_total = 0;    // MoE: all routed expert params
  bool moe = false;
  int experts = 0, experts_per_token = 0;
  int layers = 0, kv_layers = 0;
  int hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, vocab = 0;
  // bits
  double bpw = 0, embed_bpw = 0, head_bpw = 0, dense_bpw = 0;
  double dense_active = 0;    // MoE: non-expert params read per token (attention, shared, router)
  // bytes
  double weights_bytes = 0;   // resident
  double read_bytes = 0;      // read per decoded token at batch 1 (active body + head)
  double dense_read_bytes = 0;   // of read_bytes: not routed experts
  double expert_read_bytes = 0;  // of read_bytes: routed experts (at batch 1)
};

// Everything resolved for one estimate.
struct Ctx {
  const Constants* k = nullptr;
  Tracer* t = nullptr;
  const EstimateInput* in = nullptr;
  const Setup* setup = nullptr;
  const Model* model = nullptr;
  ConstantKey key;            // backend, runtime, quant, moe, size; memory/segment of GPU 0
  QuantFamily quant = QuantFamily::kOther;
  Backend backend = Backend::kAuto;
  Parallelism par = Parallelism::kLayer;
  int runtime = -1;
  ModelShape m;
  int context = 0, prompt = 0, gen = 0, batch = 1;
  double kv_elem = 2;
  // The constants for `key` (group 0) and for each further device group of the setup (its
  // GPU's memory kind and segment), filled by ResolveConstants; unused while a Tracer is
  // attached (Explain records which case each constant came from).
  int groups_resolved = 0;
  std::array<const ResolvedConstants*, kMaxDeviceGroups> group_constants{};
  std::array<ResolvedConstants, kMaxDeviceGroups> resolved;

  // Fills `resolved` / `group_constants` for `key` and the setup's device groups.
  void ResolveConstants() {
    const int groups = setup != nullptr ? static_cast<int>(setup->devices.size()) : 0;
    k->Resolve(key, &resolved[0]);
    group_constants[0] = &resolved[0];
    int distinct = 1;
    for (int i = 1; i < groups && i < kMaxDeviceGroups; ++i) {
      const Gpu& g = *setup->devices[i].gpu;
      ConstantKey k2 = key;
      k2.memory = static_cast<int8_t>(MemoryKindOf(g));
      k2.segment = static_cast<int8_t>(g.segment);
      const ResolvedConstants* same = nullptr;
      for (int j = 0; j < i && same == nullptr; ++j) {
        const Gpu& h = *setup->devices[j].gpu;
        if (&h == &g || (MemoryKindOf(h) == MemoryKind(k2.memory) && h.segment == g.segment)) {
          same = group_constants[j];
        }
      }
      if (same == nullptr) {
        k->Resolve(k2, &resolved[distinct]);
        same = &resolved[distinct++];
      }
      group_constants[i] = same;
    }
    groups_resolved = groups;
  }

  // A constant for this estimate (optionally for one GPU: its memory kind and segment).
  double C(K id) const {
    if (t == nullptr && groups_resolved > 0) return (*group_constants[0])[id];
    return Get(id, key);
  }
  double C(K id, const Gpu& gpu) const {
    if (t == nullptr) {
      for (int i = 0; i < groups_resolved; ++i) {
        if (setup->devices[i].gpu == &gpu) return (*group_constants[i])[id];
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

// ---- fit.cc ----
void ComputeFit(Ctx* ctx, Estimate* e);

// ---- decode.cc / multi_gpu.cc ----
// Milliseconds per decode step for `batch` sequences at average context `avg_ctx` (batch 1:
// one token). Uses e->placement. 0 if the model does not run.
double DecodeStepMs(const Ctx& ctx, const Estimate& e, int batch, double avg_ctx, bool trace);
void ComputeDecode(Ctx* ctx, Estimate* e);
// Tensor parallel: all-reduce time per layer (ms) for `tokens` rows of activations.
double AllReduceLayerMs(const Ctx& ctx, double tokens, bool trace);
// True if the TP degree divides heads and KV heads.
bool TensorParallelDivides(const Model& m, int degree);

// ---- prefill.cc ----
void ComputePrefill(Ctx* ctx, Estimate* e);
// Peak dense matrix TFLOPS the runtime's GEMMs use on `gpu`.
double MatrixPeakTflops(const Ctx& ctx, const Gpu& gpu);
// GEMM efficiency factor for `rows` rows: rows / (rows + half).
double GemmFactor(const Ctx& ctx, double rows);

// ---- serving.cc ----
void ComputeServing(Ctx* ctx, Estimate* e);

}  // namespace fitrank::internal

#endif  // FITRANK_ENGINE_INTERNAL_CONTEXT_H_
