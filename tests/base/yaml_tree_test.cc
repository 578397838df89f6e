// YamlTree (base/yaml_tree.h): parsing, aliases, and images: an image loads back to the same
// tree, is refused for any other text, never crashes when damaged, and every shipped file's
// image holds the tree its YAML parses to.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "base/file_source.h"
#include "base/yaml_tree.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

constexpr absl::string_view kYaml = R"(schema: fitrank.catalog/v1
base: &b {x: 1, y: [a, "b c", ~]}
list:
  - *b
  - name: "quoted: colon"
    empty:
    nested: {deep: [1, [2, [3]]]}
)";

// Every node's kind, text, position and children, depth first (to `depth` levels: a damaged
// image may link a node to its own ancestor).
std::string Dump(YamlNode n, int depth = 64) {
  if (depth == 0) return "...";
  std::string out = std::to_string(n.line()) + ":" + std::to_string(n.col());
  if (n.IsNull()) return out + " null";
  if (n.IsScalar()) return out + " '" + std::string(n.Scalar()) + "'";
  out += n.IsMap() ? " {" : " [";
  for (size_t i = 0; i < n.size(); ++i) {
    out += n.IsMap() ? Dump(n.Key(i), depth - 1) + "=" + Dump(n.Value(i), depth - 1)
                     : Dump(n.Item(i), depth - 1);
    out += ", ";
  }
  return out + (n.IsMap() ? "}" : "]");
}

std::unique_ptr<YamlTree> Parsed(absl::string_view text) {
  Diagnostics diags;
  auto tree = YamlTree::Parse(text, "t.yaml", &diags);
  EXPECT_NE(tree, nullptr) << diags.Render();
  return tree;
}

TEST(YamlTreeImageTest, LoadsBackTheSameTree) {
  auto tree = Parsed(kYaml);
  ASSERT_NE(tree, nullptr);
  auto back = YamlTree::FromImage(tree->Image(kYaml), kYaml);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(Dump(back->root()), Dump(tree->root()));
  EXPECT_EQ(back->root().Get("list").Item(1).Get("name").Scalar(), "quoted: colon");
}

TEST(YamlTreeTest, AnAliasOfItsOwnOpenContainerIsNullNotACycle) {
  auto tree = Parsed("a: &x [1, *x]\nb: *x\n");
  ASSERT_NE(tree, nullptr);
  YamlNode a = tree->root().Get("a");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_TRUE(a.Item(1).IsNull());
  EXPECT_EQ(tree->root().Get("b").Item(0).Scalar(), "1");  // a finished anchor still works
}

TEST(YamlTreeImageTest, IsRefusedForAnyOtherText) {
  auto tree = Parsed(kYaml);
  ASSERT_NE(tree, nullptr);
  const std::string image = tree->Image(kYaml);
  std::string edited(kYaml);
  edited[edited.find("x: 1")] = 'z';  // same length, one byte changed
  EXPECT_EQ(YamlTree::FromImage(image, edited), nullptr);
  EXPECT_EQ(YamlTree::FromImage(image, std::string(kYaml) + " "), nullptr);
  EXPECT_EQ(YamlTree::FromImage("", kYaml), nullptr);
}

TEST(YamlTreeImageTest, DamagedImagesAreRefusedNotTrusted) {
  auto tree = Parsed(kYaml);
  ASSERT_NE(tree, nullptr);
  const std::string image = tree->Image(kYaml);
  for (size_t len = 0; len < image.size(); ++len) {
    EXPECT_EQ(YamlTree::FromImage(image.substr(0, len), kYaml), nullptr) << "truncated at " << len;
  }
  // Flipping any byte either is refused or still gives a tree whose walk stays in bounds.
  for (size_t i = 0; i < image.size(); ++i) {
    std::string bad = image;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    if (auto t = YamlTree::FromImage(bad, kYaml)) (void)Dump(t->root(), 5);
  }
}

// Every shipped .yaml file has an image of exactly its text, and the image holds the tree
// Parse() makes: commands never parse shipped data, and get the same tree as if they had.
TEST(YamlTreeImageTest, EveryShippedYamlFileHasItsOwnTree) {
  int files = 0;
  for (const EmbeddedFile& file : EmbeddedFiles()) {
    const absl::string_view path = file.path;
    if (!absl::EndsWith(path, ".yaml")) continue;
    ++files;
    const absl::string_view text(file.begin, file.end - file.begin);
    auto imaged = YamlTree::FromShippedImage(text);
    ASSERT_NE(imaged, nullptr) << path << " has no image of its text";
    Diagnostics diags;
    auto parsed = YamlTree::Parse(text, path, &diags);
    ASSERT_NE(parsed, nullptr) << diags.Render();
    EXPECT_EQ(Dump(imaged->root()), Dump(parsed->root())) << path;
    auto by_path = YamlTree::FromEmbeddedImage(path);
    ASSERT_NE(by_path, nullptr) << path;
    EXPECT_EQ(Dump(by_path->root()), Dump(parsed->root())) << path;
  }
  EXPECT_GT(files, 20);
  EXPECT_EQ(YamlTree::FromShippedImage("schema: not shipped\n"), nullptr);
}

}  // namespace
}  // namespace fitrank
