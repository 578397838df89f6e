// The gpu.*, setup.* and price.* fact table (engine/scoring/setup_facts.h): one row per fact,
// the same declaration in every book, unknown figures unset.
#include "engine/scoring/setup_facts.h"

#include <cmath>
#include <set>

#include "engine/report/traits.h"
#include "engine/scoring/facts.h"
#include "gtest/gtest.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

TEST(SetupFacts, EveryBookDeclaresTheSameRows) {
  auto scoring = std::make_shared<rules::FactSchema>();
  Facts facts(scoring.get());
  std::vector<std::shared_ptr<rules::FactSchema>> schemas = {scoring};
  for (const TraitBookSpec& book : TraitBooks()) schemas.push_back(book.make_schema());
  ASSERT_EQ(schemas.size(), 3u);
  std::set<absl::string_view> names;
  for (const SetupFactRow& row : SetupFactTable()) {
    EXPECT_TRUE(names.insert(row.name).second) << "twice: " << row.name;
    EXPECT_FALSE(row.doc.empty()) << row.name;
    for (const auto& schema : schemas) {
      const rules::FactDecl* d = schema->Find(row.name);
      ASSERT_NE(d, nullptr) << row.name;
      EXPECT_EQ(d->type, row.type) << row.name;
      EXPECT_EQ(d->unit, row.unit) << row.name;
      EXPECT_EQ(d->doc, row.doc) << row.name;
    }
  }
  // One name per quantity: the retired names are declared nowhere, and hint at the new ones.
  for (const RenamedFact& r : RenamedSetupFacts()) {
    EXPECT_EQ(names.count(r.old_name), 0u) << r.old_name;
    EXPECT_EQ(names.count(r.new_name), 1u) << r.new_name;
    for (const auto& schema : schemas) {
      EXPECT_EQ(schema->Find(r.old_name), nullptr) << r.old_name;
      ASSERT_NE(schema->RenamedTo(r.old_name), nullptr) << r.old_name;
      EXPECT_EQ(*schema->RenamedTo(r.old_name), r.new_name);
    }
  }
}

TEST(SetupFacts, FillsFromTheCatalogAndLeavesUnknownPricesUnset) {
  const testing::ShippedEngine& e = Shipped();
  rules::FactSchema schema;
  SetupFacts facts(&schema);
  rules::FactValues v(schema);
  const fitrank::Setup setup = e.SetupOf("RTX 4090", 2);
  const SetupSubject subject(*e.catalog, *e.estimator, setup);
  facts.Fill(subject, &v);
  auto num = [&](const char* name) {
    const rules::FactDecl* d = schema.Find(name);
    EXPECT_TRUE(v.IsSet(static_cast<int32_t>(d - schema.facts().data()))) << name;
    return v.numbers()[d->slot];
  };
  const Gpu& gpu = *setup.devices.front().gpu;
  EXPECT_EQ(num("gpu.memory_gb"), gpu.memory_gb);
  EXPECT_EQ(num("setup.gpu_count"), 2);
  EXPECT_EQ(num("setup.memory_gb"), 2 * gpu.memory_gb);
  EXPECT_DOUBLE_EQ(num("setup.usable_gb"), 2 * num("gpu.usable_gb"));
  std::string basis;
  const double usd = GpuPriceUsd(*e.catalog, gpu, &basis);
  ASSERT_GT(usd, 0);
  EXPECT_EQ(num("price.gpu_usd"), usd);
  EXPECT_EQ(num("price.setup_usd"), 2 * usd);
  EXPECT_DOUBLE_EQ(num("price.usd_per_usable_gb"), usd / num("gpu.usable_gb"));
  EXPECT_EQ(v.strings()[schema.Find("price.basis")->slot], basis);

  // The same GPU without any price: price.gpu_usd is unknown, price.known false.
  Gpu unpriced = gpu;
  unpriced.id = "no-such-gpu";
  unpriced.msrp_usd = 0;
  unpriced.tdp_w = 0;
  fitrank::Setup other = setup;
  other.devices = {{&unpriced, 1}};
  other.device_count = 1;
  const SetupSubject without(*e.catalog, *e.estimator, other);
  facts.Fill(without, &v);  // over the filled record: unknowns must be unset again
  for (const char* name : {"price.gpu_usd", "price.usd_per_usable_gb", "gpu.tdp_w"}) {
    const rules::FactDecl* d = schema.Find(name);
    EXPECT_FALSE(v.IsSet(static_cast<int32_t>(d - schema.facts().data()))) << name;
  }
  EXPECT_FALSE(v.bools()[schema.Find("price.known")->slot]);
  EXPECT_EQ(v.strings()[schema.Find("price.basis")->slot], "");
}

}  // namespace
}  // namespace fitrank
