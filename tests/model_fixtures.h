// Hand-built catalog records shared by tests of formulas (the estimator, the GGUF recipe), so
// that a check does not move when the shipped catalog is edited.
#ifndef FITRANK_TESTS_MODEL_FIXTURES_H_
#define FITRANK_TESTS_MODEL_FIXTURES_H_

#include "catalog/types.h"

namespace fitrank::testing {

// Llama 3.1 8B Instruct's architecture (Llama 3 8B's too: the same tensors), from its
// config.json: 32 layers, hidden 4096, 32 heads x 128, 8 KV heads, vocabulary 128256.
inline Model Llama31_8B() {
  Model m;
  m.id = "llama-3.1-8b-instruct";
  m.name = "Llama 3.1 8B Instruct";
  m.params_b = 8.03;
  m.active_params_b = 8.03;
  m.layers = 32;
  m.hidden_size = 4096;
  m.attention_heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.vocab_size = 128256;
  m.max_context = 131072;
  m.attention.kv_layers = 32;
  return m;
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_MODEL_FIXTURES_H_
