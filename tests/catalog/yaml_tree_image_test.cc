// YamlTree images (catalog/images.h): an image loads back to the same tree, is refused for any
// other text, never crashes on a damaged image, and the shipped catalog loaded from the
// build-time images equals the catalog parsed from its YAML, entry by entry.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "catalog/images.h"
#include "catalog/internal/yaml_tree.h"
#include "catalog/to_json.h"
#include "gtest/gtest.h"

namespace fitrank::catalog_internal {
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

TEST(YamlTreeImageTest, ShippedCatalogFromImagesEqualsParsedCatalog) {
  ASSERT_FALSE(EmbeddedCatalogImages().empty());
  EmbeddedSource source;
  Diagnostics d1, d2;
  auto parsed = Catalog::Load(source, &d1);
  auto imaged = Catalog::Load(source, &d2, &EmbeddedCatalogImages());
  ASSERT_NE(parsed, nullptr) << d1.Render();
  ASSERT_NE(imaged, nullptr) << d2.Render();
  // Every image was usable: an image made from other text would silently cost the speed.
  for (const EmbeddedFile& image : EmbeddedCatalogImages()) {
    std::string yaml(image.path);
    yaml.resize(yaml.size() - 4);  // strip ".img"
    auto text = source.Read(yaml);
    ASSERT_TRUE(text.ok()) << yaml;
    EXPECT_NE(YamlTree::FromImage(absl::string_view(image.begin, image.end - image.begin), *text),
              nullptr)
        << image.path << " was not made from the embedded " << yaml;
  }
  auto same = [](const auto& a, const auto& b, const char* what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(ToJson(a[i]).dump(), ToJson(b[i]).dump()) << what << " #" << i;
    }
  };
  same(parsed->gpus(), imaged->gpus(), "gpus");
  same(parsed->models(), imaged->models(), "models");
  same(parsed->diffusion(), imaged->diffusion(), "diffusion");
  same(parsed->quants(), imaged->quants(), "quants");
  same(parsed->runtimes(), imaged->runtimes(), "runtimes");
  same(parsed->interconnects(), imaged->interconnects(), "interconnects");
  same(parsed->prices(), imaged->prices(), "prices");
}

// An image that claims the shipped prices.yaml but holds a tree without its first entry: if
// Load really takes the tree from the image, one price is missing.
TEST(YamlTreeImageTest, LoadTakesTheTreeFromTheImage) {
  EmbeddedSource source;
  auto text = source.Read("catalog/prices.yaml");
  ASSERT_TRUE(text.ok());
  const size_t first = text->find("\n  - ");
  const size_t second = text->find("\n  - ", first + 1);
  ASSERT_NE(second, std::string::npos);
  const std::string fewer = text->substr(0, first) + text->substr(second);
  auto tree = Parsed(fewer);
  ASSERT_NE(tree, nullptr);
  const std::string image = tree->Image(*text);
  const std::vector<EmbeddedFile> images = {
      {"catalog/prices.yaml.img", image.data(), image.data() + image.size()}};
  Diagnostics d1, d2;
  auto parsed = Catalog::Load(source, &d1);
  auto imaged = Catalog::Load(source, &d2, &images);
  ASSERT_NE(parsed, nullptr) << d1.Render();
  ASSERT_NE(imaged, nullptr) << d2.Render();
  EXPECT_EQ(imaged->prices().size() + 1, parsed->prices().size());
}

}  // namespace
}  // namespace fitrank::catalog_internal
