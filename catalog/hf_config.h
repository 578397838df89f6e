// A Model built from a Hugging Face config.json, so any model can be estimated.
//
// Read fields (top level, or under "text_config" for multimodal configs):
//   required: num_hidden_layers, hidden_size, num_attention_heads, vocab_size,
//             intermediate_size (dense models; MoE models may give moe_intermediate_size instead)
//   optional: num_key_value_heads (default: num_attention_heads), head_dim (default:
//             hidden_size / num_attention_heads), max_position_embeddings (default 4096),
//             sliding_window + layer_types ["sliding_attention"|"full_attention"|
//             "linear_attention"...] or sliding_window_pattern (every Nth layer is global),
//             kv_lora_rank + qk_rope_head_dim (MLA), num_experts | num_local_experts |
//             n_routed_experts, num_experts_per_tok, moe_intermediate_size,
//             n_shared_experts | shared_expert_intermediate_size, first_k_dense_replace,
//             tie_word_embeddings (default false), model_type, _name_or_path.
//
// Parameters are computed from the shapes: embeddings (vocab x hidden, once more for an untied
// head), attention projections (q, k, v, o; MLA: the low-rank projections), MLPs with three
// matrices (gate, up, down), MoE experts (all for the total, the routed top-k plus shared ones
// for the active count), norms ignored (< 0.1%).
#ifndef FITRANK_CATALOG_HF_CONFIG_H_
#define FITRANK_CATALOG_HF_CONFIG_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "catalog/types.h"

namespace fitrank {

// Parses config.json text. `display_name` names the file in errors. Never throws; every problem
// is InvalidArgument naming the file and, where it can, the line and column: a missing required
// field ("config.json: missing field `hidden_size`"); malformed JSON or a number beyond a double
// ("config.json:3:18: not valid JSON: ..."); a field of the wrong type, negative, fractional or
// above 2^31-1 ("config.json:4:3: field `vocab_size` is 18446744073709551615; it must be at
// most 2147483647"); tie_word_embeddings not true/false. The Model's id is "hf:<name>", its name the
// `_name_or_path` or the file's stem.
absl::StatusOr<Model> ModelFromHfConfig(absl::string_view json_text,
                                        absl::string_view display_name);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_HF_CONFIG_H_
