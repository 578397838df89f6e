#include "catalog/data_date.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace fitrank {
namespace {

// "2024", "2024-07" or "2024-07-23".
bool IsDate(const std::string& s) {
  if (s.size() != 4 && s.size() != 7 && s.size() != 10) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? s[i] != '-' : !absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

void Consider(const std::string& date, const std::string& what, CatalogDataDate* newest) {
  if (IsDate(date) && date > newest->date) *newest = {date, what};
}

}  // namespace

CatalogDataDate NewestDataDate(const Catalog& catalog) {
  CatalogDataDate newest;
  for (const Model& m : catalog.models()) {
    Consider(m.release_date, absl::StrCat(m.name, " (release date)"), &newest);
  }
  for (const DiffusionModel& d : catalog.diffusion()) {
    Consider(d.release_date, absl::StrCat(d.name, " (release date)"), &newest);
  }
  for (const Price& p : catalog.prices()) {
    const Gpu* g = catalog.GpuById(p.gpu_id);
    Consider(p.as_of, absl::StrCat(g != nullptr ? g->name : p.gpu_id, " (price)"), &newest);
  }
  return newest;
}

}  // namespace fitrank
