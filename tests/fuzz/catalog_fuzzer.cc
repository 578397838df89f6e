// Fuzz target: one input as each of the seven catalog files in turn (gpus.yaml, models.yaml,
// ...), the other six being the small test catalog of tests/catalog/testdata/catalog, loaded by
// Catalog::Load. The loader must report problems as diagnostics, never crash, and a catalog it
// accepts must answer lookups. See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "base/file_source.h"
#include "catalog/catalog.h"

namespace {

constexpr const char* kKinds[] = {"gpus",    "models",        "diffusion", "quants",
                                  "runtimes", "interconnects", "prices"};

std::map<std::string, std::string> TestCatalog() {
  std::map<std::string, std::string> files;
  for (const char* kind : kKinds) {
    const std::string rel = std::string("catalog/") + kind + ".yaml";
    std::ifstream in(std::string(FITRANK_SOURCE_DIR) + "/tests/catalog/testdata/" + rel);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) std::abort();
    files[rel] = text.str();
  }
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitrank;
  static const auto* base = new std::map<std::string, std::string>(TestCatalog());
  const std::string input(reinterpret_cast<const char*>(data), size);
  for (const char* kind : kKinds) {
    MemorySource source(*base);
    source.Set(std::string("catalog/") + kind + ".yaml", input);
    Diagnostics d;
    std::unique_ptr<Catalog> catalog = Catalog::Load(source, &d);
    (void)d.Render();
    if (catalog == nullptr) continue;
    (void)catalog->FindGpu(input.substr(0, 64));
    (void)catalog->FindModel(input.substr(0, 64));
  }
  return 0;
}
