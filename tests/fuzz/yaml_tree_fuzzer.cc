// Fuzz target: one input as a YAML file, parsed into a YamlTree (base/yaml_tree.h) through
// ParseYaml, walked to the bottom, and read as a map of typed fields (MapReader) whatever its
// shape; then its diagnostics rendered. Any crash, hang or sanitizer report is a bug. See
// tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "base/yaml_reader.h"

namespace {

// Visits the nodes below `n`, at most `budget` of them: aliases share nodes, so a tree of a few
// bytes can have exponentially many paths (YamlTree itself refuses cycles).
void Walk(fitrank::YamlNode n, size_t* budget) {
  if (*budget == 0) return;
  --*budget;
  if (n.IsScalar()) {
    (void)n.Scalar().size();
  } else if (n.IsMap()) {
    for (size_t i = 0; i < n.size(); ++i) {
      Walk(n.Key(i), budget);
      Walk(n.Value(i), budget);
    }
  } else if (n.IsSequence()) {
    for (size_t i = 0; i < n.size(); ++i) Walk(n.Item(i), budget);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitrank;
  const std::string input(reinterpret_cast<const char*>(data), size);
  Diagnostics d;
  std::unique_ptr<YamlTree> tree = ParseYaml(input, "fuzz.yaml", &d);
  if (tree != nullptr) {
    size_t budget = 16 * input.size() + 1024;
    Walk(tree->root(), &budget);
    MapReader r(tree->root(), "fuzz.yaml", &d, "the fuzz record", "tests/fuzz/README.md");
    std::string s;
    double x = 0;
    int n = 0;
    bool b = false;
    std::vector<std::string> list;
    r.Optional("name", &s);
    r.Optional("gb", &x, 0, 1e6);
    r.Optional("layers", &n, 0, 1000);
    r.Optional("flag", &b);
    r.Optional("list", &list);
    r.Enum("kind", {"a", "b"}, &s, false);
    r.CheckUnknownKeys();
  }
  (void)d.Render();
  return 0;
}
