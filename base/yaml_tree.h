// A compact, read-only YAML tree: what every fitrank data file is read through
// (base/yaml_reader.h reads structs from it).
//
// Parse() folds yaml-cpp's parser events into one flat array of nodes; the tree keeps what
// diagnostics need: every node's line and column (1-based). yaml-cpp's own node tree is not
// used: it costs ~120 ms to build for the ~1 MB of shipped data, and every command must finish
// in well under 50 ms.
//
// Shipped files are not parsed at run time at all: a build step (tools/make_yaml_images.cc)
// stores each embedded .yaml file's tree as an image (Image()) laid out as the tree is in
// memory, and the tree is used in place: FromEmbeddedImage(path) for a file served from the
// binary (FileSource::Embedded), FromShippedImage(text) for a text that is byte for byte a
// shipped file (found by length and hash). Edited or user files have no image and are parsed.
//
// Scalars "", "~", "null", "Null" and "NULL" written without quotes are null nodes. Anchors and
// aliases are supported (an alias is the anchored node; an alias of a container still open is
// null, so the tree has no cycles); tags are ignored; only the first document is read.
#ifndef FITRANK_BASE_YAML_TREE_H_
#define FITRANK_BASE_YAML_TREE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"

namespace fitrank {

class YamlTree;
class YamlNode;

// A node of a YamlTree: a cheap handle (tree pointer + index), valid while the tree lives.
// A default-constructed YamlNode is "undefined" (an absent key).
class YamlNode {
 public:
  YamlNode() = default;

  bool IsDefined() const { return tree_ != nullptr; }
  bool IsNull() const;
  bool IsScalar() const;
  bool IsMap() const;
  bool IsSequence() const;

  // The scalar's text (empty for other nodes).
  absl::string_view Scalar() const;
  // Children: a sequence's items, or a map's entries (use Key()/Value()).
  size_t size() const;
  // A sequence's items, for range-for; nothing for other nodes.
  class ItemIterator;
  ItemIterator begin() const;
  ItemIterator end() const;
  YamlNode Item(size_t i) const;   // sequences
  YamlNode Key(size_t i) const;    // maps
  YamlNode Value(size_t i) const;  // maps
  // The value of `key` in a map (first occurrence); undefined if absent or not a map.
  YamlNode Get(absl::string_view key) const;

  int line() const;
  int col() const;
  // Byte offset of the node's first character in the parsed text.
  int pos() const;
  Location Where(absl::string_view file) const;

 private:
  friend class YamlTree;
  YamlNode(const YamlTree* tree, uint32_t index) : tree_(tree), index_(index) {}
  const YamlTree* tree_ = nullptr;
  uint32_t index_ = 0;
};

class YamlTree {
 public:
  // Parses `content`; on a syntax error adds a "yaml-syntax" diagnostic at the error's
  // position and returns nullptr; a second document (`---` then more) is a
  // "yaml-multiple-documents" error at its start, also nullptr. Unlike ParseYaml() it neither looks for a shipped image nor
  // registers `content` with `diags`. The tree lives on the heap because nodes point at it.
  static std::unique_ptr<YamlTree> Parse(absl::string_view content, absl::string_view file,
                                         Diagnostics* diags);

  YamlNode root() const { return YamlNode(this, 0); }

  // A compact binary image of the tree (base/yaml_tree_image.cc), so that the shipped data is
  // parsed once at build time instead of on every command. The image records the length and a
  // 64-bit hash of the YAML text the tree was parsed from.
  std::string Image(absl::string_view content) const;
  // The tree of an Image() (a copy), or nullptr if `image` is malformed, of another format
  // version, or was not made from exactly `content` (so an edited file is always parsed).
  static std::unique_ptr<YamlTree> FromImage(absl::string_view image, absl::string_view content);
  // The tree of `content` from the images of the shipped files (base/yaml_images.cc), or
  // nullptr if `content` is not byte for byte a shipped .yaml file.
  static std::unique_ptr<YamlTree> FromShippedImage(absl::string_view content);
  // The tree of the shipped file `path` ("catalog/gpus.yaml") from its image, without reading
  // the text: for a caller that knows it reads the embedded file of this very build
  // (FileSource::Embedded). nullptr if there is no usable image.
  static std::unique_ptr<YamlTree> FromEmbeddedImage(absl::string_view path);

