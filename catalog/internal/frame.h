// The frame every catalog file shares (catalog/README.md):
//
//   schema: fitrank.catalog/v1
//   kind: gpus
//   sources: {key: "where the numbers come from", ...}
//   gpus: [ ...entries... ]
//
// ReadFrame() checks it and hands back the entry list; ReadSource() resolves an entry's
// `source:` key against the file's `sources:` map.
#ifndef FITRANK_CATALOG_INTERNAL_FRAME_H_
#define FITRANK_CATALOG_INTERNAL_FRAME_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "base/yaml_reader.h"
#include "base/yaml_tree.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

inline constexpr absl::string_view kCatalogSchema = "fitrank.catalog/v1";
// Where the catalog's keys are documented, for hints.
inline constexpr absl::string_view kCatalogDoc = "catalog/README.md";

struct FileFrame {
  std::string file;                                        // display name, for diagnostics
  std::unique_ptr<YamlTree> tree;                          // owns `entries`
  absl::flat_hash_map<std::string, std::string> sources;   // key -> text
  std::vector<std::string> source_keys;                    // in file order, for did-you-mean
  YamlNode entries;                                        // a sequence, or null (no entries)
};

// A catalog file's text, kept for rendering diagnostics: the file's own copy, or a view of the
// bytes embedded in the binary (never copied unless there is something to render).
struct FileText {
  std::string file;       // display name
  std::string owned;      // read from disk or memory
  absl::string_view embedded;
  absl::string_view text() const { return owned.empty() ? embedded : owned; }
};

// Reads `catalog/<kind>.yaml` from `source`. Reports a missing file, a YAML syntax error and
// any problem with the frame; returns nullopt if the entries cannot be read at all. The
// file's display name and text are appended to `texts` whenever it could be read. A shipped
// file served from the binary is not read at all: its tree comes from its build-time image.
std::optional<FileFrame> ReadFrame(const FileSource& source, absl::string_view kind,
                                   Diagnostics* diags,
                                   std::vector<FileText>* texts);

// Reads the entry's required `source:` key into `out`. False (reported) if it is missing or
// not one of the file's sources.
bool ReadSource(MapReader& r, const FileFrame& frame, SourceRef* out);

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_FRAME_H_
