// YamlTree images: the tree's three arrays, as they lie in memory, behind a header that ties
// the image to the exact YAML text it came from.
//
//   "FRYT" u32 version | u64 yaml bytes | u64 yaml hash | u32 nodes | u32 children | u32 text
//   nodes: YamlTree::Node, 24 bytes each | children: u32 each | text bytes
//
// The header is 36 bytes, so with the image 4-byte aligned (cmake/embed.cmake aligns to 16) the
// node and child arrays are aligned for direct use: an embedded image is read in place.
#include <cstring>

#include "base/yaml_tree.h"

namespace fitrank {
namespace {

constexpr char kMagic[4] = {'F', 'R', 'Y', 'T'};
constexpr uint32_t kVersion = 2;
constexpr size_t kHeaderBytes = 4 + 4 + 8 + 8 + 4 + 4 + 4;

// A word-at-a-time multiplicative hash: stable across builds and processes (absl::Hash is
// not), ~0.1 ms for the whole catalog. Not cryptographic: it guards against using the image of
// a different text by mistake, not against an adversary.
uint64_t TextHash(absl::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

template <class T>
void Put(std::string* out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out->append(b, sizeof(T));
}

template <class T>
T Get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

std::string YamlTree::Image(absl::string_view content) const {
  std::string out;
  out.reserve(kHeaderBytes + node_count_ * sizeof(Node) + child_count_ * 4 + text_bytes_);
  out.append(kMagic, 4);
  Put<uint32_t>(&out, kVersion);
  Put<uint64_t>(&out, content.size());
  Put<uint64_t>(&out, TextHash(content));
  Put<uint32_t>(&out, node_count_);
  Put<uint32_t>(&out, child_count_);
  Put<uint32_t>(&out, text_bytes_);
  out.append(reinterpret_cast<const char*>(nodes_), node_count_ * sizeof(Node));
  out.append(reinterpret_cast<const char*>(children_), child_count_ * sizeof(uint32_t));
  out.append(text_, text_bytes_);
  return out;
}

std::unique_ptr<YamlTree> YamlTree::Load(absl::string_view image,
                                         const absl::string_view* content, bool copy) {
  if (image.size() < kHeaderBytes || std::memcmp(image.data(), kMagic, 4) != 0) return nullptr;
  const char* h = image.data();
  const uint32_t nodes = Get<uint32_t>(h + 24), children = Get<uint32_t>(h + 28),
                 text = Get<uint32_t>(h + 32);
  if (Get<uint32_t>(h + 4) != kVersion || nodes == 0) return nullptr;
  if (content != nullptr && (Get<uint64_t>(h + 8) != content->size() ||
                             Get<uint64_t>(h + 16) != TextHash(*content))) {
    return nullptr;
  }
  const uint64_t need = uint64_t{nodes} * sizeof(Node) + uint64_t{children} * 4 + text;
  if (image.size() - kHeaderBytes != need) return nullptr;
  const char* node_bytes = h + kHeaderBytes;
  const char* child_bytes = node_bytes + uint64_t{nodes} * sizeof(Node);
  const char* text_bytes = child_bytes + uint64_t{children} * 4;

  std::unique_ptr<YamlTree> tree(new YamlTree());
  if (copy || reinterpret_cast<uintptr_t>(node_bytes) % alignof(Node) != 0) {
    tree->owned_nodes_.resize(nodes);
    std::memcpy(tree->owned_nodes_.data(), node_bytes, uint64_t{nodes} * sizeof(Node));
    tree->owned_children_.resize(children);
    std::memcpy(tree->owned_children_.data(), child_bytes, uint64_t{children} * 4);
    tree->owned_text_.assign(text_bytes, text);
    tree->UseOwned();
  } else {
    tree->nodes_ = reinterpret_cast<const Node*>(node_bytes);
    tree->children_ = reinterpret_cast<const uint32_t*>(child_bytes);
    tree->text_ = text_bytes;
    tree->node_count_ = nodes;
    tree->child_count_ = children;
    tree->text_bytes_ = text;
  }
  // Every node's type and range must be valid, so accessors never read out of bounds.
  for (uint32_t i = 0; i < nodes; ++i) {
    const Node& n = tree->nodes_[i];
    if (static_cast<uint8_t>(n.type) > static_cast<uint8_t>(Type::kSeq)) return nullptr;
    if (n.type == Type::kNull) continue;
    const uint64_t span = n.type == Type::kMap ? 2 * uint64_t{n.size} : n.size;
    if (uint64_t{n.begin} + span > (n.type == Type::kScalar ? text : children)) return nullptr;
  }
  for (uint32_t i = 0; i < children; ++i) {
    if (tree->children_[i] >= nodes) return nullptr;
  }
  return tree;
}

std::unique_ptr<YamlTree> YamlTree::FromImage(absl::string_view image,
                                              absl::string_view content) {
  return Load(image, &content, /*copy=*/true);
}

}  // namespace fitrank
