// The header of a GGUF file (llama.cpp's model format, version 2 and 3): its metadata and its
// tensor infos, read from a prefix of the file's bytes, and the Model it describes.
//
// The reader is a pure function over bytes, so tests and fuzzers call it without a disk. A GGUF
// header comes before the tensor data, so only a prefix of the file is read: the caller reads
// some bytes (ReadGgufFile starts with kGgufFirstRead), and if the header runs past them the
// reader says how many bytes it needs (GgufHeaderResult::need_bytes) and the caller reads again,
// up to kGgufMaxHeaderBytes. The tensor data is never read; its extent is checked against the
// file size, so a file truncated in the data is refused too.
//
// Layout (shared/reference/formats.md): "GGUF", u32 version, u64 tensor_count, u64 kv_count,
// kv_count x (string key, u32 value type, value), tensor_count x (string name, u32 n_dims,
// u64 dims[n_dims], u32 ggml type, u64 offset), padding to general.alignment (default 32),
// tensor data. All little-endian.
//
// Thread safety: plain functions and data; no shared state.
#ifndef FITRANK_CATALOG_GGUF_H_
#define FITRANK_CATALOG_GGUF_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "catalog/types.h"

namespace fitrank {

// First prefix a file reader tries, and the most it ever reads. Headers are mostly the
// tokenizer: ~3 MB for a 150K vocabulary with its merges; 256 MiB leaves room for any real one.
inline constexpr uint64_t kGgufFirstRead = 8ull << 20;
inline constexpr uint64_t kGgufMaxHeaderBytes = 256ull << 20;

// One metadata value. Scalars (integers, floats, bools) are in `number`; strings in `text`.
// Arrays keep their element type and length; numeric elements are kept in `numbers` when there
// are at most kGgufMaxKeptArray of them (per-layer arrays), string elements are skipped.
inline constexpr uint64_t kGgufMaxKeptArray = 4096;
struct GgufValue {
  enum class Kind { kNumber, kBool, kString, kArray };
  Kind kind = Kind::kNumber;
  double number = 0;            // kNumber, kBool (0/1)
  std::string text;             // kString
  uint32_t element_type = 0;    // kArray: the GGUF value type of the elements
  uint64_t length = 0;          // kArray: element count
  std::vector<double> numbers;  // kArray of numbers or bools, if length <= kGgufMaxKeptArray
};

struct GgufTensor {
  std::string name;            // "blk.0.attn_q.weight"
  uint32_t ggml_type = 0;      // catalog/ggml_types.h id
  std::vector<uint64_t> dims;  // dims[0] innermost; 1 to 4 of them
  uint64_t elements = 0;       // product of dims
  uint64_t bytes = 0;          // elements / block weights x block bytes
  uint64_t offset = 0;         // from the start of the tensor data
};

struct GgufHeader {
  uint32_t version = 0;
  std::map<std::string, GgufValue, std::less<>> metadata;
  std::vector<GgufTensor> tensors;
  uint64_t alignment = 32;
  uint64_t data_offset = 0;   // where the tensor data starts in the file
  uint64_t tensor_bytes = 0;  // sum of every tensor's bytes: the weights' exact size
  uint64_t parameters = 0;    // sum of every tensor's elements

  // Metadata lookups; nullptr / `def` when absent or of another kind.
  const GgufValue* Find(absl::string_view key) const;
  double Number(absl::string_view key, double def = 0) const;
  std::string Text(absl::string_view key) const;
};

// The outcome of reading a prefix. Exactly one of: `header` set (done); `need_bytes` > 0 (the
// header continues past the prefix: read at least this many bytes from the start and call
// again); `error` not empty (the file is not a usable GGUF file).
struct GgufHeaderResult {
  std::optional<GgufHeader> header;
  uint64_t need_bytes = 0;
  // "FILE: byte N: what is wrong", e.g. "m.gguf: byte 24: metadata key 0: string of
  // 18446744073709551615 bytes is longer than the file". Truncation at the end of the file says
  // "truncated".
  std::string error;
};

// Reads the header from `prefix`, the first bytes of a file of `file_size` bytes
// (prefix.size() <= file_size). `display_name` names the file in errors. Never reads past
// `prefix`, never allocates more than the prefix justifies, never throws.
GgufHeaderResult ParseGgufHeader(absl::string_view prefix, uint64_t file_size,
                                 absl::string_view display_name);

// Reads the header of the file at `path` (a regular file), reading only the prefix it needs.
// Errors: NotFound / InvalidArgument with the path and, for format problems, the byte offset.
absl::StatusOr<GgufHeader> ReadGgufFile(const std::string& path);

// A model described by a GGUF header.
struct GgufModel {
  // id "gguf:<general.name or file stem>", layout from metadata; file_weights_bytes and
  // file_quant set from the tensors and general.file_type.
  Model model;
  uint64_t weights_bytes = 0;  // exact: the tensors' bytes
  std::string file_type;       // the recipe, "Q4_K_M" (from general.file_type), or "" if unknown
  std::string architecture;    // general.architecture, "llama"
};

// The model of `header`. Reads (ARCH = general.architecture): ARCH.block_count,
// ARCH.embedding_length, ARCH.attention.head_count (required); ARCH.attention.head_count_kv
// (scalar or per-layer array; layers with 0 keep no KV cache), ARCH.attention.key_length,
// ARCH.context_length, ARCH.attention.sliding_window (+ sliding_window_pattern),
// ARCH.expert_count, ARCH.expert_used_count, ARCH.attention.kv_lora_rank,
// ARCH.rope.dimension_count, the vocabulary (tokenizer.ggml.tokens length, else ARCH.vocab_size,
// else token_embd's rows). Parameters are the tensors' elements; active parameters count the
// routed expert tensors (names with "_exps") at expert_used_count / expert_count. Tied
// embeddings: no output.weight tensor. Missing required keys are InvalidArgument naming the key.
absl::StatusOr<GgufModel> ModelFromGguf(const GgufHeader& header, absl::string_view display_name);

// llama.cpp's file type name for general.file_type ("Q4_K_M" for 15), or "" if unknown.
absl::string_view GgufFileTypeName(uint32_t file_type);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_GGUF_H_
