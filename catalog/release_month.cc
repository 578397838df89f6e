#include "catalog/release_month.h"

#include <algorithm>

#include "absl/strings/numbers.h"

namespace fitrank {

double ReleaseMonth(absl::string_view date) {
  int part[3] = {0, 6, 15};  // a bare year counts from its middle
  for (int i = 0;; ++i) {
    const size_t dash = date.find('-');
    if (i < 3 && !absl::SimpleAtoi(date.substr(0, dash), &part[i])) return 0;
    if (dash == absl::string_view::npos) break;
    date.remove_prefix(dash + 1);
  }
  if (part[0] < 1900) return 0;
  return part[0] * 12.0 + (part[1] - 1) + (part[2] - 1) / 30.0;
}

double MonthsSince(double release_month, double reference_month) {
  if (release_month == 0 || reference_month == 0) return 0;
  return std::max(0.0, reference_month - release_month);
}

}  // namespace fitrank
