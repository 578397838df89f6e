// The ggml tensor types that GGUF files store: type id, name, and block layout (bytes per block,
// weights per block). A file-format fact, not a tunable: read by the GGUF header reader (exact
// sizes of a local file) and by per-tensor size estimates of catalog models.
//
// Source: ggml/include/ggml.h (enum ggml_type) and ggml/src/ggml-common.h (block structs), as
// summarised in shared/reference/formats.md. Ids that ggml has retired (4, 5: Q4_2, Q4_3;
// 31-33: Q4_0_4_4 ...; 36-38: IQ4_NL_4_4 ...) are absent; a file naming one is refused.
#ifndef FITRANK_CATALOG_GGML_TYPES_H_
#define FITRANK_CATALOG_GGML_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fitrank {

struct GgmlType {
  uint32_t id;              // enum ggml_type value, as stored in a GGUF tensor info
  std::string_view name;    // "Q4_K", as ggml_type_name() prints it
  uint32_t block_bytes;     // bytes of one block
  uint32_t block_weights;   // weights (elements) of one block
  // Bits per weight of the type alone (block_bytes * 8 / block_weights).
  constexpr double bpw() const { return block_bytes * 8.0 / block_weights; }
};

inline constexpr GgmlType kGgmlTypes[] = {
    {0, "F32", 4, 1},         {1, "F16", 2, 1},          {2, "Q4_0", 18, 32},
    {3, "Q4_1", 20, 32},      {6, "Q5_0", 22, 32},       {7, "Q5_1", 24, 32},
    {8, "Q8_0", 34, 32},      {9, "Q8_1", 36, 32},       {10, "Q2_K", 84, 256},
    {11, "Q3_K", 110, 256},   {12, "Q4_K", 144, 256},    {13, "Q5_K", 176, 256},
    {14, "Q6_K", 210, 256},   {15, "Q8_K", 292, 256},    {16, "IQ2_XXS", 66, 256},
    {17, "IQ2_XS", 74, 256},  {18, "IQ3_XXS", 98, 256},  {19, "IQ1_S", 50, 256},
    {20, "IQ4_NL", 18, 32},   {21, "IQ3_S", 110, 256},   {22, "IQ2_S", 82, 256},
    {23, "IQ4_XS", 136, 256}, {24, "I8", 1, 1},          {25, "I16", 2, 1},
    {26, "I32", 4, 1},        {27, "I64", 8, 1},         {28, "F64", 8, 1},
    {29, "IQ1_M", 56, 256},   {30, "BF16", 2, 1},        {34, "TQ1_0", 54, 256},
    {35, "TQ2_0", 66, 256},   {39, "MXFP4", 17, 32},
};

namespace ggml_internal {

// kGgmlTypes' position of each id below kIdLimit (-1: none), so that an id is looked up with
// one load: per-tensor size estimates look types up millions of times in a sweep.
inline constexpr uint32_t kIdLimit = 64;
struct IdIndex {
  int8_t at[kIdLimit];
};
constexpr IdIndex MakeIdIndex() {
  IdIndex index{};
  for (int8_t& i : index.at) i = -1;
  for (size_t i = 0; i < sizeof(kGgmlTypes) / sizeof(kGgmlTypes[0]); ++i) {
    index.at[kGgmlTypes[i].id] = static_cast<int8_t>(i);
  }
  return index;
}
inline constexpr IdIndex kIdIndex = MakeIdIndex();

}  // namespace ggml_internal

// The type with this id, or nullptr.
constexpr const GgmlType* GgmlTypeById(uint32_t id) {
  if (id >= ggml_internal::kIdLimit) return nullptr;
  const int i = ggml_internal::kIdIndex.at[id];
  return i < 0 ? nullptr : &kGgmlTypes[i];
}

// The type with this name (exact, as above), or nullptr.
constexpr const GgmlType* GgmlTypeByName(std::string_view name) {
  for (const GgmlType& t : kGgmlTypes) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace fitrank

#endif  // FITRANK_CATALOG_GGML_TYPES_H_
