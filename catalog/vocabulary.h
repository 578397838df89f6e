// The closed vocabularies of the catalog files: enum spellings and the words allowed in list
// fields. The loader rejects anything else (with a did-you-mean); renderers and the engine use
// the same spellings, so a word means one thing everywhere.
#ifndef FITRANK_CATALOG_VOCABULARY_H_
#define FITRANK_CATALOG_VOCABULARY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "catalog/types.h"

namespace fitrank {

// "consumer" | "workstation" | "datacenter" | "apple" | "apu" | "embedded" | "cpu".
absl::string_view SegmentName(Segment s);
std::optional<Segment> ParseSegment(absl::string_view name);
const std::vector<std::string>& SegmentNames();

// "full" | "sliding" | "mla" | "hybrid" | "none".
absl::string_view AttentionKindName(AttentionKind k);
std::optional<AttentionKind> ParseAttentionKind(absl::string_view name);
const std::vector<std::string>& AttentionKindNames();

// "image" | "video".
absl::string_view DiffusionKindName(DiffusionKind k);
std::optional<DiffusionKind> ParseDiffusionKind(absl::string_view name);
const std::vector<std::string>& DiffusionKindNames();

// Allowed words, in display order.
const std::vector<std::string>& GpuVendors();        // NVIDIA, AMD, Intel, Apple, Qualcomm, CPU
const std::vector<std::string>& Precisions();        // FP64 FP32 TF32 FP16 BF16 FP8 FP6 FP4 INT8 INT4
const std::vector<std::string>& Platforms();         // CUDA ROCm Metal Vulkan SYCL OpenCL CPU
const std::vector<std::string>& ModelKinds();        // instruct, chat, reasoning, ...
const std::vector<std::string>& Modalities();        // text, text+image, ...
const std::vector<std::string>& Capabilities();      // code, reasoning, tools, vision, ...
const std::vector<std::string>& QuantFamilies();     // gguf-legacy, gguf-k, gguf-iq, float, ...
const std::vector<std::string>& ParallelismKinds();  // layer, tensor, pipeline, expert

}  // namespace fitrank

#endif  // FITRANK_CATALOG_VOCABULARY_H_
