// The size of a GGUF file of a catalog model at a llama.cpp file type, tensor by tensor.
//
// A file type name (Q4_K_M) is a recipe, not a bits-per-weight figure: llama-quantize picks each
// tensor's ggml type from the file type, the tensor's role and its layer
// (llama_tensor_get_type in llama.cpp src/llama-quant.cpp). This file reproduces those rules
// for the tensors a transformer has, with shapes from the catalog's architecture fields:
//   - token_embd / output: the output head is kept at Q6_K (Q5_K for IQ1/IQ2/IQ3_XXS mixes,
//     Q8_0 for Q8_0 files and MXFP4_MOE); a tied embedding has no output tensor and is stored
//     once, at the output head's type; the untied token_embd takes the file's type, or Q2_K /
//     IQ3_S for the IQ1/IQ2/IQ3_XXS mixes.
//   - attn_v, attn_output, ffn_down bumps of the K-quant and i-quant mixes (use_more_bits
//     layers, the first 1/8 or 1/16 of layers, GQA >= 4, 8 experts), attn_q/attn_k of IQ3_XS.
//   - a K-quant on a tensor whose row length is not a multiple of 256 falls back to a 32-block
//     type (Q4_K -> Q5_0, Q5_K -> Q5_1, Q6_K -> Q8_0, Q2_K/Q3_K/IQ -> IQ4_NL).
//   - norms and MoE routers stay F32; MXFP4_MOE stores the routed experts in MXFP4 and every
//     other matrix in Q8_0.
// Shapes: attention projections from heads x head_dim; the feed-forward is what the parameter
// count leaves (params - embeddings - attention), split into gate/up/down thirds; MoE experts
// from (params - active) x E / (E - k), as in the estimator. Assumptions the catalog cannot
// settle (an imatrix for i-quants and none for K/legacy quants; no arch-specific exceptions such
// as Falcon's or the 70B attn_v bump) are listed in engine/estimator/CALIBRATION.md with the
// files checked against published sizes.
#ifndef FITRANK_CATALOG_GGUF_RECIPE_H_
#define FITRANK_CATALOG_GGUF_RECIPE_H_

#include <string_view>

#include "catalog/types.h"

namespace fitrank {

struct GgufSize {
  bool ok = false;            // false: not a llama.cpp file type, or shapes inconsistent
  double total_bytes = 0;     // every tensor's data (no header/metadata)
  double token_embd_bytes = 0;  // input embedding table (the output head too when tied)
  double output_bytes = 0;    // output head; 0 when tied (token_embd serves both)
  double dense_bytes = 0;     // per-layer tensors other than routed experts (attention, dense or
                              // shared FFN, norms, routers)
  double expert_bytes = 0;    // routed experts, all of them
  uint32_t token_embd_type = 0, output_type = 0;  // ggml type ids (catalog/ggml_types.h)
};

// True if `ftype` is a llama-quantize file type this recipe knows ("Q4_K_M", "IQ2_XXS",
// "Q8_0", "MXFP4_MOE" ...; the catalog's MXFP4 counts as MXFP4_MOE).
bool IsGgufFileType(std::string_view ftype);

// The tensor-by-tensor size of `m` quantized to `ftype`. Needs layers, hidden size, heads and
// vocabulary; not ok otherwise. Never allocates; a few hundred nanoseconds.
GgufSize EstimateGgufSize(const Model& m, std::string_view ftype);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_GGUF_RECIPE_H_
