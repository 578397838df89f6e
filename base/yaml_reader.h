// Reading YAML into plain structs with positions and diagnostics.
//
// ParseYaml() turns text into a node tree, reporting a syntax error as a diagnostic (never an
// exception). MapReader reads the fields of one YAML map: each typed getter checks presence,
// type and range and reports problems at the value's own line and column; CheckUnknownKeys()
// reports every key no getter asked for, with a did-you-mean among the keys that were.
// yaml-cpp exceptions never escape this module.
#ifndef FITRANK_BASE_YAML_READER_H_
#define FITRANK_BASE_YAML_READER_H_

#include <optional>
#include <set>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "base/diagnostics.h"
#include "yaml-cpp/yaml.h"

namespace fitrank {

// Location of `node` in `file` (1-based; yaml-cpp marks are 0-based).
Location LocationOf(const YAML::Node& node, absl::string_view file);

// Parses `content`. On a syntax error adds a "yaml-syntax" diagnostic at the error's position
// and returns nullopt. Registers `content` under `file` with `diags` for caret rendering.
std::optional<YAML::Node> ParseYaml(absl::string_view content, absl::string_view file,
                                    Diagnostics* diags);

// A scalar's text, or nullopt (no diagnostic) if the node is not a scalar.
std::optional<std::string> ScalarText(const YAML::Node& node);

class MapReader {
 public:
  // `what` names the record in messages, e.g. "gpu `geforce-rtx-4090`". If `map` is not a
  // map, reports it once and every getter then returns false.
  MapReader(const YAML::Node& map, std::string file, Diagnostics* diags, std::string what);

  bool ok() const { return ok_; }
  bool Has(absl::string_view key) const;
  const std::string& file() const { return file_; }
  Diagnostics* diags() const { return diags_; }
  Location Where() const { return LocationOf(map_, file_); }
  // Location of `key`'s value (or of the map if absent).
  Location WhereOf(absl::string_view key) const;

  // Required getters report "missing-field" if absent; all report "wrong-type" and
  // "out-of-range" problems. They return true only if `*out` was set from the file.
  bool Required(absl::string_view key, std::string* out);
  bool Required(absl::string_view key, double* out, double min, double max);
  bool Required(absl::string_view key, int* out, int min, int max);
  bool Optional(absl::string_view key, std::string* out);
  bool Optional(absl::string_view key, double* out, double min, double max);
  bool Optional(absl::string_view key, int* out, int min, int max);
  bool Optional(absl::string_view key, bool* out);
  bool Optional(absl::string_view key, std::vector<std::string>* out);
  // One of `allowed` (exact match); a near miss gets a did-you-mean.
  bool Enum(absl::string_view key, const std::vector<std::string>& allowed, std::string* out,
            bool required);

  // The child node (marked as known); an undefined node if absent.
  YAML::Node Child(absl::string_view key);
  // Marks `key` as known without reading it.
  void Known(absl::string_view key) { known_.insert(std::string(key)); }

  // Reports every key that no getter asked for, as "unknown-key" errors.
  void CheckUnknownKeys();

 private:
  YAML::Node Get(absl::string_view key);
  void WrongType(absl::string_view key, const YAML::Node& v, absl::string_view expected);

  YAML::Node map_;
  std::string file_;
  Diagnostics* diags_;
  std::string what_;
  bool ok_ = true;
  std::set<std::string, std::less<>> known_;
};

}  // namespace fitrank

#endif  // FITRANK_BASE_YAML_READER_H_
