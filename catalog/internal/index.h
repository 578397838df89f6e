// The lookup indexes of a Catalog: exact ids, normalised names, and the tokenised name forms
// that forgiving lookup scores. Built once by CatalogBuilder::Build(); immutable afterwards.
// Entries are referred to by position in the catalog's vectors.
#ifndef FITRANK_CATALOG_INTERNAL_INDEX_H_
#define FITRANK_CATALOG_INTERNAL_INDEX_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "catalog/internal/name_match.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

// One kind of entry (GPUs, models, ...).
struct NameIndex {
  absl::flat_hash_map<std::string, size_t> by_id;    // exact id
  absl::flat_hash_map<std::string, size_t> by_norm;  // NormalizeName(id | name | alias)
  std::vector<std::vector<NameForm>> forms;          // per entry: id, name, aliases, "vendor name"
  std::vector<std::string> display;                  // per entry: the name shown to users

  // Adds entry number `forms.size()`. The first owner of a normalised name keeps it.
  void Add(const std::string& id, const std::string& name, const std::vector<std::string>& aliases,
           const std::string& brand);
};

struct CatalogIndex {
  NameIndex gpus, models, diffusion, quants, runtimes, interconnects;
  absl::flat_hash_map<std::string, size_t> price_by_gpu;
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_INDEX_H_
