// YamlTree::FromShippedImage: the build-time images of the embedded .yaml files
// (EmbeddedYamlImages(), made by tools/make_yaml_images.cc and embedded by cmake/embed.cmake).
#include "base/file_source.h"
#include "base/yaml_tree.h"

namespace fitrank {

std::unique_ptr<YamlTree> YamlTree::FromShippedImage(absl::string_view content) {
  // FromImage compares the text's length before hashing it, so only an image of a text of the
  // same length costs a hash.
  for (const EmbeddedFile& image : EmbeddedYamlImages()) {
    auto tree = FromImage(absl::string_view(image.begin, image.end - image.begin), content);
    if (tree != nullptr) return tree;
  }
  return nullptr;
}

}  // namespace fitrank