 private:
  friend class YamlNode;
  friend struct YamlTreeBuilder;
  YamlTree() = default;

  enum class Type : uint8_t { kNull, kScalar, kMap, kSeq };
  // Also the image's node format, byte for byte (padding zeroed), so an embedded image is used
  // in place: a command's cost here is mostly first touches of memory, not instructions.
  struct Node {
    Type type = Type::kNull;
    uint8_t padding[3] = {};
    int32_t line = 0, col = 0, pos = 0;
    uint32_t begin = 0, size = 0;  // scalar: bytes in text_; map/seq: entries in children_
  };
  static_assert(sizeof(Node) == 24, "the image format stores Node as 24 bytes");

  // Points the arrays below at the owned_* storage (a parsed or copied tree).
  void UseOwned();
  // Validates `image` and points the arrays into it (copy: into owned_* storage); nullptr if
  // it is malformed, of another version, or (content given) not made from `content`.
  static std::unique_ptr<YamlTree> Load(absl::string_view image, const absl::string_view* content,
                                        bool copy);

  // The tree's arrays: owned_* for a parsed tree, an embedded image's bytes for a viewed one.
  const Node* nodes_ = nullptr;
  const uint32_t* children_ = nullptr;  // maps: key, value, key, value ...
  const char* text_ = nullptr;          // every scalar's bytes
  uint32_t node_count_ = 0, child_count_ = 0, text_bytes_ = 0;
  std::vector<Node> owned_nodes_;
  std::vector<uint32_t> owned_children_;
  std::string owned_text_;
};

// Accessors are inline: record reading calls them millions of times per load.
inline bool YamlNode::IsNull() const {
  return tree_ != nullptr && tree_->nodes_[index_].type == YamlTree::Type::kNull;
}
inline bool YamlNode::IsScalar() const {
  return tree_ != nullptr && tree_->nodes_[index_].type == YamlTree::Type::kScalar;
}
inline bool YamlNode::IsMap() const {
  return tree_ != nullptr && tree_->nodes_[index_].type == YamlTree::Type::kMap;
}
inline bool YamlNode::IsSequence() const {
  return tree_ != nullptr && tree_->nodes_[index_].type == YamlTree::Type::kSeq;
}
inline absl::string_view YamlNode::Scalar() const {
  if (!IsScalar()) return {};
  const auto& n = tree_->nodes_[index_];
  return absl::string_view(tree_->text_ + n.begin, n.size);
}
inline size_t YamlNode::size() const {
  if (!IsMap() && !IsSequence()) return 0;
  return tree_->nodes_[index_].size;
}
inline YamlNode YamlNode::Item(size_t i) const {
  return YamlNode(tree_, tree_->children_[tree_->nodes_[index_].begin + i]);
}
inline YamlNode YamlNode::Key(size_t i) const {
  return YamlNode(tree_, tree_->children_[tree_->nodes_[index_].begin + 2 * i]);
}
inline YamlNode YamlNode::Value(size_t i) const {
  return YamlNode(tree_, tree_->children_[tree_->nodes_[index_].begin + 2 * i + 1]);
}
class YamlNode::ItemIterator {
 public:
  ItemIterator(YamlNode seq, size_t i) : seq_(seq), i_(i) {}
  YamlNode operator*() const { return seq_.Item(i_); }
  ItemIterator& operator++() { return ++i_, *this; }
  bool operator!=(const ItemIterator& o) const { return i_ != o.i_; }

 private:
  YamlNode seq_;
  size_t i_;
};
inline YamlNode::ItemIterator YamlNode::begin() const { return ItemIterator(*this, 0); }
inline YamlNode::ItemIterator YamlNode::end() const {
  return ItemIterator(*this, IsSequence() ? size() : 0);
}
inline int YamlNode::line() const { return tree_ ? tree_->nodes_[index_].line : 0; }
inline int YamlNode::col() const { return tree_ ? tree_->nodes_[index_].col : 0; }
inline int YamlNode::pos() const { return tree_ ? tree_->nodes_[index_].pos : 0; }

}  // namespace fitrank

#endif  // FITRANK_BASE_YAML_TREE_H_
