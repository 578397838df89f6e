// Build step: loads the shipped catalog from the embedded YAML, as `fitrank --data` would,
// and writes its image (catalog/image.h), which the fitrank binary embeds.
//
//   fitrank_bake_catalog OUT_FILE
//
// A catalog that does not load cleanly (any diagnostic, warnings included) gets an empty
// image, which is never used: fitrank then reads the YAML and reports every problem with its
// position, as for a --data catalog, instead of the build failing here.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "catalog/image.h"

namespace fitrank {
// This tool makes the image: it has none to read (Catalog::Load reads the YAML).
const std::vector<EmbeddedFile>& BakedCatalogImages() {
  static const std::vector<EmbeddedFile> kNone;
  return kNone;
}
}  // namespace fitrank

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUT_FILE\n";
    return 2;
  }
  fitrank::EmbeddedSource source;
  fitrank::Diagnostics diags;
  std::unique_ptr<fitrank::Catalog> catalog = fitrank::Catalog::Load(source, &diags);
  std::string image;
  if (catalog != nullptr && diags.empty()) {
    std::vector<uint64_t> file_bytes;
    for (const std::string& path : fitrank::CatalogImageFiles()) {
      file_bytes.push_back(source.Embedded(path).value_or("").size());
    }
    image = fitrank::BakeCatalog(*catalog, file_bytes);
  } else {
    std::cerr << "fitrank_bake_catalog: the shipped catalog has problems; fitrank will read the "
                 "YAML and report them\n";
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::create_directories(out.parent_path());
  std::ofstream o(out, std::ios::binary | std::ios::trunc);
  o << image;
  if (!o) {
    std::cerr << "cannot write " << out.string() << "\n";
    return 1;
  }
  return 0;
}
