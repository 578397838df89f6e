// Lookup refuses names longer than kMaxNameLength before any fuzzy matching (whose cost is the
// query's length times every name's), on the shipped catalog.
#include <memory>
#include <string>

#include "base/file_source.h"
#include "base/text.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(LookupLimits, AnOverLongNameFindsNothingAndSuggestsNothing) {
  EmbeddedSource source;
  Diagnostics d;
  std::unique_ptr<Catalog> catalog = Catalog::Load(source, &d);
  ASSERT_NE(catalog, nullptr) << d.Render();
  // At the limit a name is still matched (and this one is near the 4090's words)...
  const std::string at_limit = "rtx 4090" + std::string(kMaxNameLength - 8, ' ');
  EXPECT_NE(catalog->FindGpu(at_limit).found, nullptr);
  // ...past it, nothing is even tried.
  Lookup<Gpu> r = catalog->FindGpu(at_limit + " ");
  EXPECT_EQ(r.found, nullptr);
  EXPECT_TRUE(r.ambiguous.empty());
  EXPECT_TRUE(r.suggestions.empty());
  Lookup<Model> m = catalog->FindModel(std::string(100000, 'x'));
  EXPECT_EQ(m.found, nullptr);
  EXPECT_TRUE(m.suggestions.empty());
}

}  // namespace
}  // namespace fitrank
