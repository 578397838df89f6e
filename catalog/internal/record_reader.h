// Reads the fields of one catalog record (a YAML map in a YamlTree) into a struct, reporting
// every problem at the value's own line and column.
//
// The interface and the messages are those of base/yaml_reader.h's MapReader, so catalog
// diagnostics read like every other fitrank file's; it works on the fast libyaml tree of
// yaml_tree.h instead of yaml-cpp nodes (see there for why), gives every problem a hint, and
// also reports a key written twice in one record.
//
// Codes: missing-field, wrong-type, out-of-range, unknown-value, unknown-key, duplicate-key.
#ifndef FITRANK_CATALOG_INTERNAL_RECORD_READER_H_
#define FITRANK_CATALOG_INTERNAL_RECORD_READER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "catalog/internal/yaml_tree.h"

namespace fitrank::catalog_internal {

class RecordReader {
 public:
  // `what` names the record in messages, e.g. "gpu `geforce-rtx-4090`". If `map` is not a
  // map, reports it once and every getter then returns false.
  RecordReader(YamlNode map, std::string file, Diagnostics* diags, std::string what);

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
  std::vector<absl::string_view> asked_;    // every key asked for (for did-you-mean)
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_RECORD_READER_H_
