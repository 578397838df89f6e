// The lookup indexes of a Catalog: exact ids, normalised names, and the tokenised name forms
// that forgiving lookup scores. Built once by CatalogBuilder::Build(); immutable afterwards.
// Entries are referred to by position in the catalog's vectors.
#ifndef FITRANK_CATALOG_INTERNAL_INDEX_H_
#define FITRANK_CATALOG_INTERNAL_INDEX_H_

#include <array>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

#include "absl/container/flat_hash_map.h"
#include "catalog/internal/name_match.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

// One kind of entry (GPUs, models, ...).
// The ids and names it holds are views of the catalog's records (which the catalog owns and
// never moves, as it owns this index) or, for `by_norm` of a baked index, of the image.
struct NameIndex {
  absl::flat_hash_map<absl::string_view, size_t> by_id;  // exact id
  // NormalizeName(id | name | alias) and its entry, sorted by name, each name once (its first
  // owner's): searched by FindNorm. A sorted table, not a hash map: a baked image lists the
  // names in this order, so a start-up reads them in place without hashing each (most
  // commands then look up one or two). The names are views: into `norm_store` for an index
  // built from records, into the catalog image for a baked one (which outlives the catalog).
  std::vector<std::pair<absl::string_view, uint32_t>> by_norm;
  std::deque<std::string> norm_store;  // the normalised names an index built from records owns
  std::vector<absl::string_view> display;  // per entry: the name shown to users

  // Tokenised forms per entry (id, name, aliases, "vendor name"), for word matching. Built on
  // the first lookup that needs them (most commands look up one GPU and one model, and an
  // exact name needs none): call Forms().
  mutable std::once_flag forms_once;
  mutable std::vector<std::vector<NameForm>> forms;

  // Adds entry number `display.size()`, and with `normalise` its normalised id, name and
  // aliases to `by_norm` (false: a baked index brings `by_norm` filled). SortNorms() then.
  void Add(absl::string_view id, absl::string_view name,
           const std::vector<std::string>& aliases, bool normalise = true);
  // Sorts `by_norm` by name after the Adds, keeping the first owner of each name.
  void SortNorms();
  // The entry whose normalised name is `norm`, -1 if none.
  int64_t FindNorm(absl::string_view norm) const;

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
void AddForms(absl::string_view id, absl::string_view name,
              const std::vector<std::string>& aliases, const std::string& brand,
              std::vector<NameForm>* out);

struct CatalogIndex {
  NameIndex gpus, models, diffusion, quants, runtimes, interconnects;
  // The name indexes, in the order a catalog image writes them.
  std::array<NameIndex*, 6> Kinds() {
    return {&gpus, &models, &diffusion, &quants, &runtimes, &interconnects};
  }
  std::array<const NameIndex*, 6> Kinds() const {
    return {&gpus, &models, &diffusion, &quants, &runtimes, &interconnects};
  }
  absl::flat_hash_map<std::string, size_t> price_by_gpu;
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_INDEX_H_
