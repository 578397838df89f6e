#include "catalog/internal/frame.h"

#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank::catalog_internal {
namespace {

// Checks the frame of a parsed file and finds its entry list.
std::optional<FileFrame> ReadFrameOf(FileFrame frame, absl::string_view kind,
                                     Diagnostics* diags);

}  // namespace

std::optional<FileFrame> ReadFrame(const FileSource& source, absl::string_view kind,
                                   Diagnostics* diags,
                                   std::vector<FileText>* texts) {
  const std::string path = absl::StrCat("catalog/", kind, ".yaml");
  FileFrame frame;
  frame.file = source.DisplayName(path);
  // The shipped files' trees were made at build time; other text is parsed.
  if (std::optional<absl::string_view> embedded = source.Embedded(path)) {
    frame.tree = YamlTree::FromEmbeddedImage(path);
    if (frame.tree == nullptr) frame.tree = YamlTree::Parse(*embedded, frame.file, diags);
    texts->push_back(FileText{frame.file, "", *embedded});
    return frame.tree == nullptr ? std::nullopt : ReadFrameOf(std::move(frame), kind, diags);
  }
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
  frame.tree = YamlTree::FromShippedImage(*content);
  if (frame.tree == nullptr) frame.tree = YamlTree::Parse(*content, frame.file, diags);
  texts->push_back(FileText{frame.file, std::move(*content), {}});
  if (frame.tree == nullptr) return std::nullopt;
  return ReadFrameOf(std::move(frame), kind, diags);
}

namespace {

std::optional<FileFrame> ReadFrameOf(FileFrame frame, absl::string_view kind,
                                     Diagnostics* diags) {
  const std::string path = absl::StrCat("catalog/", kind, ".yaml");
  MapReader r(frame.tree->root(), frame.file, diags, "the catalog file", std::string(kCatalogDoc));
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
    YamlNode sources = r.Child("sources");
    if (!sources.IsMap()) {
      diags->Error("wrong-type", sources.Where(frame.file),
                   "`sources` must be a map of `key: \"description\"` lines",
                   "write one `key: \"where the numbers come from\"` line per source");
    } else {
      for (size_t i = 0; i < sources.size(); ++i) {
        YamlNode key = sources.Key(i), text = sources.Value(i);
        if (!key.IsScalar() || !text.IsScalar()) {
          diags->Error("wrong-type", (text.IsScalar() ? key : text).Where(frame.file),
                       "each source must be `key: \"description\"`",
                       "write the description as one line of text");
          continue;
        }
        frame.sources.emplace(std::string(key.Scalar()), std::string(text.Scalar()));
        frame.source_keys.emplace_back(key.Scalar());
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
    if (!frame.entries.IsSequence() && !frame.entries.IsNull()) {
      diags->Error("wrong-type", frame.entries.Where(frame.file),
                   absl::StrCat("`", kind, "` must be a list of entries (`- id: ...`)"),
                   absl::StrCat("write each entry as `- id: ...` under `", kind, ":`"));
      entries_ok = false;
    }
  }
  r.CheckUnknownKeys();
  if (!entries_ok) return std::nullopt;
  return frame;
}

}  // namespace

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

}  // namespace fitrank::catalog_internal
