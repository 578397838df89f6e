// YamlTree images: the tree's three arrays, little-endian, behind a header that ties the image
// to the exact YAML text it came from.
//
//   "FRYT" u32 version | u64 yaml bytes | u64 yaml hash | u32 nodes | u32 children | u32 text bytes
//   nodes: u8 type, i32 line, i32 col, i32 pos, u32 begin, u32 size   (21 bytes each)
//   children: u32 each | text bytes
#include <cstring>

#include "base/yaml_tree.h"

namespace fitrank {
namespace {

constexpr char kMagic[4] = {'F', 'R', 'Y', 'T'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderBytes = 4 + 4 + 8 + 8 + 4 + 4 + 4;
constexpr size_t kNodeBytes = 1 + 4 + 4 + 4 + 4 + 4;

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

// Reads from a bounded buffer; every read past the end fails the whole image.
struct Cursor {
  const char* p;
  const char* end;
  template <class T>
  bool Get(T* v) {
    if (static_cast<size_t>(end - p) < sizeof(T)) return false;
    std::memcpy(v, p, sizeof(T));
    p += sizeof(T);
    return true;
  }
};

}  // namespace

std::string YamlTree::Image(absl::string_view content) const {
  std::string out;
  out.reserve(kHeaderBytes + nodes_.size() * kNodeBytes + children_.size() * 4 + text_.size());
  out.append(kMagic, 4);
  Put<uint32_t>(&out, kVersion);
  Put<uint64_t>(&out, content.size());
  Put<uint64_t>(&out, TextHash(content));
  Put<uint32_t>(&out, static_cast<uint32_t>(nodes_.size()));
  Put<uint32_t>(&out, static_cast<uint32_t>(children_.size()));
  Put<uint32_t>(&out, static_cast<uint32_t>(text_.size()));
  for (const Node& n : nodes_) {
    Put<uint8_t>(&out, static_cast<uint8_t>(n.type));
    Put<int32_t>(&out, n.line);
    Put<int32_t>(&out, n.col);
    Put<int32_t>(&out, n.pos);
    Put<uint32_t>(&out, n.begin);
    Put<uint32_t>(&out, n.size);
  }
  for (uint32_t c : children_) Put<uint32_t>(&out, c);
  out.append(text_);
  return out;
}

std::unique_ptr<YamlTree> YamlTree::FromImage(absl::string_view image,
                                              absl::string_view content) {
  Cursor c{image.data(), image.data() + image.size()};
  char magic[4];
  uint32_t version = 0, nodes = 0, children = 0, text = 0;
  uint64_t yaml_bytes = 0, yaml_hash = 0;
  if (!c.Get(&magic) || std::memcmp(magic, kMagic, 4) != 0 || !c.Get(&version) ||
      version != kVersion || !c.Get(&yaml_bytes) || yaml_bytes != content.size() ||
      !c.Get(&yaml_hash) || yaml_hash != TextHash(content) || !c.Get(&nodes) ||
      !c.Get(&children) || !c.Get(&text) || nodes == 0) {
    return nullptr;
  }
  const uint64_t need = uint64_t{nodes} * kNodeBytes + uint64_t{children} * 4 + text;
  if (static_cast<uint64_t>(c.end - c.p) != need) return nullptr;

  std::unique_ptr<YamlTree> tree(new YamlTree());
  tree->nodes_.resize(nodes);
  for (Node& n : tree->nodes_) {
    uint8_t type = 0;
    c.Get(&type);
    c.Get(&n.line);
    c.Get(&n.col);
    c.Get(&n.pos);
    c.Get(&n.begin);
    c.Get(&n.size);
    if (type > static_cast<uint8_t>(Type::kSeq)) return nullptr;
    n.type = static_cast<Type>(type);
  }
  tree->children_.resize(children);
  for (uint32_t& ch : tree->children_) {
    c.Get(&ch);
    if (ch >= nodes) return nullptr;
  }
  tree->text_.assign(c.p, text);
  // Every node's range must lie inside its array, so accessors never read out of bounds.
  for (const Node& n : tree->nodes_) {
    if (n.type == Type::kNull) continue;
    const bool scalar = n.type == Type::kScalar;
    const uint64_t span = n.type == Type::kMap ? 2 * uint64_t{n.size} : n.size;
    if (uint64_t{n.begin} + span > (scalar ? text : children)) return nullptr;
  }
  return tree;
}

}  // namespace fitrank
