// Checks that span entries: unique ids/names/aliases within a kind, and references from one
// file to another (a GPU's interconnect, a quant's runtimes, a price's GPU).
#ifndef FITRANK_CATALOG_INTERNAL_CHECKS_H_
#define FITRANK_CATALOG_INTERNAL_CHECKS_H_

#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "catalog/internal/records.h"

namespace fitrank::catalog_internal {

// One name an entry answers to.
struct NameUse {
  enum Role { kId, kName, kAlias };
  std::string text;
  Role role = kId;
  size_t entry = 0;
  Location where;
};

// The names of entry `entry`: its id, name (may be empty) and aliases, positions from `places`.
void AddNames(size_t entry, const std::string& id, const std::string& name,
              const std::vector<std::string>& aliases, const Places& places,
              std::vector<NameUse>* out);

// Reports every name that an earlier entry already answers to (after NormalizeName), at the
// later occurrence, naming the first one and its line. `places` gives each entry's `what`.
void CheckUniqueNames(const std::vector<NameUse>& names, const std::vector<Places>& places,
                      Diagnostics* diags);

// Reports every reference in `places[*].refs` that is not one of `targets` (exact ids).
// `ref_kind` names what is referenced ("interconnect"), `target_file` where it must be.
void CheckRefs(const std::vector<Places>& places, const std::vector<std::string>& targets,
               absl::string_view ref_kind, absl::string_view target_file, Diagnostics* diags);

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_CHECKS_H_
