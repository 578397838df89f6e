// Writes small synthetic GGUF files for tests (the layout is in catalog/gguf.h). Only the header
// is real; the tensor data is zero bytes of the right length, or left out (`with_data` false)
// to make a file truncated in its data.
#ifndef FITRANK_TESTS_GGUF_WRITER_H_
#define FITRANK_TESTS_GGUF_WRITER_H_

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catalog/ggml_types.h"

namespace fitrank::testing {

class GgufWriter {
 public:
  GgufWriter& Str(const std::string& key, const std::string& v) {
    Key(key, 8);
    String(&kv_, v);
    ++kv_count_;
    return *this;
  }
  GgufWriter& U32(const std::string& key, uint32_t v) {
    Key(key, 4);
    Put(&kv_, v);
    ++kv_count_;
    return *this;
  }
  GgufWriter& F32(const std::string& key, float v) {
    Key(key, 6);
    Put(&kv_, v);
    ++kv_count_;
    return *this;
  }
  GgufWriter& I32Array(const std::string& key, const std::vector<int32_t>& v) {
    Key(key, 9);
    Put(&kv_, uint32_t{5});
    Put(&kv_, uint64_t{v.size()});
    for (int32_t x : v) Put(&kv_, x);
    ++kv_count_;
    return *this;
  }
  GgufWriter& StrArray(const std::string& key, uint64_t count) {
    Key(key, 9);
    Put(&kv_, uint32_t{8});
    Put(&kv_, count);
    for (uint64_t i = 0; i < count; ++i) String(&kv_, "t" + std::to_string(i));
    ++kv_count_;
    return *this;
  }
  // A tensor of `type` (ggml type name) with `dims` (innermost first).
  GgufWriter& Tensor(const std::string& name, const std::string& type, std::vector<uint64_t> dims) {
    const GgmlType* t = GgmlTypeByName(type);
    uint64_t elements = 1;
    for (uint64_t d : dims) elements *= d;
    const uint64_t bytes = elements / t->block_weights * t->block_bytes;
    String(&ti_, name);
    Put(&ti_, static_cast<uint32_t>(dims.size()));
    for (uint64_t d : dims) Put(&ti_, d);
    Put(&ti_, t->id);
    Put(&ti_, data_bytes_);
    data_bytes_ += (bytes + 31) / 32 * 32;
    tensor_bytes_ += bytes;
    ++tensor_count_;
    return *this;
  }

  // The whole file; `with_data` false leaves out the tensor data.
  std::string Bytes(bool with_data = true) const {
    std::string out = "GGUF";
    Put(&out, uint32_t{3});
    Put(&out, tensor_count_);
    Put(&out, kv_count_);
    out += kv_;
    out += ti_;
    if (with_data) {
      out.resize((out.size() + 31) / 32 * 32, '\0');
      out.resize(out.size() + data_bytes_, '\0');
    }
    return out;
  }
  // Writes the file; the tensor data is a hole (a sparse file), so a 4 GB model costs no disk.
  void Write(const std::string& path, bool with_data = true) const {
    const std::string b = Bytes(/*with_data=*/false);
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f.write(b.data(), static_cast<std::streamsize>(b.size()));
    }
    if (with_data) std::filesystem::resize_file(path, (b.size() + 31) / 32 * 32 + data_bytes_);
  }
  uint64_t tensor_bytes() const { return tensor_bytes_; }

 private:
  template <typename T>
  static void Put(std::string* s, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    s->append(b, sizeof(T));
  }
  static void String(std::string* s, const std::string& v) {
    Put(s, uint64_t{v.size()});
    s->append(v);
  }
  void Key(const std::string& key, uint32_t type) {
    String(&kv_, key);
    Put(&kv_, type);
  }

  std::string kv_, ti_;
  uint64_t kv_count_ = 0, tensor_count_ = 0, data_bytes_ = 0, tensor_bytes_ = 0;
};

// A small llama-architecture model: `layers` blocks of hidden 256, 8 heads, 2 KV heads,
// vocabulary 320, Q4_K weights, F32 norms, Q6_K output head.
inline GgufWriter TinyLlama(int layers = 2) {
  GgufWriter w;
  w.Str("general.architecture", "llama")
      .Str("general.name", "Tiny Llama")
      .U32("general.file_type", 15)
      .U32("llama.block_count", layers)
      .U32("llama.context_length", 8192)
      .U32("llama.embedding_length", 256)
      .U32("llama.feed_forward_length", 512)
      .U32("llama.attention.head_count", 8)
      .U32("llama.attention.head_count_kv", 2)
      .F32("llama.rope.freq_base", 10000.0f)
      .StrArray("tokenizer.ggml.tokens", 320);
  w.Tensor("token_embd.weight", "Q4_K", {256, 320});
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.Tensor(b + "attn_norm.weight", "F32", {256})
        .Tensor(b + "attn_q.weight", "Q4_K", {256, 256})
        .Tensor(b + "attn_k.weight", "Q4_K", {256, 64})
        .Tensor(b + "attn_v.weight", "Q6_K", {256, 64})
        .Tensor(b + "attn_output.weight", "Q4_K", {256, 256})
        .Tensor(b + "ffn_gate.weight", "Q4_K", {256, 512})
        .Tensor(b + "ffn_up.weight", "Q4_K", {256, 512})
        .Tensor(b + "ffn_down.weight", "Q6_K", {512, 256});
  }
  w.Tensor("output_norm.weight", "F32", {256}).Tensor("output.weight", "Q6_K", {256, 320});
  return w;
}

// A Llama-2-7B-shaped model (32 layers, hidden 4096, FFN 11008, 32 heads, vocabulary 32000)
// quantized as llama.cpp's Q4_K_M recipe does it: Q4_K, with Q6_K for attn_v, ffn_down and the
// output head. Only for Write(): its data is ~3.9 GB.
inline GgufWriter Llama7BShaped() {
  GgufWriter w;
  w.Str("general.architecture", "llama")
      .Str("general.name", "Synthetic 7B")
      .U32("general.file_type", 15)
      .U32("llama.block_count", 32)
      .U32("llama.context_length", 4096)
      .U32("llama.embedding_length", 4096)
      .U32("llama.feed_forward_length", 11008)
      .U32("llama.attention.head_count", 32)
      .U32("llama.attention.head_count_kv", 32)
      .StrArray("tokenizer.ggml.tokens", 32000);
  w.Tensor("token_embd.weight", "Q4_K", {4096, 32000});
  for (int i = 0; i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.Tensor(b + "attn_norm.weight", "F32", {4096})
        .Tensor(b + "attn_q.weight", "Q4_K", {4096, 4096})
        .Tensor(b + "attn_k.weight", "Q4_K", {4096, 4096})
        .Tensor(b + "attn_v.weight", "Q6_K", {4096, 4096})
        .Tensor(b + "attn_output.weight", "Q4_K", {4096, 4096})
        .Tensor(b + "ffn_norm.weight", "F32", {4096})
        .Tensor(b + "ffn_gate.weight", "Q4_K", {4096, 11008})
        .Tensor(b + "ffn_up.weight", "Q4_K", {4096, 11008})
        .Tensor(b + "ffn_down.weight", "Q6_K", {11008, 4096});
  }
  w.Tensor("output_norm.weight", "F32", {4096}).Tensor("output.weight", "Q6_K", {4096, 32000});
  return w;
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_GGUF_WRITER_H_
