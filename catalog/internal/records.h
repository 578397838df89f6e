// Readers for one catalog entry of each kind: YAML map -> record, every problem reported with
// its position (see base/yaml_reader.h). Each reader checks the entry on its own (fields,
// types, ranges, enums, internal consistency such as active <= total parameters); checks that
// span entries or files (duplicate names, cross references) are in checks.h and use the
// positions the readers leave in `Places`.
//
// Plausible ranges are deliberately wide: they catch unit mistakes (MB for GB, Gbit/s for
// GB/s, sparse for dense) and typos, not unusual hardware.
#ifndef FITRANK_CATALOG_INTERNAL_RECORDS_H_
#define FITRANK_CATALOG_INTERNAL_RECORDS_H_

#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "base/yaml_reader.h"
#include "catalog/internal/frame.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

// Where an entry's names and references are in its file.
struct Places {
  std::string what;  // "gpu `geforce-rtx-4090`", for messages
  Location entry;
  Location id;
  Location name;
  std::vector<Location> aliases;  // parallel to the record's aliases
  // Cross references, value and position: a GPU's interconnect, a quant's runtimes, a price's
  // gpu_id.
  std::vector<std::pair<std::string, Location>> refs;
};

// `index` is the entry's position in its list (0-based), used to name an entry without id.
void ReadGpu(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
             Gpu* out, Places* places);
void ReadModel(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Model* out, Places* places);
void ReadDiffusion(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
                   DiffusionModel* out, Places* places);
void ReadQuant(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Quant* out, Places* places);
void ReadRuntime(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
                 Runtime* out, Places* places);
void ReadInterconnect(YamlNode node, int index, const FileFrame& frame,
                      Diagnostics* diags, Interconnect* out, Places* places);
void ReadPrice(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Price* out, Places* places);

// Helpers shared by the readers (read_common.cc).

// "gpu `geforce-rtx-4090`", or "gpu #3" when the entry has no readable id.
std::string EntryWhat(YamlNode node, absl::string_view kind, int index);

// Reads the required `id` (lower-case unless `any_case`), and `aliases`, into `places`.
void ReadId(MapReader& r, bool any_case, std::string* id, Places* places);
void ReadAliases(MapReader& r, std::vector<std::string>* aliases, Places* places);

// A list whose every item must be one of `allowed`; an item that is not is reported at its
// own position with a did-you-mean and left out.
void ReadWordList(MapReader& r, absl::string_view key, const std::vector<std::string>& allowed,
                  bool required, std::vector<std::string>* out);

// A date: "2024", "2024-07" or "2024-07-23", with a real month and day ("2025-02-29" is an
// error, located at the value, with the reason).
void ReadDate(MapReader& r, absl::string_view key, bool required, std::string* out);

// An optional number where, as everywhere in the catalog, 0 means "not known": absent or 0
// leaves `*out` untouched (its default) and returns false; anything else must lie in
// [min, max].
bool OptionalNum(MapReader& r, absl::string_view key, double* out, double min, double max);
bool OptionalNum(MapReader& r, absl::string_view key, int* out, int min, int max);

// Reports an inconsistency between fields at the position of `key`'s value.
void Inconsistent(MapReader& r, absl::string_view key, std::string message, std::string hint);

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_RECORDS_H_
