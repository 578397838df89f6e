// Catalog dates (catalog/internal/records.h ReadDate): YYYY, YYYY-MM or YYYY-MM-DD with a real
// month and day; anything else is a located `bad-date` error with the reason, never an
// exception and never accepted junk.
#include <string>

#include "absl/strings/str_replace.h"
#include "catalog/catalog.h"
#include "gtest/gtest.h"
#include "tests/catalog/test_catalog.h"

namespace fitrank {
namespace {

// Loads the fixture catalog with the first model's release date replaced by `date`.
std::string LoadWithDate(const std::string& date, bool* loaded) {
  MemorySource src = testing::FixtureCatalog();
  const std::string path = "catalog/models.yaml";
  const std::string text = *src.Read(path);
  const std::string edited =
      absl::StrReplaceAll(text, {{"release_date: 2024-07-23", "release_date: " + date}});
  EXPECT_NE(edited, text) << "the fixture's first release date moved";
  src.Set(path, edited);
  Diagnostics diags;
  std::unique_ptr<Catalog> c = Catalog::Load(src, &diags);
  *loaded = c != nullptr;
  return diags.Render();
}

TEST(CatalogDateTest, AcceptsRealDates) {
  for (const char* date : {"2024", "2024-02", "2024-02-29", "2000-02-29", "2025-12-31"}) {
    bool loaded = false;
    std::string out = LoadWithDate(date, &loaded);
    EXPECT_TRUE(loaded) << date << "\n" << out;
    EXPECT_EQ(out, "") << date;
  }
}

TEST(CatalogDateTest, RejectsImpossibleDaysWithTheReason) {
  bool loaded = true;
  std::string out = LoadWithDate("2025-02-29", &loaded);
  EXPECT_FALSE(loaded);
  EXPECT_NE(out.find("catalog/models.yaml:20:19: error: `release_date` must be a date, got "
                     "`2025-02-29` [bad-date]"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("the day is 29, but month 2 of 2025 has 28 days"), std::string::npos) << out;

  out = LoadWithDate("1900-02-29", &loaded);  // not a leap year
  EXPECT_NE(out.find("month 2 of 1900 has 28 days"), std::string::npos) << out;
  out = LoadWithDate("2024-04-31", &loaded);
  EXPECT_NE(out.find("month 4 of 2024 has 30 days"), std::string::npos) << out;
  out = LoadWithDate("2024-00", &loaded);
  EXPECT_NE(out.find("the month is 0, not 1-12"), std::string::npos) << out;
}

// Inputs a std::stoi-based reader took, threw on, or half-read.
TEST(CatalogDateTest, RejectsJunkAtItsPlace) {
  for (const char* date : {"\"2024-+1-01\"", "\"2024- 1-01\"", "\"2024-1-01\"", "\"2024-01-1\"",
                           "\"20245\"", "\"2024-01-01-01\"", "\"2024-01-\"", "\"-2024\"",
                           "\"２０２４\"", "\"2024-0x\"", "\"99999999999999999999\"", "\"\""}) {
    bool loaded = true;
    std::string out = LoadWithDate(date, &loaded);
    EXPECT_FALSE(loaded) << date;
    EXPECT_NE(out.find("catalog/models.yaml:20:19: error: `release_date` must be a date"),
              std::string::npos)
        << date << "\n" << out;
    EXPECT_NE(out.find("write YYYY-MM-DD, YYYY-MM or YYYY"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace fitrank
