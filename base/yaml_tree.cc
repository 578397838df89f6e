#include "base/yaml_tree.h"

#include <algorithm>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "yaml-cpp/eventhandler.h"
#include "yaml-cpp/exceptions.h"
#include "yaml-cpp/mark.h"
#include "yaml-cpp/parser.h"

namespace fitrank {

YamlNode YamlNode::Get(absl::string_view key) const {
  if (!IsMap()) return {};
  for (size_t i = 0, n = size(); i < n; ++i) {
    YamlNode k = Key(i);
    if (k.IsScalar() && k.Scalar() == key) return Value(i);
  }
  return {};
}

Location YamlNode::Where(absl::string_view file) const {
  return Location{std::string(file), line(), col()};
}

void YamlTree::UseOwned() {
  nodes_ = owned_nodes_.data();
  children_ = owned_children_.data();
  text_ = owned_text_.data();
  node_count_ = static_cast<uint32_t>(owned_nodes_.size());
  child_count_ = static_cast<uint32_t>(owned_children_.size());
  text_bytes_ = static_cast<uint32_t>(owned_text_.size());
}

// Folds yaml-cpp's parser events into a YamlTree.
struct YamlTreeBuilder : YAML::EventHandler {
  using Type = YamlTree::Type;
  using Node = YamlTree::Node;
  YamlTreeBuilder() : owned(new YamlTree()), tree(*owned) {}
  std::unique_ptr<YamlTree> owned;
  YamlTree& tree;

  // Open containers: node index and where its children start in `pending`, which holds the
  // children of every open container (one vector, no allocation per container).
  struct Open {
    uint32_t node;
    size_t first;
  };
  std::vector<Open> stack;
  std::vector<uint32_t> pending;
  absl::flat_hash_map<YAML::anchor_t, uint32_t> anchors;
  bool have_root = false;

  uint32_t NewNode(Type type, const YAML::Mark& m) {
    Node node;
    node.type = type;
    node.line = m.line + 1;
    node.col = m.column + 1;
    node.pos = m.pos;
    tree.owned_nodes_.push_back(node);
    return static_cast<uint32_t>(tree.owned_nodes_.size() - 1);
  }

  void Attach(uint32_t node, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors[anchor] = node;
    if (stack.empty()) {
      have_root = true;  // the root is node 0: the first node created
      return;
    }
    pending.push_back(node);
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override {
    Attach(NewNode(Type::kNull, m), anchor);
  }

  // An alias is the anchored node itself; an unknown anchor, or one of a container still open
  // (`&a [*a]`, which would make the tree a cycle), reads as null.
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    auto it = anchors.find(anchor);
    const bool open = it != anchors.end() &&
                      std::any_of(stack.begin(), stack.end(),
                                  [&](const Open& o) { return o.node == it->second; });
    if (it != anchors.end() && !open) {
      Attach(it->second, YAML::NullAnchor);
    } else {
      Attach(NewNode(Type::kNull, m), YAML::NullAnchor);
    }
  }

  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    uint32_t n = NewNode(Type::kScalar, m);
    auto& node = tree.owned_nodes_[n];
    node.begin = static_cast<uint32_t>(tree.owned_text_.size());
    node.size = static_cast<uint32_t>(value.size());
    tree.owned_text_.append(value);
    Attach(n, anchor);
  }

  void Start(Type type, const YAML::Mark& m, YAML::anchor_t anchor) {
    uint32_t n = NewNode(type, m);
    Attach(n, anchor);
    stack.push_back({n, pending.size()});
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Start(Type::kSeq, m, anchor);
  }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Start(Type::kMap, m, anchor);
  }
  void OnSequenceEnd() override { End(); }
  void OnMapEnd() override { End(); }

  void End() {
    Open open = stack.back();
    stack.pop_back();
    auto& node = tree.owned_nodes_[open.node];
    const size_t count = pending.size() - open.first;
    node.begin = static_cast<uint32_t>(tree.owned_children_.size());
    node.size = static_cast<uint32_t>(node.type == Type::kMap ? count / 2 : count);
    tree.owned_children_.insert(tree.owned_children_.end(), pending.begin() + open.first,
                                pending.end());
    pending.resize(open.first);
  }
};

namespace {

// Notes where a second document starts, and ignores its content.
struct SecondDocument : YAML::EventHandler {
  bool seen = false;
  YAML::Mark mark;
  void OnDocumentStart(const YAML::Mark& m) override {
    if (!seen) mark = m;
    seen = true;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

std::unique_ptr<YamlTree> YamlTree::Parse(absl::string_view content, absl::string_view file,
                                          Diagnostics* diags) {
  YamlTreeBuilder b;
  b.tree.owned_nodes_.reserve(content.size() / 12);
  b.tree.owned_children_.reserve(content.size() / 12);
  b.tree.owned_text_.reserve(content.size() / 2);
  std::istringstream in{std::string(content)};
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(b);
    // Every fitrank file is one document: a second one (`---` and more) would otherwise be
    // dropped without a word.
    SecondDocument second;
    if (parser.HandleNextDocument(second) && second.seen) {
      diags->Error("yaml-multiple-documents",
                   Location{std::string(file), second.mark.line + 1, second.mark.column + 1},
                   "a second YAML document starts here; fitrank reads one document per file",
                   "remove the `---` line, or move what follows into another file");
      return nullptr;
    }
  } catch (const YAML::Exception& e) {
    Location loc{std::string(file), 0, 0};
    if (!e.mark.is_null()) loc = Location{std::string(file), e.mark.line + 1, e.mark.column + 1};
    diags->Error("yaml-syntax", loc, absl::StrCat("YAML syntax error: ", e.msg),
                 "check indentation, quoting and the ':' after each key");
    return nullptr;
  }
  if (!b.have_root) {
    // An empty document: a null root.
    Node null_root;
    null_root.line = null_root.col = 1;
    b.tree.owned_nodes_.push_back(null_root);
  }
  b.tree.UseOwned();
  return std::move(b.owned);
}

}  // namespace fitrank
