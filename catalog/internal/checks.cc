#include "catalog/internal/checks.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank::catalog_internal {
namespace {

absl::string_view RoleName(NameUse::Role r) {
  switch (r) {
    case NameUse::kId: return "id";
    case NameUse::kName: return "name";
    case NameUse::kAlias: return "alias";
  }
  return "name";
}

}  // namespace

void AddNames(size_t entry, const std::string& id, const std::string& name,
              const std::vector<std::string>& aliases, const Places& places,
              std::vector<NameUse>* out) {
  if (!id.empty()) out->push_back({id, NameUse::kId, entry, places.id});
  if (!name.empty()) out->push_back({name, NameUse::kName, entry, places.name});
  for (size_t i = 0; i < aliases.size(); ++i) {
    Location where = i < places.aliases.size() ? places.aliases[i] : places.entry;
    out->push_back({aliases[i], NameUse::kAlias, entry, where});
  }
}

void CheckUniqueNames(const std::vector<NameUse>& names, const std::vector<Places>& places,
                      Diagnostics* diags) {
  absl::flat_hash_map<std::string, const NameUse*> first;
  first.reserve(names.size());
  for (const NameUse& use : names) {
    std::string norm = NormalizeName(use.text);
    if (norm.empty()) continue;
    auto [it, inserted] = first.try_emplace(norm, &use);
    if (inserted) continue;
    const NameUse& prev = *it->second;
    if (prev.entry == use.entry) continue;  // an alias repeating the entry's own name: harmless
    const char* code = use.role == NameUse::kId     ? "duplicate-id"
                       : use.role == NameUse::kName ? "duplicate-name"
                                                    : "duplicate-alias";
    std::string first_at = prev.where.line > 0 ? absl::StrCat(" (line ", prev.where.line, ")") : "";
    diags->Error(code, use.where,
                 absl::StrCat(RoleName(use.role), " `", use.text, "` of ", places[use.entry].what,
                              " is already the ", RoleName(prev.role),
                              prev.text == use.text ? "" : absl::StrCat(" `", prev.text, "`"),
                              " of ", places[prev.entry].what, first_at),
                 "ids, names and aliases must be unique, ignoring case, spaces, `-` and `_`; "
                 "rename or remove one");
  }
}

void CheckRefs(const std::vector<Places>& places, const std::vector<std::string>& targets,
               absl::string_view ref_kind, absl::string_view target_file, Diagnostics* diags) {
  absl::flat_hash_set<std::string> known(targets.begin(), targets.end());
  for (const Places& p : places) {
    for (const auto& [value, where] : p.refs) {
      if (known.contains(value)) continue;
      std::string hint = DidYouMean(ClosestMatches(value, targets, 1));
      if (hint.empty()) hint = absl::StrCat("use an id from ", target_file);
      diags->Error("unknown-reference", where,
                   absl::StrCat("unknown ", ref_kind, " `", value, "` in ", p.what), hint);
    }
  }
}

}  // namespace fitrank::catalog_internal
