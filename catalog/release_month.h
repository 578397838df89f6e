// Release dates as month numbers, so that a model's age is a subtraction. The catalog keeps
// the date as written ("2024-07-23", "2024-07", "2024") for display and derives
// Model::release_month from it once, when the catalog is built (CatalogBuilder::Build; the
// baked image carries the number); the scoring facts' model.age_months is MonthsSince of two
// such numbers.
//
// Thread safety: pure functions.
#ifndef FITRANK_CATALOG_RELEASE_MONTH_H_
#define FITRANK_CATALOG_RELEASE_MONTH_H_

#include "absl/strings/string_view.h"

namespace fitrank {

// "YYYY[-MM[-DD]]" as months since the start of year 0: year x 12 + (month - 1) +
// (day - 1) / 30, the day as a share of a 30-day month. A date without its day counts from the
// 15th of its month, a bare year from June 15th (its middle). 0 (unknown) when `date` is
// empty, not such a date, or before 1900. The catalog loader accepts only real dates
// (YYYY, YYYY-MM, YYYY-MM-DD); this reads each number as absl::SimpleAtoi does ("2025-4-1" is
// April 1st), for dates that come from elsewhere.
double ReleaseMonth(absl::string_view date);

// Months from `release_month` to `reference_month` (ReleaseMonth numbers): never negative, and
// 0 when either is unknown (0).
double MonthsSince(double release_month, double reference_month);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_RELEASE_MONTH_H_
