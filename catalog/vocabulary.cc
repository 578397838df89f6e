#include "catalog/vocabulary.h"

namespace fitrank {
namespace {

constexpr Segment kSegments[] = {Segment::kConsumer, Segment::kWorkstation, Segment::kDatacenter,
                                 Segment::kApple,    Segment::kApu,         Segment::kEmbedded,
                                 Segment::kCpu};
constexpr AttentionKind kAttentionKinds[] = {AttentionKind::kFull, AttentionKind::kSlidingMix,
                                             AttentionKind::kMla, AttentionKind::kHybrid,
                                             AttentionKind::kNone};
constexpr DiffusionKind kDiffusionKinds[] = {DiffusionKind::kImage, DiffusionKind::kVideo};

// An enum's value named `name` by `name_of`, among `all`.
template <typename E, size_t N>
std::optional<E> ParseByName(const E (&all)[N], absl::string_view (*name_of)(E),
                             absl::string_view name) {
  for (E e : all) {
    if (name_of(e) == name) return e;
  }
  return std::nullopt;
}

// The names of `all`, in order.
template <typename E, size_t N>
std::vector<std::string> NamesOf(const E (&all)[N], absl::string_view (*name_of)(E)) {
  std::vector<std::string> v;
  for (E e : all) v.emplace_back(name_of(e));
  return v;
}

}  // namespace

absl::string_view SegmentName(Segment s) {
  switch (s) {
    case Segment::kConsumer: return "consumer";
    case Segment::kWorkstation: return "workstation";
    case Segment::kDatacenter: return "datacenter";
    case Segment::kApple: return "apple";
    case Segment::kApu: return "apu";
    case Segment::kEmbedded: return "embedded";
    case Segment::kCpu: return "cpu";
  }
  return "consumer";
}

std::optional<Segment> ParseSegment(absl::string_view name) {
  return ParseByName(kSegments, SegmentName, name);
}

const std::vector<std::string>& SegmentNames() {
  static const std::vector<std::string> kNames = NamesOf(kSegments, SegmentName);
  return kNames;
}

absl::string_view AttentionKindName(AttentionKind k) {
  switch (k) {
    case AttentionKind::kFull: return "full";
    case AttentionKind::kSlidingMix: return "sliding";
    case AttentionKind::kMla: return "mla";
    case AttentionKind::kHybrid: return "hybrid";
    case AttentionKind::kNone: return "none";
  }
  return "full";
}

std::optional<AttentionKind> ParseAttentionKind(absl::string_view name) {
  return ParseByName(kAttentionKinds, AttentionKindName, name);
}

const std::vector<std::string>& AttentionKindNames() {
  static const std::vector<std::string> kNames = NamesOf(kAttentionKinds, AttentionKindName);
  return kNames;
}

absl::string_view DiffusionKindName(DiffusionKind k) {
  switch (k) {
    case DiffusionKind::kImage: return "image";
    case DiffusionKind::kVideo: return "video";
  }
  return "image";
}

std::optional<DiffusionKind> ParseDiffusionKind(absl::string_view name) {
  return ParseByName(kDiffusionKinds, DiffusionKindName, name);
}

const std::vector<std::string>& DiffusionKindNames() {
  static const std::vector<std::string> kNames = NamesOf(kDiffusionKinds, DiffusionKindName);
  return kNames;
}

const std::vector<std::string>& GpuVendors() {
  static const std::vector<std::string> k = {"NVIDIA", "AMD", "Intel", "Apple", "Qualcomm", "CPU"};
  return k;
}

const std::vector<std::string>& Precisions() {
  static const std::vector<std::string> k = {"FP64", "FP32", "TF32", "FP16", "BF16",
                                             "FP8",  "FP6",  "FP4",  "INT8", "INT4"};
  return k;
}

const std::vector<std::string>& Platforms() {
  static const std::vector<std::string> k = {"CUDA", "ROCm", "Metal", "Vulkan",
                                             "SYCL", "OpenCL", "CPU"};
  return k;
}

const std::vector<std::string>& ModelKinds() {
  static const std::vector<std::string> k = {"instruct", "chat", "reasoning", "hybrid-reasoning",
                                             "code",     "base", "embedding"};
  return k;
}

const std::vector<std::string>& Modalities() {
  static const std::vector<std::string> k = {"text", "text+image", "text+image+audio",
                                             "text+image+video", "text+image+audio+video"};
  return k;
}

const std::vector<std::string>& Capabilities() {
  static const std::vector<std::string> k = {"code",  "reasoning",    "tools",
                                             "vision", "multilingual", "long-context",
                                             "audio", "math"};
  return k;
}

const std::vector<std::string>& QuantFamilies() {
  static const std::vector<std::string> k = {"gguf-legacy", "gguf-k", "gguf-iq", "float", "fp8",
                                             "fp4",         "gptq",   "awq",     "exl2",  "mlc"};
  return k;
}

const std::vector<std::string>& ParallelismKinds() {
  static const std::vector<std::string> k = {"layer", "tensor", "pipeline", "expert"};
  return k;
}

}  // namespace fitrank
