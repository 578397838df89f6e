// Release dates as month numbers (catalog/release_month.h): the conversion, partial and
// missing dates, and the number every catalog model carries from the moment it is built
// (loaded from YAML, baked, or assembled in code) so that ages never parse a date.
#include "catalog/release_month.h"

#include <memory>
#include <string>
#include <utility>

#include "catalog/builder.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"

namespace fitrank {
namespace {

TEST(ReleaseMonth, CountsMonthsWithTheDayAsAShareOfThirty) {
  EXPECT_DOUBLE_EQ(ReleaseMonth("2025-04-01"), 2025 * 12 + 3);
  EXPECT_DOUBLE_EQ(ReleaseMonth("2024-07-23"), 2024 * 12 + 6 + 22 / 30.0);
  EXPECT_DOUBLE_EQ(ReleaseMonth("2025-10-01") - ReleaseMonth("2025-04-01"), 6);
}

TEST(ReleaseMonth, PartialDatesCountFromTheMiddle) {
  EXPECT_DOUBLE_EQ(ReleaseMonth("2025-04"), ReleaseMonth("2025-04-15"));  // mid-month
  EXPECT_DOUBLE_EQ(ReleaseMonth("2024"), ReleaseMonth("2024-06-15"));     // mid-year
  EXPECT_NEAR(MonthsSince(ReleaseMonth("2024"), ReleaseMonth("2025-06-15")), 12, 0.01);
  EXPECT_DOUBLE_EQ(MonthsSince(ReleaseMonth("2025-04"), ReleaseMonth("2025-04-01")), 0);
}

TEST(ReleaseMonth, UnknownDatesAreZeroAndHaveNoAge) {
  for (const char* date : {"", "soon", "2025-", "2025-x-01", "2025-04-0x", "1850",
                           "99999999999-01-01"}) {
    EXPECT_EQ(ReleaseMonth(date), 0) << date;
  }
  // Each number is read as absl::SimpleAtoi reads it (the loader accepts only real dates).
  EXPECT_DOUBLE_EQ(ReleaseMonth("2025-4-1"), ReleaseMonth("2025-04-01"));
  EXPECT_DOUBLE_EQ(ReleaseMonth("+2025-04-01"), ReleaseMonth("2025-04-01"));
  const double april = ReleaseMonth("2025-04-01");
  EXPECT_EQ(MonthsSince(0, april), 0);      // the model's date unknown
  EXPECT_EQ(MonthsSince(april, 0), 0);      // no reference
  EXPECT_EQ(MonthsSince(ReleaseMonth("2026-01-01"), ReleaseMonth("2025-01-01")), 0);  // never < 0
}

TEST(ReleaseMonth, EveryCatalogModelCarriesItsNumber) {
  Diagnostics diags;
  std::unique_ptr<Catalog> fixture = Catalog::Load(testing::FixtureCatalog(), &diags);
  ASSERT_NE(fixture, nullptr) << diags.Render();
  const Model* llama = fixture->ModelById("llama-3.1-8b-instruct");
  ASSERT_NE(llama, nullptr);
  EXPECT_EQ(llama->release_date, "2024-07-23");  // kept for display
  EXPECT_DOUBLE_EQ(llama->release_month, ReleaseMonth("2024-07-23"));
  // The shipped catalog (read from its baked image): every model's number is its date's.
  for (const Model& m : testing::ShippedCatalog().models()) {
    EXPECT_GT(m.release_month, 0) << m.id;
    EXPECT_DOUBLE_EQ(m.release_month, ReleaseMonth(m.release_date)) << m.id;
  }
  // Built in code: derived by Build() where not given; a model without a date has none.
  Model dated, undated;
  dated.id = "dated";
  dated.release_date = "2025-04";
  undated.id = "undated";
  CatalogBuilder b;
  b.Add(dated).Add(undated);
  std::unique_ptr<Catalog> built = std::move(b).Build();
  EXPECT_DOUBLE_EQ(built->models()[0].release_month, ReleaseMonth("2025-04"));
  EXPECT_EQ(built->models()[1].release_month, 0);
}

}  // namespace
}  // namespace fitrank
