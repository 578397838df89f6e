// The GGUF header reader on synthetic files: exact sizes from the tensors, the model layout from
// the metadata, prefixes too short (the reader asks for more), and corrupt or truncated files
// (refused with the byte where the problem is).
#include "catalog/gguf.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "catalog/ggml_types.h"
#include "gtest/gtest.h"
#include "tests/gguf_writer.h"

namespace fitrank {
namespace {

using testing::GgufWriter;
using testing::TinyLlama;

GgufHeader MustParse(const std::string& bytes) {
  GgufHeaderResult r = ParseGgufHeader(bytes, bytes.size(), "t.gguf");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.need_bytes, 0u);
  EXPECT_TRUE(r.header.has_value());
  return r.header ? *r.header : GgufHeader{};
}

TEST(GgufTest, ReadsTensorsAndSizesThemExactly) {
  GgufWriter w = TinyLlama(2);
  GgufHeader h = MustParse(w.Bytes());
  EXPECT_EQ(h.version, 3u);
  ASSERT_EQ(h.tensors.size(), 1u + 2 * 8 + 2);
  EXPECT_EQ(h.tensors[0].name, "token_embd.weight");
  EXPECT_EQ(h.tensors[0].elements, 256u * 320);
  // Q4_K: 144 bytes per 256 weights.
  EXPECT_EQ(h.tensors[0].bytes, 320u * 144);
  EXPECT_EQ(h.tensor_bytes, w.tensor_bytes());
  const uint64_t per_layer = 256 + 256 * 256 + 256 * 64 * 2 + 256 * 256 + 256 * 512 * 3;
  EXPECT_EQ(h.parameters, 256u * 320 * 2 + 256 + 2 * per_layer);
  EXPECT_EQ(h.data_offset % 32, 0u);
  EXPECT_EQ(h.Text("general.name"), "Tiny Llama");
  EXPECT_EQ(h.Number("llama.attention.head_count_kv"), 2);
  EXPECT_EQ(h.Find("tokenizer.ggml.tokens")->length, 320u);
}

TEST(GgufTest, ModelFromHeader) {
  GgufWriter w = TinyLlama(3);
  GgufHeader h = MustParse(w.Bytes());
  absl::StatusOr<GgufModel> gm = ModelFromGguf(h, "dir/tiny.Q4_K_M.gguf");
  ASSERT_TRUE(gm.ok()) << gm.status();
  const Model& m = gm->model;
  EXPECT_EQ(m.id, "gguf:Tiny Llama");
  EXPECT_EQ(m.layers, 3);
  EXPECT_EQ(m.hidden_size, 256);
  EXPECT_EQ(m.attention_heads, 8);
  EXPECT_EQ(m.kv_heads, 2);
  EXPECT_EQ(m.head_dim, 32);
  EXPECT_EQ(m.vocab_size, 320);
  EXPECT_EQ(m.max_context, 8192);
  EXPECT_FALSE(m.tied_embeddings);
  EXPECT_DOUBLE_EQ(m.params_b, h.parameters / 1e9);
  EXPECT_EQ(gm->weights_bytes, w.tensor_bytes());
  EXPECT_EQ(gm->file_type, "Q4_K_M");
  EXPECT_EQ(gm->architecture, "llama");
}

TEST(GgufTest, MoeSlidingAndPerLayerKvHeads) {
  GgufWriter w;
  w.Str("general.architecture", "gemma3")
      .U32("gemma3.block_count", 6)
      .U32("gemma3.embedding_length", 64)
      .U32("gemma3.attention.head_count", 4)
      .I32Array("gemma3.attention.head_count_kv", {1, 1, 0, 1, 1, 1})
      .U32("gemma3.attention.sliding_window", 512)
      .U32("gemma3.expert_count", 8)
      .U32("gemma3.expert_used_count", 2);
  w.Tensor("token_embd.weight", "F16", {64, 100})
      .Tensor("blk.0.ffn_up_exps.weight", "F16", {64, 32, 8});
  absl::StatusOr<GgufModel> gm = ModelFromGguf(MustParse(w.Bytes()), "g.gguf");
  ASSERT_TRUE(gm.ok()) << gm.status();
  const Model& m = gm->model;
  EXPECT_EQ(m.name, "g");  // no general.name: the file's stem
  EXPECT_EQ(m.kv_heads, 1);
  EXPECT_EQ(m.attention.kv_layers, 5);
  EXPECT_EQ(m.attention.kind, AttentionKind::kSlidingMix);
  EXPECT_EQ(m.attention.sliding_window, 512);
  EXPECT_EQ(m.attention.sliding_window_layers, 5);  // gemma3: 5 of every 6 layers slide
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_EQ(m.vocab_size, 100);  // token_embd's rows
  EXPECT_EQ(m.experts, 8);
  const double total = 64 * 100 + 64 * 32 * 8, inactive = 64 * 32 * 8 * 6 / 8.0;
  EXPECT_DOUBLE_EQ(m.params_b, total / 1e9);
  EXPECT_DOUBLE_EQ(m.active_params_b, (total - inactive) / 1e9);
  EXPECT_EQ(gm->file_type, "");
}

TEST(GgufTest, MissingRequiredKeyIsNamed) {
  GgufWriter w;
  w.Str("general.architecture", "qwen3").U32("qwen3.block_count", 2);
  w.Tensor("token_embd.weight", "F32", {8, 8});
  absl::StatusOr<GgufModel> gm = ModelFromGguf(MustParse(w.Bytes()), "q.gguf");
  ASSERT_FALSE(gm.ok());
  EXPECT_EQ(gm.status().message(), "q.gguf: missing or invalid metadata `qwen3.embedding_length`");
}

TEST(GgufTest, RefusesCountsThatAreNotWholeNumbers) {
  // A later key overrides an earlier one; NaN, negative, fractional or huge floats in a count
  // are refused by name (a fuzzer found NaN reaching an integer cast).
  for (const char* key : {"llama.block_count", "llama.context_length", "llama.attention.key_length",
                          "llama.attention.head_count_kv", "llama.expert_count",
                          "llama.attention.sliding_window", "llama.attention.kv_lora_rank"}) {
    for (float bad : {std::nanf(""), -4.0f, 2.5f, 1e30f}) {
      GgufWriter w = TinyLlama(1);
      w.F32(key, bad);
      absl::StatusOr<GgufModel> gm = ModelFromGguf(MustParse(w.Bytes()), "t.gguf");
      ASSERT_FALSE(gm.ok()) << key << " = " << bad;
      EXPECT_EQ(gm.status().message(), absl::StrCat("t.gguf: missing or invalid metadata `", key,
                                                    "`"));
    }
  }
  GgufWriter w = TinyLlama(1);
  w.F32("llama.context_length", 4096.0f);  // a whole number stored as a float is a count
  absl::StatusOr<GgufModel> gm = ModelFromGguf(MustParse(w.Bytes()), "t.gguf");
  ASSERT_TRUE(gm.ok()) << gm.status();
  EXPECT_EQ(gm->model.max_context, 4096);
}

TEST(GgufTest, RefusesAnAlignmentThatIsNotAPowerOfTwo) {
  for (float bad : {std::nanf(""), 0.0f, 24.0f, 32.5f, 1e30f}) {
    GgufWriter w = TinyLlama(1);
    w.F32("general.alignment", bad);
    const std::string bytes = w.Bytes();
    EXPECT_NE(ParseGgufHeader(bytes, bytes.size(), "t.gguf").error.find("is not a power of two"),
              std::string::npos)
        << bad;
  }
}

TEST(GgufTest, ShortPrefixAsksForMoreBytes) {
  const std::string bytes = TinyLlama(2).Bytes();
  GgufHeaderResult r =
      ParseGgufHeader(absl::string_view(bytes).substr(0, 100), bytes.size(), "t.gguf");
  EXPECT_FALSE(r.header.has_value());
  EXPECT_EQ(r.error, "");
  EXPECT_GT(r.need_bytes, 100u);
  // Asking again with what it asked for makes progress until the header is whole.
  uint64_t have = r.need_bytes;
  for (int i = 0; i < 10000 && !r.header; ++i) {
    r = ParseGgufHeader(absl::string_view(bytes).substr(0, have), bytes.size(), "t.gguf");
    ASSERT_EQ(r.error, "");
    if (!r.header) {
      ASSERT_GT(r.need_bytes, have);
      have = r.need_bytes;
    }
  }
  ASSERT_TRUE(r.header.has_value());
  EXPECT_LT(have, bytes.size());  // the tensor data was never needed
}

TEST(GgufTest, RefusesNonGguf) {
  GgufHeaderResult r = ParseGgufHeader("{\"json\": 1}", 11, "x.gguf");
  EXPECT_EQ(r.error, "x.gguf: byte 0: not a GGUF file (it does not start with `GGUF`)");
  r = ParseGgufHeader("GG", 2, "x.gguf");
  EXPECT_EQ(r.error, "x.gguf: byte 0: not a GGUF file (2 bytes)");
}

TEST(GgufTest, RefusesTruncatedHeader) {
  const std::string bytes = TinyLlama(1).Bytes().substr(0, 60);
  GgufHeaderResult r = ParseGgufHeader(bytes, bytes.size(), "t.gguf");
  EXPECT_FALSE(r.header.has_value());
  EXPECT_EQ(r.need_bytes, 0u);
  EXPECT_EQ(r.error.rfind("t.gguf: byte ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find(": truncated: needs "), std::string::npos) << r.error;
}

TEST(GgufTest, RefusesFileTruncatedInItsData) {
  const std::string bytes = TinyLlama(1).Bytes(/*with_data=*/false);
  GgufHeaderResult r = ParseGgufHeader(bytes, bytes.size(), "t.gguf");
  EXPECT_FALSE(r.header.has_value());
  EXPECT_EQ(r.error,
            "t.gguf: byte 4832: tensor `token_embd.weight` (46080 bytes at data offset 0) "
            "ends at byte 50912, past the end of the file (4826 bytes): truncated");
}

TEST(GgufTest, RefusesCorruptCountsTypesAndDims) {
  std::string bytes = TinyLlama(1).Bytes();
  std::string huge = bytes;
  huge[8] = '\xff';   // tensor_count's low byte
  huge[15] = '\x7f';  // tensor_count's high byte: ~9e18 tensors
  EXPECT_NE(ParseGgufHeader(huge, huge.size(), "t.gguf").error.find("not a plausible header"),
            std::string::npos);

  GgufWriter w;
  w.Str("general.architecture", "llama");
  w.Tensor("a", "F32", {8});
  std::string bad_type = w.Bytes();
  // Tensor info: name (u64 length 1, "a"), u32 n_dims, u64 dims[0], u32 ggml type, u64 offset.
  const size_t info = bad_type.find(std::string("\x01\0\0\0\0\0\0\0a\x01\0\0\0", 13));
  ASSERT_NE(info, std::string::npos);
  const size_t type_pos = info + 8 + 1 + 4 + 8;
  bad_type[type_pos] = 99;
  EXPECT_NE(ParseGgufHeader(bad_type, bad_type.size(), "t.gguf")
                .error.find("tensor `a`: unknown ggml type 99"),
            std::string::npos);

  std::string bad_dims = w.Bytes();
  bad_dims[info + 9] = 9;  // n_dims
  EXPECT_NE(
      ParseGgufHeader(bad_dims, bad_dims.size(), "t.gguf").error.find("tensor `a`: 9 dimensions"),
      std::string::npos);

  std::string long_string = w.Bytes();
  long_string[24 + 7] = '\x10';  // the first key's length: 2^60 bytes
  EXPECT_NE(
      ParseGgufHeader(long_string, long_string.size(), "t.gguf")
          .error.find(
              "t.gguf: byte 32: metadata key 0: string of 1152921504606846996 bytes is longer "
              "than the rest of the file"),
      std::string::npos)
      << ParseGgufHeader(long_string, long_string.size(), "t.gguf").error;
}

TEST(GgufTest, EveryPrefixOfAFileIsHandled) {
  // A reader over any cut of the file either asks for more or refuses; it never crashes.
  const std::string bytes = TinyLlama(1).Bytes();
  for (size_t n = 0; n < bytes.size(); n += 7) {
    const std::string cut = bytes.substr(0, n);
    GgufHeaderResult r = ParseGgufHeader(cut, cut.size(), "t.gguf");
    EXPECT_FALSE(r.header.has_value()) << n;
    EXPECT_FALSE(r.error.empty()) << n;
  }
}

TEST(GgufTest, ReadsOnlyTheHeaderOfAFile) {
  char path[] = "/tmp/fitrank_gguf_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  GgufWriter w = TinyLlama(2);
  w.Write(path);
  absl::StatusOr<GgufHeader> h = ReadGgufFile(path);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->tensor_bytes, w.tensor_bytes());
  w.Write(path, /*with_data=*/false);
  h = ReadGgufFile(path);
  EXPECT_FALSE(h.ok());
  std::remove(path);
  h = ReadGgufFile(path);
  EXPECT_TRUE(absl::IsNotFound(h.status()));
  h = ReadGgufFile("/tmp");
  EXPECT_EQ(h.status().message(), "/tmp: not a regular file");
}

}  // namespace
}  // namespace fitrank

namespace fitrank {
namespace {

// The id index finds every listed type and nothing else (retired ids 4, 5, 31-33, 36-38, ids
// past the table, and past the index).
TEST(GgmlTypes, EveryIdFindsItsTypeAndNoOtherIdFindsOne) {
  int found = 0;
  for (uint32_t id = 0; id < 200; ++id) {
    const GgmlType* t = GgmlTypeById(id);
    if (t == nullptr) continue;
    ++found;
    EXPECT_EQ(t->id, id);
    EXPECT_EQ(GgmlTypeByName(t->name), t);
  }
  EXPECT_EQ(found, static_cast<int>(sizeof(kGgmlTypes) / sizeof(kGgmlTypes[0])));
  for (uint32_t retired : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 40u, 63u, 64u, 4000000000u}) {
    EXPECT_EQ(GgmlTypeById(retired), nullptr) << retired;
  }
  static_assert(GgmlTypeById(12)->block_bytes == 144);  // Q4_K, looked up at compile time
}

}  // namespace
}  // namespace fitrank
