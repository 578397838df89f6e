// YamlTree images of the embedded catalog files, made at build time by
// catalog/images/make_images.cc and embedded by cmake/embed.cmake (library
// fitrank_catalog_images).
//
// Why: parsing the ~750 KB of catalog YAML is a third of a typical command's time; loading a
// ready tree costs a copy. Catalog::Load uses an image only for a file whose text is exactly the
// text the image was made from, so `--data` overrides and edited files are always parsed, and
// diagnostics point into the YAML either way (the tree keeps every node's line and column).
//
//   Catalog::Load(EmbeddedSource(), &diags, &EmbeddedCatalogImages());
#ifndef FITRANK_CATALOG_IMAGES_H_
#define FITRANK_CATALOG_IMAGES_H_

#include <vector>

#include "base/file_source.h"

namespace fitrank {

// Paths are the YAML file's path plus ".img" ("catalog/gpus.yaml.img").
const std::vector<EmbeddedFile>& EmbeddedCatalogImages();

}  // namespace fitrank

#endif  // FITRANK_CATALOG_IMAGES_H_
