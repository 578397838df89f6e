// The build-time images of the embedded .yaml files (EmbeddedYamlImages(), made by
// tools/make_yaml_images.cc and embedded by cmake/embed.cmake), used in place.
#include "absl/strings/str_cat.h"
#include "base/file_source.h"
#include "base/yaml_tree.h"

namespace fitrank {

std::unique_ptr<YamlTree> YamlTree::FromShippedImage(absl::string_view content) {
  // Load compares the text's length before hashing it, so only an image of a text of the same
  // length costs a hash.
  for (const EmbeddedFile& image : EmbeddedYamlImages()) {
    auto tree = Load(absl::string_view(image.begin, image.end - image.begin), &content,
                     /*copy=*/false);
    if (tree != nullptr) return tree;
  }
  return nullptr;
}

std::unique_ptr<YamlTree> YamlTree::FromEmbeddedImage(absl::string_view path) {
  const std::string name = absl::StrCat(path, ".img");
  for (const EmbeddedFile& image : EmbeddedYamlImages()) {
    if (image.path == name) {
      return Load(absl::string_view(image.begin, image.end - image.begin), nullptr,
                  /*copy=*/false);
    }
  }
  return nullptr;
}

}  // namespace fitrank
