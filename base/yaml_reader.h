// Reading YAML into plain structs with positions and diagnostics, for every fitrank data file
// (catalog, estimator constants, rules, profiles, reports).
//
// ParseYaml() gives the file's YamlTree (base/yaml_tree.h), reporting a syntax error as a
// diagnostic. MapReader reads the fields of one YAML map: each typed getter checks presence,
// type and range and reports problems at the value's own line and column, each with a hint;
// CheckUnknownKeys() reports every key no getter asked for, with a did-you-mean among the keys
// that were, and every key written twice.
//
// Codes: yaml-syntax, yaml-multiple-documents, missing-field, wrong-type, out-of-range, unknown-value, unknown-key,
// duplicate-key.
#ifndef FITRANK_BASE_YAML_READER_H_
#define FITRANK_BASE_YAML_READER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/yaml_tree.h"

namespace fitrank {

// Parses `content` (taking the tree from a build-time image when `content` is byte for byte a
// shipped file, see base/yaml_tree.h). On a syntax error adds a "yaml-syntax" diagnostic at
// the error's position and returns nullptr. Registers `content` under `file` with `diags` for
// caret rendering.
std::unique_ptr<YamlTree> ParseYaml(absl::string_view content, absl::string_view file,
                                    Diagnostics* diags);

class MapReader {
 public:
  // `what` names the record in messages, e.g. "gpu `geforce-rtx-4090`"; `doc` is where its
  // keys are documented, for hints ("catalog/README.md"). If `map` is not a map, reports it
  // once and every getter then returns false.
  MapReader(YamlNode map, std::string file, Diagnostics* diags, std::string what,
            std::string doc = "");

  bool ok() const { return ok_; }
  bool Has(absl::string_view key) const;
  const std::string& file() const { return file_; }
  Diagnostics* diags() const { return diags_; }
  const std::string& what() const { return what_; }
  Location Where() const { return map_.Where(file_); }
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
  // Text as a view of the tree's own (valid while the tree lives), not a copy.
  bool Required(absl::string_view key, absl::string_view* out);
  bool Optional(absl::string_view key, absl::string_view* out);
  // One of `allowed` (exact match); a near miss gets a did-you-mean.
  bool Enum(absl::string_view key, const std::vector<std::string>& allowed, std::string* out,
            bool required);
  // Reports "missing-field" for `key` (for records and lists whose absence needs saying).
  void Missing(absl::string_view key, absl::string_view example);

  // The child node (marked as known); undefined if absent.
  YamlNode Child(absl::string_view key);
  // Marks `key` as known without reading it.
  void Known(absl::string_view key);

  // Reports every key that no getter asked for, as "unknown-key" errors with a did-you-mean
  // among the keys that were asked for, and every key written twice.
  void CheckUnknownKeys();

 private:
  // Reports "missing-field" and returns true if the map is readable and lacks `key`.
  bool ReportIfMissing(absl::string_view key, absl::string_view example);
  // The value of `key`, marking the key known; undefined if absent.
  YamlNode Get(absl::string_view key);
  int IndexOf(absl::string_view key) const;
  void WrongType(absl::string_view key, YamlNode v, absl::string_view expected,
                 absl::string_view hint);
  bool Number(absl::string_view key, YamlNode v, double* out, double min, double max);

  YamlNode map_;
  std::string file_;
  Diagnostics* diags_;
  std::string what_;
  bool ok_ = true;
  std::vector<absl::string_view> keys_;     // per map entry (empty if not a scalar)
  std::vector<bool> used_;                  // per map entry: a getter asked for its key
  std::vector<std::string> asked_;          // every key asked for (for did-you-mean)
  std::string doc_;
};

}  // namespace fitrank

#endif  // FITRANK_BASE_YAML_READER_H_
