// The catalog image baked at build time (catalog/image.h) holds the same catalog as the
// shipped YAML, field for field and name for name; Catalog::Load uses it only for unchanged
// embedded files, and refuses a broken or mismatched image.
#include <memory>
#include <string>
#include <vector>

#include "base/file_source.h"
#include "catalog/catalog.h"
#include "catalog/data_date.h"
#include "catalog/gguf_recipe.h"
#include "catalog/image.h"
#include "catalog/to_json.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"

namespace fitrank {
namespace {

std::unique_ptr<Catalog> FromYaml() {
  Diagnostics diags;
  std::unique_ptr<Catalog> c = Catalog::Load(EmbeddedTextSource(), &diags);
  EXPECT_TRUE(diags.empty()) << diags.Render();
  return c;
}

std::vector<uint64_t> EmbeddedSizes() {
  std::vector<uint64_t> sizes;
  EmbeddedSource source;
  for (const std::string& path : CatalogImageFiles()) {
    sizes.push_back(source.Embedded(path).value_or("").size());
  }
  return sizes;
}

template <class T>
void ExpectSameRecords(const std::vector<T>& baked, const std::vector<T>& yaml,
                       const char* what) {
  ASSERT_EQ(baked.size(), yaml.size()) << what;
  for (size_t i = 0; i < yaml.size(); ++i) {
    ASSERT_EQ(ToJson(baked[i]).dump(), ToJson(yaml[i]).dump()) << what << " #" << i;
  }
}

TEST(CatalogImageTest, TheBinaryCarriesAnImage) {
  ASSERT_EQ(BakedCatalogImages().size(), 1u);
  EXPECT_GT(BakedCatalogImages()[0].end - BakedCatalogImages()[0].begin, 1000);
  EXPECT_NE(LoadBakedCatalog(EmbeddedSource()), nullptr);
}

TEST(CatalogImageTest, BakedCatalogEqualsTheYamlOne) {
  std::unique_ptr<Catalog> baked = LoadBakedCatalog(EmbeddedSource());
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(baked, nullptr);
  ASSERT_NE(yaml, nullptr);
  ExpectSameRecords(baked->gpus(), yaml->gpus(), "gpus");
  ExpectSameRecords(baked->models(), yaml->models(), "models");
  ExpectSameRecords(baked->diffusion(), yaml->diffusion(), "diffusion");
  ExpectSameRecords(baked->quants(), yaml->quants(), "quants");
  ExpectSameRecords(baked->runtimes(), yaml->runtimes(), "runtimes");
  ExpectSameRecords(baked->interconnects(), yaml->interconnects(), "interconnects");
  ExpectSameRecords(baked->prices(), yaml->prices(), "prices");
  // And the same bytes: every field the image holds, not only those JSON shows.
  EXPECT_EQ(BakeCatalog(*baked, EmbeddedSizes()), BakeCatalog(*yaml, EmbeddedSizes()));
}

TEST(CatalogImageTest, BakedNameIndexFindsWhatTheYamlOneFinds) {
  std::unique_ptr<Catalog> baked = LoadBakedCatalog(EmbeddedSource());
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(baked, nullptr);
  ASSERT_NE(yaml, nullptr);
  auto same = [](const auto& b, const auto& y, const std::string& q) {
    EXPECT_EQ(b.found == nullptr ? "" : b.found->id, y.found == nullptr ? "" : y.found->id) << q;
    EXPECT_EQ(b.exact, y.exact) << q;
    EXPECT_EQ(b.ambiguous.size(), y.ambiguous.size()) << q;
    EXPECT_EQ(b.suggestions, y.suggestions) << q;
  };
  for (const Gpu& g : yaml->gpus()) {
    for (const std::string& q : {g.id, g.name, g.vendor + " " + g.name}) {
      same(baked->FindGpu(q), yaml->FindGpu(q), q);
    }
    for (const std::string& a : g.aliases) same(baked->FindGpu(a), yaml->FindGpu(a), a);
    EXPECT_EQ(baked->PriceFor(g.id) != nullptr, yaml->PriceFor(g.id) != nullptr) << g.id;
  }
  for (const Model& m : yaml->models()) {
    for (const std::string& q : {m.id, m.name, m.family}) {
      same(baked->FindModel(q), yaml->FindModel(q), q);
    }
    for (const std::string& a : m.aliases) same(baked->FindModel(a), yaml->FindModel(a), a);
  }
  for (const Quant& q : yaml->quants()) same(baked->FindQuant(q.id), yaml->FindQuant(q.id), q.id);
  for (const Runtime& r : yaml->runtimes()) {
    same(baked->FindRuntime(r.name), yaml->FindRuntime(r.name), r.name);
  }
  for (const std::string& q : {"4090", "rtx4099", "h200", "a100", "llama 3.1 8b", "qwen3-30b-a3b"}) {
    same(baked->FindGpu(q), yaml->FindGpu(q), q);
    same(baked->FindModel(q), yaml->FindModel(q), q);
  }
}

TEST(CatalogImageTest, ADataOverlayOfACatalogFileReadsTheYaml) {
  // One changed file: the image no longer describes the catalog.
  auto top = std::make_shared<MemorySource>();
  EmbeddedSource embedded;
  std::string quants = *embedded.Read("catalog/quants.yaml");
  top->Set("catalog/quants.yaml", quants);
  OverlaySource overlay(top, std::make_shared<EmbeddedSource>());
  EXPECT_EQ(LoadBakedCatalog(overlay), nullptr);
  // A file outside the catalog changes nothing.
  auto other = std::make_shared<MemorySource>();
  other->Set("rules/local.yaml", "x");
  EXPECT_NE(LoadBakedCatalog(OverlaySource(other, std::make_shared<EmbeddedSource>())), nullptr);
}

TEST(CatalogImageTest, AYamlCatalogKeepsTheTextItsSourcesView) {
  // models.yaml changed by a comment is parsed at run time into a tree of its own, which the
  // catalog keeps: the quality figures' sources view it (CatalogText, catalog/types.h), and
  // read the same once the file's source and text are gone.
  std::unique_ptr<Catalog> yaml;
  {
    auto top = std::make_shared<MemorySource>();
    top->Set("catalog/models.yaml", *EmbeddedSource().Read("catalog/models.yaml") + "\n# edited\n");
    Diagnostics diags;
    yaml = Catalog::Load(OverlaySource(top, std::make_shared<EmbeddedSource>()), &diags);
    ASSERT_NE(yaml, nullptr) << diags.Render();
  }
  // The memory the file's text and a discarded tree took is taken again and written over: a
  // view into either would read this. (Under AddressSanitizer it would be an error at once.)
  std::vector<std::string> reuse;
  for (int i = 0; i < 96; ++i) reuse.emplace_back(size_t{1} << (6 + i % 16), '#');
  std::unique_ptr<Catalog> baked = LoadBakedCatalog(EmbeddedSource());
  ASSERT_NE(baked, nullptr);
  ASSERT_FALSE(yaml->models().empty());
  EXPECT_FALSE(yaml->models()[0].workload_quality.coding.source.empty());
  ExpectSameRecords(baked->models(), yaml->models(), "models");
}

TEST(CatalogImageTest, TheYamlPathStillReportsProblems) {
  // A --data catalog file with an error is read and reported, never hidden by the image.
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/prices.yaml", "schema: fitrank.catalog/v1\nkind: prices\nprices: 3\n");
  Diagnostics diags;
  EXPECT_EQ(Catalog::Load(OverlaySource(top, std::make_shared<EmbeddedSource>()), &diags),
            nullptr);
  EXPECT_TRUE(diags.HasErrors());
}

TEST(CatalogImageTest, TheHeaderCarriesTheDataDate) {
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(yaml, nullptr);
  const CatalogDataDate newest = NewestDataDate(*yaml);
  ASSERT_FALSE(newest.date.empty());
  std::optional<CatalogDataDate> baked = LoadBakedDataDate(EmbeddedSource());
  ASSERT_TRUE(baked.has_value());
  EXPECT_EQ(baked->date, newest.date);
  EXPECT_EQ(baked->entry, newest.entry);
  // Only for the files it was baked from.
  std::vector<uint64_t> other = EmbeddedSizes();
  other[0] += 1;
  const std::string image = BakeCatalog(*yaml, EmbeddedSizes());
  EXPECT_TRUE(BakedDataDate(image, EmbeddedSizes()).has_value());
  EXPECT_FALSE(BakedDataDate(image, other).has_value());
  EXPECT_FALSE(BakedDataDate(image.substr(0, 20), EmbeddedSizes()).has_value());
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/prices.yaml", *EmbeddedSource().Read("catalog/prices.yaml"));
  EXPECT_FALSE(LoadBakedDataDate(OverlaySource(top, std::make_shared<EmbeddedSource>())));
}

TEST(CatalogImageTest, GgufSizesReadFromAnUnalignedCopyAreWorkedOut) {
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(yaml, nullptr);
  const std::string image = BakeCatalog(*yaml, EmbeddedSizes());
  std::string shifted = " " + image;  // the table lands one byte off its alignment
  std::unique_ptr<Catalog> c =
      UnbakeCatalog(absl::string_view(shifted).substr(1), EmbeddedSizes());
  ASSERT_NE(c, nullptr);
  const Model* m = c->ModelById("llama-3.1-8b-instruct");
  const Quant* q = c->QuantById("Q4_K_M");
  ASSERT_TRUE(m != nullptr && q != nullptr);
  ASSERT_NE(c->GgufSizeOf(*m, *q), nullptr);
  EXPECT_EQ(c->GgufSizeOf(*m, *q)->total_bytes, EstimateGgufSize(*m, q->id).total_bytes);
  EXPECT_TRUE(c->GgufSizeOf(*m, *q)->ok);
}

TEST(CatalogImageTest, RefusesBrokenOrMismatchedImages) {
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(yaml, nullptr);
  const std::vector<uint64_t> sizes = EmbeddedSizes();
  const std::string image = BakeCatalog(*yaml, sizes);
  EXPECT_NE(UnbakeCatalog(image, sizes), nullptr);
  EXPECT_EQ(UnbakeCatalog("", sizes), nullptr);
  EXPECT_EQ(UnbakeCatalog(image.substr(0, image.size() / 2), sizes), nullptr);
  EXPECT_EQ(UnbakeCatalog(image.substr(0, image.size() - 1), sizes), nullptr);
  EXPECT_EQ(UnbakeCatalog(image + "x", sizes), nullptr);
  std::vector<uint64_t> other = sizes;
  other[1] += 1;
  EXPECT_EQ(UnbakeCatalog(image, other), nullptr);
  std::string bad_magic = image;
  bad_magic[0] = 'X';
  EXPECT_EQ(UnbakeCatalog(bad_magic, sizes), nullptr);
}

// The lookup index's normalised names are a sorted table searched in place: an image whose
// names are out of order is broken, not a catalog whose lookups quietly miss.
TEST(CatalogImageTest, RefusesNamesOutOfOrder) {
  std::unique_ptr<Catalog> yaml = FromYaml();
  ASSERT_NE(yaml, nullptr);
  const std::vector<uint64_t> sizes = EmbeddedSizes();
  std::string image = BakeCatalog(*yaml, sizes);
  std::unique_ptr<Catalog> sound = UnbakeCatalog(image, sizes);
  ASSERT_NE(sound, nullptr);
  EXPECT_TRUE(sound->FindGpu("GeForce RTX 4070").exact);
  EXPECT_TRUE(sound->FindGpu("GeForce RTX 4090").exact);
  // Two normalised names of one length, each written once (after its length, a 32-bit little
  // endian count): swapped, they are out of order.
  const std::string length(1, static_cast<char>(14));
  const std::string a = length + std::string(3, '\0') + "geforcertx4070";
  const std::string b = length + std::string(3, '\0') + "geforcertx4090";
  const size_t at_a = image.find(a), at_b = image.find(b);
  ASSERT_NE(at_a, std::string::npos);
  ASSERT_NE(at_b, std::string::npos);
  ASSERT_EQ(image.find(a, at_a + 1), std::string::npos);
  ASSERT_EQ(image.find(b, at_b + 1), std::string::npos);
  image.replace(at_a, a.size(), b);
  image.replace(at_b, b.size(), a);
  EXPECT_EQ(UnbakeCatalog(image, sizes), nullptr);
}

}  // namespace
}  // namespace fitrank
