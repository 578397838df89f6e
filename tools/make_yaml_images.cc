// Build step: parses the shipped .yaml files into YamlTree images (base/yaml_tree.h), so that
// fitrank never parses its own data at run time.
//
//   fitrank_make_yaml_images SOURCE_ROOT OUT_DIR rules/fit.yaml catalog/gpus.yaml ...
//
// writes OUT_DIR/<file>.img for each file. A file that does not parse gets an empty image,
// which is never used: fitrank then parses the YAML and reports the error with its position,
// as for any other file, instead of the build failing here.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "base/diagnostics.h"
#include "base/yaml_tree.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " SOURCE_ROOT OUT_DIR FILE...\n";
    return 2;
  }
  const std::filesystem::path root = argv[1], out_dir = argv[2];
  for (int i = 3; i < argc; ++i) {
    std::ifstream in(root / argv[i], std::ios::binary);
    if (!in) {
      std::cerr << "cannot read " << (root / argv[i]).string() << "\n";
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    fitrank::Diagnostics diags;
    auto tree = fitrank::YamlTree::Parse(content, argv[i], &diags);
    const std::filesystem::path out = out_dir / (std::string(argv[i]) + ".img");
    std::filesystem::create_directories(out.parent_path());
    std::ofstream o(out, std::ios::binary | std::ios::trunc);
    if (tree != nullptr) o << tree->Image(content);
    if (!o) {
      std::cerr << "cannot write " << out.string() << "\n";
      return 1;
    }
  }
  return 0;
}
