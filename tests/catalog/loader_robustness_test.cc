// The loader never crashes and never half-loads on damaged input: every truncation and a
// spread of single-byte edits of the fixture files either loads or reports errors with a
// position (a cheap, deterministic stand-in for a fuzzer, replayed on every test run).
#include <string>

#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"

namespace fitrank {
namespace {

void ExpectLoadsOrReports(const MemorySource& src, const std::string& what) {
  Diagnostics diags;
  std::unique_ptr<Catalog> c = Catalog::Load(src, &diags);
  if (c != nullptr) {
    EXPECT_FALSE(diags.HasErrors()) << what;
    return;
  }
  ASSERT_TRUE(diags.HasErrors()) << what;
  for (const Diagnostic& d : diags.all()) {
    EXPECT_FALSE(d.where.file.empty()) << what;
    EXPECT_FALSE(d.message.empty()) << what;
    EXPECT_FALSE(d.hint.empty()) << what << ": " << diags.Render(d);
  }
  EXPECT_FALSE(diags.Render().empty());
}

TEST(LoaderRobustnessTest, DamagedFilesNeverCrash) {
  const MemorySource fixture = testing::FixtureCatalog();
  const char kEdits[] = {':', '-', '[', '{', '"', '\'', ' ', '\n', '\t', '#', '&', '*', '0', 'x'};
  for (const char* kind : {"gpus", "models", "quants"}) {
    const std::string path = std::string("catalog/") + kind + ".yaml";
    const std::string text = *fixture.Read(path);
    for (size_t at = 0; at < text.size(); at += 7) {
      MemorySource src = fixture;
      src.Set(path, text.substr(0, at));  // truncated
      ExpectLoadsOrReports(src, path + " cut at " + std::to_string(at));
      std::string edited = text;
      edited[at] = kEdits[at % sizeof(kEdits)];
      src.Set(path, edited);
      ExpectLoadsOrReports(src, path + " edited at " + std::to_string(at));
    }
  }
}

TEST(LoaderRobustnessTest, OddYamlShapes) {
  const MemorySource fixture = testing::FixtureCatalog();
  for (const char* text : {"", "~", "[]", "- a\n- b\n", "just text", "schema: [\n",
                           "schema: fitrank.catalog/v1\nkind: gpus\nsources: {}\ngpus: {}\n",
                           "schema: fitrank.catalog/v1\nkind: gpus\nsources: {a: b}\ngpus:\n  - 1\n"
                           "  - [x]\n  - {id: [a]}\n",
                           "a: &x {b: *x}\n", "a: *nope\n", "--- \n...\n--- \nb: 1\n",
                           "schema: fitrank.catalog/v1\nschema: again\n"}) {
    MemorySource src = fixture;
    src.Set("catalog/gpus.yaml", text);
    ExpectLoadsOrReports(src, std::string("gpus.yaml = ") + text);
  }
}

}  // namespace
}  // namespace fitrank
