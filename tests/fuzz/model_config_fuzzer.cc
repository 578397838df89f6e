// Fuzz target: one input as a Hugging Face config.json (`estimate --model-config`), read by
// ModelFromHfConfig (engine/hf_config.h), which must never throw; a Model it accepts must have
// finite, non-negative parameter counts and positive shapes. See tests/fuzz/README.md.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "catalog/hf_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::StatusOr<fitrank::Model> m = fitrank::ModelFromHfConfig(
      absl::string_view(reinterpret_cast<const char*>(data), size), "config.json");
  if (!m.ok()) {
    if (m.status().message().empty()) std::abort();
    return 0;
  }
  if (!std::isfinite(m->params_b) || m->params_b < 0 || !std::isfinite(m->active_params_b) ||
      m->active_params_b < 0 || m->layers <= 0 || m->hidden_size <= 0 ||
      m->attention_heads <= 0 || m->kv_heads <= 0 || m->head_dim <= 0 || m->vocab_size <= 0) {
    std::abort();
  }
  return 0;
}
