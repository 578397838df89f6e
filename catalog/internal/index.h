// The lookup indexes of a Catalog: exact ids, normalised names, and the tokenised name forms
// that forgiving lookup scores. Built once by CatalogBuilder::Build(); immutable afterwards.
// Entries are referred to by position in the catalog's vectors.
#ifndef FITRANK_CATALOG_INTERNAL_INDEX_H_
#define FITRANK_CATALOG_INTERNAL_INDEX_H_

#include <mutex>
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
  std::vector<std::string> display;                  // per entry: the name shown to users

  // Tokenised forms per entry (id, name, aliases, "vendor name"), for word matching. Built on
  // the first lookup that needs them (most commands look up one GPU and one model, and an
  // exact name needs none): call Forms().
  mutable std::once_flag forms_once;
  mutable std::vector<std::vector<NameForm>> forms;

  // Adds entry number `display.size()`. The first owner of a normalised name keeps it.
  // With `normalise` false, `by_norm` is left alone (a baked index brings it filled).
  void Add(const std::string& id, const std::string& name,
           const std::vector<std::string>& aliases, bool normalise = true);

  // The forms, built from (id, name, aliases, brand) of each entry on first use.
  template <class Each>
  const std::vector<std::vector<NameForm>>& Forms(size_t n, Each each) const {
    std::call_once(forms_once, [&] {
      forms.resize(n);
      for (size_t i = 0; i < n; ++i) each(i, &forms[i]);
    });
    return forms;
  }
};

// The forms of one entry.
void AddForms(const std::string& id, const std::string& name,
              const std::vector<std::string>& aliases, const std::string& brand,
              std::vector<NameForm>* out);

struct CatalogIndex {
  NameIndex gpus, models, diffusion, quants, runtimes, interconnects;
  absl::flat_hash_map<std::string, size_t> price_by_gpu;
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_INDEX_H_
