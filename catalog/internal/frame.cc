#include "catalog/internal/frame.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank::catalog_internal {

std::optional<FileFrame> ReadFrame(const FileSource& source, absl::string_view kind,
                                   Diagnostics* diags,
                                   std::vector<std::pair<std::string, std::string>>* texts) {
  const std::string path = absl::StrCat("catalog/", kind, ".yaml");
  FileFrame frame;
  frame.file = source.DisplayName(path);
  absl::StatusOr<std::string> content = source.Read(path);
  if (!content.ok()) {
    diags->Error("missing-file", Location{frame.file, 0, 0},
                 absl::IsNotFound(content.status())
                     ? absl::StrCat("catalog file `", path, "` is missing")
                     : absl::StrCat("cannot read catalog file `", path,
                                    "`: ", content.status().message()),
                 "the catalog needs gpus, models, diffusion, quants, runtimes, interconnects and "
                 "prices .yaml files; --data DIR replaces only the files it has");
    return std::nullopt;
  }
  std::optional<YAML::Node> root = ParseYaml(*content, frame.file, diags);
  texts->emplace_back(frame.file, std::move(*content));
  if (!root) return std::nullopt;

  MapReader r(*root, frame.file, diags, "the catalog file");
  if (!r.ok()) return std::nullopt;
  std::string schema, file_kind;
  if (r.Required("schema", &schema) && schema != kCatalogSchema) {
    diags->Error("unknown-schema", r.WhereOf("schema"),
                 absl::StrCat("unsupported schema `", schema, "`"),
                 absl::StrCat("this fitrank reads `schema: ", kCatalogSchema, "`"));
  }
  if (r.Required("kind", &file_kind) && file_kind != kind) {
    diags->Error("wrong-kind", r.WhereOf("kind"),
                 absl::StrCat("`", path, "` must hold `kind: ", kind, "`, not `", file_kind, "`"),
                 absl::StrCat("write `kind: ", kind, "`"));
  }
  if (!r.Has("sources")) {
    r.Known("sources");
    diags->Error("missing-field", r.Where(), "the catalog file has no `sources:` map",
                 "add `sources:` with one `key: \"where the numbers come from\"` per source");
  } else {
    YAML::Node sources = r.Child("sources");
    if (!sources.IsMap()) {
      diags->Error("wrong-type", LocationOf(sources, frame.file),
                   "`sources` must be a map of `key: \"description\"` lines");
    } else {
      for (auto it = sources.begin(); it != sources.end(); ++it) {
        std::optional<std::string> key = ScalarText(it->first);
        std::optional<std::string> text = ScalarText(it->second);
        if (!key || !text) {
          diags->Error("wrong-type", LocationOf(text ? it->first : it->second, frame.file),
                       "each source must be `key: \"description\"`");
          continue;
        }
        frame.sources.emplace(*key, *text);
        frame.source_keys.push_back(*key);
      }
    }
  }
  bool entries_ok = true;
  if (!r.Has(kind)) {
    r.Known(kind);
    diags->Error("missing-field", r.Where(),
                 absl::StrCat("the catalog file has no `", kind, ":` list"),
                 absl::StrCat("put the entries under `", kind, ":`, one `- id: ...` each"));
    entries_ok = false;
  } else {
    frame.entries = r.Child(kind);
    if (frame.entries.IsNull()) {
      frame.entries = YAML::Node(YAML::NodeType::Sequence);
    } else if (!frame.entries.IsSequence()) {
      diags->Error("wrong-type", LocationOf(frame.entries, frame.file),
                   absl::StrCat("`", kind, "` must be a list of entries (`- id: ...`)"));
      entries_ok = false;
    }
  }
  r.CheckUnknownKeys();
  if (!entries_ok) return std::nullopt;
  return frame;
}

bool ReadSource(MapReader& r, const FileFrame& frame, SourceRef* out) {
  std::string key;
  if (!r.Required("source", &key)) return false;
  auto it = frame.sources.find(key);
  if (it == frame.sources.end()) {
    std::string hint = DidYouMean(ClosestMatches(key, frame.source_keys, 1));
    if (hint.empty()) hint = "add it under `sources:` at the top of the file";
    r.diags()->Error("unknown-source", r.WhereOf("source"),
                     absl::StrCat("source `", key, "` is not listed under `sources:`"), hint);
    return false;
  }
  out->key = key;
  out->text = it->second;
  return true;
}

void AddCatalogHint(Diagnostic* d) {
  if (!d->hint.empty()) return;
  const std::string& m = d->message;
  auto says = [&](absl::string_view s) { return absl::StrContains(m, s); };
  if (d->code == "wrong-type") {
    if (says("must be a whole number")) {
      d->hint = "write a whole number without quotes or units, e.g. `32`";
    } else if (says("must be a number")) {
      d->hint = "write a plain number in the unit the key names (GB, GB/s, TFLOPS, billions), "
                "without quotes or units";
    } else if (says("must be true or false")) {
      d->hint = "write `true` or `false`, without quotes";
    } else if (says("must be a list")) {
      d->hint = "write a list in brackets, e.g. `[a, b]`, or one `- item` per line";
    } else if (says("must be text")) {
      d->hint = "write the value after the colon; quote it if it contains `: ` or starts with "
                "`[` or `{`";
    } else if (says("must be a map")) {
      d->hint = "write the record as indented `key: value` lines (see catalog/README.md)";
    } else {
      d->hint = "catalog/README.md gives the type of each key";
    }
  } else if (d->code == "unknown-key") {
    d->hint = "remove it; the keys are the field names of catalog/types.h (see catalog/README.md)";
  } else {
    d->hint = "see catalog/README.md";
  }
}

}  // namespace fitrank::catalog_internal
