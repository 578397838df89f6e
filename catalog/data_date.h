// How recent the catalog's data is: the newest date any entry carries (a model's or diffusion
// model's release_date, a price's as_of). `fitrank --version` prints it, so the date comes
// from the data itself and moves when the catalog is regenerated.
//
// Thread safety: pure function of an immutable Catalog.
#ifndef FITRANK_CATALOG_DATA_DATE_H_
#define FITRANK_CATALOG_DATA_DATE_H_

#include <string>

#include "catalog/catalog.h"

namespace fitrank {

struct CatalogDataDate {
  std::string date;   // "2026-04" (as written: "YYYY", "YYYY-MM" or "YYYY-MM-DD"); "" if none
  std::string entry;  // what carries it: "GLM-5.1 (release date)"
};

// Dates compare as text, which orders these forms correctly; values that are not such a date
// are ignored. On a tie the first entry in catalog order is named.
CatalogDataDate NewestDataDate(const Catalog& catalog);

}  // namespace fitrank

#endif  // FITRANK_CATALOG_DATA_DATE_H_
