// Test helpers for the catalog: the shipped (embedded) catalog, loaded once, and the small
// valid fixture catalog under tests/catalog/testdata/catalog/, as an in-memory source.
#ifndef FITRANK_TESTS_CATALOG_TEST_CATALOG_H_
#define FITRANK_TESTS_CATALOG_TEST_CATALOG_H_

#include <filesystem>
#include <memory>
#include <string>

#include "base/file_source.h"
#include "catalog/builder.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/golden.h"

namespace fitrank::testing {

// The shipped catalog, loaded once per test binary. A catalog that does not load (or loads
// with any diagnostic) is a test failure; an empty catalog stands in so tests fail, not crash.
inline const Catalog& ShippedCatalog() {
  static const Catalog* catalog = [] {
    Diagnostics diags;
    std::unique_ptr<Catalog> c = Catalog::Load(EmbeddedSource(), &diags);
    EXPECT_TRUE(diags.empty()) << diags.Render();
    if (c == nullptr) {
      ADD_FAILURE() << "the shipped catalog does not load:\n" << diags.Render();
      return CatalogBuilder().Build().release();
    }
    return c.release();
  }();
  return *catalog;
}

inline const char* const kCatalogFiles[] = {"gpus",          "models",  "diffusion", "quants",
                                            "runtimes", "interconnects", "prices"};

// The fixture catalog, paths "catalog/<kind>.yaml".
inline MemorySource FixtureCatalog() {
  MemorySource src;
  for (const char* kind : kCatalogFiles) {
    std::string path = std::string("catalog/") + kind + ".yaml";
    src.Set(path, ReadSourceFile("tests/catalog/testdata/" + path));
  }
  return src;
}

// The fixture with the files of tests/catalog/testdata/broken/<name>/ laid over it;
// "<file>.yaml.delete" removes that file.
inline MemorySource BrokenCatalog(const std::string& name) {
  MemorySource fixture = FixtureCatalog();
  MemorySource src;
  const std::string dir =
      std::string(FITRANK_SOURCE_DIR) + "/tests/catalog/testdata/broken/" + name;
  for (const char* kind : kCatalogFiles) {
    std::string file = std::string(kind) + ".yaml";
    if (std::filesystem::exists(dir + "/" + file + ".delete")) continue;
    std::string path = "catalog/" + file;
    if (std::filesystem::exists(dir + "/" + file)) {
      src.Set(path, ReadSourceFile("tests/catalog/testdata/broken/" + name + "/" + file));
    } else {
      src.Set(path, *fixture.Read(path));
    }
  }
  return src;
}

}  // namespace fitrank::testing

#endif  // FITRANK_TESTS_CATALOG_TEST_CATALOG_H_
