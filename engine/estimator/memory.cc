// Memory: the model's shapes and bytes, usable accelerator memory, runtime overhead.
//
// Weights are stored at the quant's effective bits per weight, except the input embedding table
// and the output head, which runtimes keep at their own precision (llama.cpp K-quants store the
// output head as Q6_K; GPTQ/AWQ keep both in FP16): memory.embedding_bpw / memory.output_bpw.
// Decode reads the active body and the output head once per token, but only one row of the
// input embedding table, so the table counts for memory and not for speed.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "catalog/ggml_types.h"
#include "catalog/gguf_recipe.h"
#include "engine/estimator/internal/context.h"

namespace fitrank::internal {
namespace {

// GGUF quants run by llama.cpp: the file is sized tensor by tensor with llama-quantize's type
// rules (catalog/gguf_recipe.h) instead of params x the quant's whole-file bpw, which was
// measured on Llama-3-8B alone and misses small models, large vocabularies, tied embeddings
// and rows that are not a multiple of 256. Decode reads the layers' tensors, the routed share
// of the experts and the output head (the tied embedding when there is no head).
void ApplyGgufRecipe(Ctx* ctx) {
  const EstimateInput* in = ctx->in;
  if (in == nullptr || in->bpw > 0 || in->quant == nullptr) return;
  const auto fam = static_cast<QuantFamily>(ctx->key.quant);
  const bool gguf = fam == QuantFamily::kGgufK || fam == QuantFamily::kGgufLegacy ||
                    fam == QuantFamily::kGgufIq;
  // MXFP4 is a GGUF recipe (MXFP4_MOE) only where llama.cpp runs it; vLLM and the others load
  // the released checkpoint (experts MXFP4, the rest 16-bit).
  const bool mxfp4_gguf = in->quant->id == "MXFP4" &&
                          ctx->key.runtime == ctx->k->FamilyIndex("llama.cpp");
  if (!gguf && !mxfp4_gguf) return;
  const GgufSize g = in->gguf != nullptr ? *in->gguf : EstimateGgufSize(*ctx->model, in->quant->id);
  if (!g.ok) return;
  ModelShape& m = ctx->m;
  const double head_read = ctx->model->tied_embeddings ? g.token_embd_bytes : g.output_bytes;
  m.gguf_recipe = true;
  m.weights_bytes = g.total_bytes;
  if (m.moe) {
    m.expert_bytes_all = g.expert_bytes;
    m.expert_read_bytes = g.expert_bytes * SafeDiv(m.experts_per_token, m.experts);
    m.read_bytes = g.dense_bytes + head_read + m.expert_read_bytes;
  } else {
    m.expert_bytes_all = 0;
    m.expert_read_bytes = 0;
    m.read_bytes = g.dense_bytes + g.expert_bytes + head_read;
  }
  if (ctx->t != nullptr) {
    const GgmlType* et = GgmlTypeById(g.token_embd_type);
    const GgmlType* ot = GgmlTypeById(g.output_type);
    ctx->t->Formula(
        "weights_gb",
        "sum over tensors of elements / block x block bytes, each tensor at the type "
        "llama-quantize gives it for this file type (token_embd, output, attn_v / ffn_down "
        "bumps, 32-block fallbacks)",
        absl::StrFormat("%s: token_embd %.3f GB (%s)%s + layers %.3f GB + experts %.3f GB = "
                        "%.3f GB (%.2f bits per weight over %.3gB parameters)",
                        in->quant->id, g.token_embd_bytes / 1e9, et ? et->name : "?",
                        g.output_bytes > 0
                            ? absl::StrFormat(" + output %.3f GB (%s)", g.output_bytes / 1e9,
                                              ot ? ot->name : "?")
                            : std::string(" (tied: also the output head)"),
                        g.dense_bytes / 1e9, g.expert_bytes / 1e9, g.total_bytes / 1e9,
                        g.total_bytes * 8 / m.params, m.params / 1e9));
  }
}

}  // namespace

void ComputeShape(Ctx* ctx, double bpw) {
  const Model& md = *ctx->model;
  ModelShape& m = ctx->m;
  m = ModelShape{};
  m.params = md.params_b * 1e9;
  m.active = md.active_params_b > 0 ? std::min(md.active_params_b * 1e9, m.params) : m.params;
  m.layers = md.layers;
  m.hidden = md.hidden_size;
  m.heads = md.attention_heads > 0 ? md.attention_heads : 1;
  m.kv_heads = md.kv_heads > 0 ? md.kv_heads : m.heads;
  m.head_dim = md.head_dim > 0 ? md.head_dim : (m.hidden > 0 ? m.hidden / m.heads : 0);
  m.kv_layers = md.attention.kv_layers > 0 ? md.attention.kv_layers : md.layers;
  m.vocab = md.vocab_size;
  m.tied = md.tied_embeddings;
  m.experts = md.experts;
  m.experts_per_token = md.experts_per_token;
  m.moe = md.experts > 1 && md.experts_per_token > 0 && m.active < m.params * 0.95;
  m.bpw = bpw;
  const double embed_c = ctx->C(K::kEmbeddingBpw);
  const double head_c = ctx->C(K::kOutputBpw);
  m.embed_bpw = embed_c > 0 ? embed_c : bpw;
  if (embed_c <= 0 && ctx->t != nullptr) {
    // The constant's 0 is a sentinel, not a width: say which width it stood for.
    ctx->t->Note(absl::StrFormat("memory.embedding_bpw = 0: embeddings stored at the quant's own "
                                 "%.3g bits per weight",
                                 bpw));
  }
  m.head_bpw = std::max(bpw, head_c);
  m.vocab_known = m.vocab > 0 && m.hidden > 0;
  if (m.vocab_known) {
    m.embed = double(m.vocab) * m.hidden;
    m.head = m.embed;
    const double untied_head = m.tied ? 0 : m.head;
    m.body = std::max(m.params - m.embed - untied_head, 0.3 * m.params);
    m.active_body = std::max(m.active - m.embed - untied_head, 0.3 * m.active);
    const double head_stored_bpw = m.tied ? std::max(m.embed_bpw, m.head_bpw) : m.head_bpw;
    m.weights_bytes = m.body * bpw / 8 +
                      (m.tied ? m.embed * head_stored_bpw / 8
                              : m.embed * m.embed_bpw / 8 + m.head * m.head_bpw / 8);
    m.read_bytes = m.active_body * bpw / 8 + m.head * head_stored_bpw / 8;
  } else {
    m.body = m.params;
    m.active_body = m.active;
    m.weights_bytes = m.params * bpw / 8;
    m.read_bytes = m.active * bpw / 8;
    if (ctx->t != nullptr) {
      ctx->t->Note("vocabulary size unknown: embeddings and output head counted at the quant's "
                   "bits per weight and read in full");
    }
  }
  m.dense_bpw = bpw;
  if (m.moe) {
    const double e = m.experts, k = m.experts_per_token;
    // Inactive parameters are the routed experts not chosen: (E-k)/E of all routed experts.
    m.expert_total = std::min(SafeDiv((m.params - m.active) * e, e - k), 0.98 * m.body);
    m.routed_active = SafeDiv(m.expert_total * k, e);
    // The always-active part is at least the attention projections (vendors' "active" counts
    // differ on whether embeddings are included, so the shapes set a floor).
    const double attn = double(m.layers) * m.hidden *
                        (2.0 * m.heads * m.head_dim + 2.0 * m.kv_heads * m.head_dim);
    m.dense_active = std::max(m.active_body - m.routed_active, std::min(attn, m.body - m.expert_total));
    const double dense_resident = std::max(m.body - m.expert_total, m.dense_active);
    const double dc = ctx->C(K::kMoeDenseBpw);
    m.dense_bpw = dc > 0 ? std::max(bpw, dc) : bpw;
    const double head_stored_bpw = m.tied ? std::max(m.embed_bpw, m.head_bpw) : m.head_bpw;
    const double embed_bytes = m.vocab_known ? (m.tied ? m.embed * head_stored_bpw / 8
                                                       : m.embed * m.embed_bpw / 8 + m.head * m.head_bpw / 8)
                                             : 0;
    const double head_read = m.vocab_known ? m.head * head_stored_bpw / 8 : 0;
    m.weights_bytes = m.expert_total * bpw / 8 + dense_resident * m.dense_bpw / 8 + embed_bytes;
    m.read_bytes = m.routed_active * bpw / 8 + m.dense_active * m.dense_bpw / 8 + head_read;
    m.active_body = m.routed_active + m.dense_active;
  }
  m.expert_read_bytes = m.routed_active * bpw / 8;
  m.expert_bytes_all = m.expert_total * bpw / 8;
  const EstimateInput* in = ctx->in;
  ApplyGgufRecipe(ctx);
  if (md.file_weights_bytes > 0 && m.weights_bytes > 0 && in != nullptr && in->bpw <= 0 &&
      in->quant != nullptr && in->quant->id == md.file_quant) {
    // A file's exact size: its tensors carry their own types (a Q4_K_M file mixes Q4_K, Q6_K
    // and F32), so the quant's average bpw is only close. Reads keep their share of the weights.
    const double scale = md.file_weights_bytes / m.weights_bytes;
    if (ctx->t != nullptr) {
      ctx->t->Note(absl::StrFormat("weights: %.3f GB exactly, from the file's tensors (the catalog "
                                   "estimate is %.3f GB)",
                                   md.file_weights_bytes / 1e9, m.weights_bytes / 1e9));
    }
    m.weights_bytes = md.file_weights_bytes;
    m.read_bytes *= scale;
    m.expert_read_bytes *= scale;
  }
  m.dense_read_bytes = std::max(m.read_bytes - m.expert_read_bytes, 0.0);
  if (ctx->t != nullptr && !m.gguf_recipe) {
    ctx->t->Formula(
        "weights_gb",
        "body x bpw/8 + embeddings x embedding_bpw/8 + output head x output_bpw/8",
        absl::StrFormat("%.3gB body x %.3g + %.3gB embed x %.3g + %.3gB head x %.3g%s = %.2f GB",
                        m.body / 1e9, bpw, m.embed / 1e9, m.embed_bpw, m.tied ? 0 : m.head / 1e9,
                        m.head_bpw, m.tied ? " (tied)" : "", m.weights_bytes / 1e9));
  }
}

double UsableGb(const Ctx& ctx, const Gpu& gpu, bool first) {
  // Sizes as sold are GiB; everything below is in 1e9 bytes.
  const double capacity_gb = CapacityGb(gpu);
  double usable;
  if (gpu.unified_memory) {
    if (gpu.segment == Segment::kApple || gpu.vendor == "Apple") {
      // macOS wires at most a share of RAM for the GPU (iogpu.wired_limit_mb).
      const double threshold = ctx.C(K::kAppleShareThresholdGb, gpu);
      usable = capacity_gb * (gpu.memory_gb > threshold ? ctx.C(K::kAppleShareLarge, gpu)
                                                         : ctx.C(K::kAppleShareSmall, gpu));
    } else {
      const double share = gpu.gpu_memory_share > 0 && gpu.gpu_memory_share < 1
                               ? gpu.gpu_memory_share
                               : ctx.C(K::kApuShare, gpu);
      usable = capacity_gb * share;
    }
  } else {
    // Only the first card drives the display; the others keep a driver reserve.
    usable = capacity_gb - (first ? ctx.C(K::kReserveGb, gpu) : ctx.C(K::kSecondaryReserveGb, gpu));
  }
  usable = std::min(usable, capacity_gb * ctx.C(K::kRuntimeMemoryShare, gpu));
  return std::max(usable, 0.0);
}

double DeviceOverheadGb(const Ctx& ctx, const Gpu& gpu, int context, bool holds_output) {
  const double ub = std::max(1.0, ctx.ubatch);
  const double act = ctx.C(K::kActivationBytesPerHidden);
  double buffer = ub * ctx.m.hidden * act;  // activations of one micro-batch
  if (holds_output) buffer += ub * double(ctx.m.vocab) * 4;  // f32 logits of one micro-batch
  buffer += ub * double(std::max(context, 0)) * 2;  // f16 attention mask, ubatch x context
  // Without flash attention one layer's f32 scores, ubatch x context x heads, are materialised.
  if (!ctx.flash_attn) buffer += ub * double(std::max(context, 0)) * ctx.m.heads * 4;
  return ctx.C(K::kRuntimeContextGb, gpu) + buffer / 1e9;
}

double HostAvailableGb(const Ctx& ctx) {
  const Setup& s = *ctx.setup;
  double avail = s.host_ram_gb * kGbPerGib - ctx.C(K::kHostOsReserveGb);
  if (s.unified) avail -= UsableGb(ctx, *s.devices[0].gpu);
  return std::max(avail, 0.0);
}

}  // namespace fitrank::internal
