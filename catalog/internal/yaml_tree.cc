#include "catalog/internal/yaml_tree.h"

#include <yaml.h>

#include <algorithm>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace fitrank::catalog_internal {

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

// Folds libyaml events into a YamlTree.
struct YamlTreeBuilder {
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
  absl::flat_hash_map<std::string, uint32_t> anchors;
  bool have_root = false;

  uint32_t NewNode(YamlTree::Type type, const yaml_mark_t& m) {
    tree.nodes_.push_back({type, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1});
    return static_cast<uint32_t>(tree.nodes_.size() - 1);
  }

  void Attach(uint32_t node) {
    if (stack.empty()) {
      have_root = true;  // the root is node 0: the first node created
      return;
    }
    pending.push_back(node);
  }

  void Anchor(const yaml_char_t* anchor, uint32_t node) {
    if (anchor != nullptr) anchors[reinterpret_cast<const char*>(anchor)] = node;
  }

  void Scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    const char* v = reinterpret_cast<const char*>(s.value);
    const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE;
    const bool is_null =
        plain && (s.length == 0 || (s.length == 1 && v[0] == '~') ||
                  (s.length == 4 && (std::memcmp(v, "null", 4) == 0 ||
                                     std::memcmp(v, "Null", 4) == 0 ||
                                     std::memcmp(v, "NULL", 4) == 0)));
    uint32_t n = NewNode(is_null ? YamlTree::Type::kNull : YamlTree::Type::kScalar, e.start_mark);
    if (!is_null) {
      auto& node = tree.nodes_[n];
      node.begin = static_cast<uint32_t>(tree.text_.size());
      node.size = static_cast<uint32_t>(s.length);
      tree.text_.append(v, s.length);
    }
    Anchor(s.anchor, n);
    Attach(n);
  }

  void Start(YamlTree::Type type, const yaml_event_t& e, const yaml_char_t* anchor) {
    uint32_t n = NewNode(type, e.start_mark);
    Anchor(anchor, n);
    Attach(n);
    stack.push_back({n, pending.size()});
  }

  void End() {
    Open open = stack.back();
    stack.pop_back();
    auto& node = tree.nodes_[open.node];
    const size_t count = pending.size() - open.first;
    node.begin = static_cast<uint32_t>(tree.children_.size());
    node.size = static_cast<uint32_t>(node.type == YamlTree::Type::kMap ? count / 2 : count);
    tree.children_.insert(tree.children_.end(), pending.begin() + open.first, pending.end());
    pending.resize(open.first);
  }

  // An alias is the anchored node itself; an unknown anchor, or one of a container still open
  // (`&a [*a]`, which would make the tree a cycle), reads as null.
  void Alias(const yaml_event_t& e) {
    auto it = anchors.find(reinterpret_cast<const char*>(e.data.alias.anchor));
    const bool open = it != anchors.end() &&
                      std::any_of(stack.begin(), stack.end(),
                                  [&](const Open& o) { return o.node == it->second; });
    if (it != anchors.end() && !open) {
      Attach(it->second);
    } else {
      Attach(NewNode(YamlTree::Type::kNull, e.start_mark));
    }
  }
};

std::unique_ptr<YamlTree> YamlTree::Parse(absl::string_view content, absl::string_view file,
                                          Diagnostics* diags) {
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(content.data()),
                               content.size());
  YamlTreeBuilder b;
  b.tree.nodes_.reserve(content.size() / 12);
  b.tree.children_.reserve(content.size() / 12);
  b.tree.text_.reserve(content.size() / 2);
  bool ok = true, done = false;
  while (!done) {
    yaml_event_t e;
    if (!yaml_parser_parse(&parser, &e)) {
      ok = false;
      break;
    }
    switch (e.type) {
      case YAML_SCALAR_EVENT: b.Scalar(e); break;
      case YAML_SEQUENCE_START_EVENT:
        b.Start(Type::kSeq, e, e.data.sequence_start.anchor);
        break;
      case YAML_MAPPING_START_EVENT:
        b.Start(Type::kMap, e, e.data.mapping_start.anchor);
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: b.End(); break;
      case YAML_ALIAS_EVENT: b.Alias(e); break;
      // Only the first document is read.
      case YAML_DOCUMENT_END_EVENT:
      case YAML_STREAM_END_EVENT: done = true; break;
      default: break;
    }
    yaml_event_delete(&e);
  }
  if (!ok) {
    Location loc{std::string(file), static_cast<int>(parser.problem_mark.line) + 1,
                 static_cast<int>(parser.problem_mark.column) + 1};
    std::string msg = absl::StrCat("YAML syntax error: ",
                                   parser.problem != nullptr ? parser.problem : "unreadable");
    if (parser.context != nullptr) absl::StrAppend(&msg, " ", parser.context);
    yaml_parser_delete(&parser);
    diags->Error("yaml-syntax", loc, msg,
                 "check indentation, quoting and the ':' after each key");
    return nullptr;
  }
  yaml_parser_delete(&parser);
  if (!b.have_root) {
    // An empty document: a null root.
    b.tree.nodes_.push_back({Type::kNull, 1, 1});
  }
  return std::move(b.owned);
}

}  // namespace fitrank::catalog_internal
