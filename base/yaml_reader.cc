#include "base/yaml_reader.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank {

Location LocationOf(const YAML::Node& node, absl::string_view file) {
  Location loc{std::string(file), 0, 0};
  if (!node.IsDefined()) return loc;
  YAML::Mark m = node.Mark();
  if (m.is_null()) return loc;
  loc.line = m.line + 1;
  loc.col = m.column + 1;
  return loc;
}

std::optional<YAML::Node> ParseYaml(absl::string_view content, absl::string_view file,
                                    Diagnostics* diags) {
  diags->AddSource(std::string(file), std::string(content));
  try {
    return YAML::Load(std::string(content));
  } catch (const YAML::Exception& e) {
    Location loc{std::string(file), 0, 0};
    if (!e.mark.is_null()) {
      loc.line = e.mark.line + 1;
      loc.col = e.mark.column + 1;
    }
    diags->Error("yaml-syntax", loc, absl::StrCat("YAML syntax error: ", e.msg),
                 "check indentation, quoting and the ':' after each key");
    return std::nullopt;
  }
}

std::optional<std::string> ScalarText(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

MapReader::MapReader(const YAML::Node& map, std::string file, Diagnostics* diags,
                     std::string what)
    : map_(map), file_(std::move(file)), diags_(diags), what_(std::move(what)) {
  if (!map_.IsMap()) {
    ok_ = false;
    diags_->Error("wrong-type", LocationOf(map_, file_),
                  absl::StrCat(what_, " must be a map of `key: value` lines"));
  }
}

bool MapReader::Has(absl::string_view key) const {
  if (!ok_) return false;
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return true;
  }
  return false;
}

YAML::Node MapReader::Get(absl::string_view key) {
  known_.insert(std::string(key));
  if (!ok_) return YAML::Node(YAML::NodeType::Undefined);
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

Location MapReader::WhereOf(absl::string_view key) const {
  if (ok_) {
    for (auto it = map_.begin(); it != map_.end(); ++it) {
      if (it->first.IsScalar() && it->first.Scalar() == key) return LocationOf(it->second, file_);
    }
  }
  return LocationOf(map_, file_);
}

void MapReader::WrongType(absl::string_view key, const YAML::Node& v, absl::string_view expected) {
  std::string got = v.IsScalar() ? absl::StrCat("`", v.Scalar(), "`")
                    : v.IsSequence() ? "a list"
                    : v.IsMap() ? "a map"
                                : "nothing";
  diags_->Error("wrong-type", LocationOf(v, file_),
                absl::StrCat("`", key, "` of ", what_, " must be ", expected, ", got ", got));
}

bool MapReader::Required(absl::string_view key, std::string* out) {
  if (!Has(key)) {
    known_.insert(std::string(key));
    if (ok_) {
      diags_->Error("missing-field", Where(),
                    absl::StrCat(what_, " has no `", key, "`"),
                    absl::StrCat("add `", key, ": ...`"));
    }
    return false;
  }
  return Optional(key, out);
}

bool MapReader::Optional(absl::string_view key, std::string* out) {
  YAML::Node v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (!v.IsScalar()) {
    WrongType(key, v, "text");
    return false;
  }
  *out = v.Scalar();
  return true;
}

bool MapReader::Required(absl::string_view key, double* out, double min, double max) {
  if (!Has(key)) {
    known_.insert(std::string(key));
    if (ok_) {
      diags_->Error("missing-field", Where(), absl::StrCat(what_, " has no `", key, "`"),
                    absl::StrCat("add `", key, ": <number>`"));
    }
    return false;
  }
  return Optional(key, out, min, max);
}

bool MapReader::Optional(absl::string_view key, double* out, double min, double max) {
  YAML::Node v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  double d = 0;
  if (!v.IsScalar() || !absl::SimpleAtod(v.Scalar(), &d) || !std::isfinite(d)) {
    WrongType(key, v, "a number");
    return false;
  }
  if (d < min || d > max) {
    diags_->Error("out-of-range", LocationOf(v, file_),
                  absl::StrCat("`", key, "` of ", what_, " is ", v.Scalar(),
                               ", outside the plausible range [", min, ", ", max, "]"),
                  "check the unit: GB, GB/s, dense TFLOPS, billions of parameters");
    return false;
  }
  *out = d;
  return true;
}

bool MapReader::Required(absl::string_view key, int* out, int min, int max) {
  double d = 0;
  if (!Required(key, &d, min, max)) return false;
  if (d != std::floor(d)) {
    WrongType(key, Get(key), "a whole number");
    return false;
  }
  *out = static_cast<int>(d);
  return true;
}

bool MapReader::Optional(absl::string_view key, int* out, int min, int max) {
  double d = 0;
  if (!Optional(key, &d, min, max)) return false;
  if (d != std::floor(d)) {
    WrongType(key, Get(key), "a whole number");
    return false;
  }
  *out = static_cast<int>(d);
  return true;
}

bool MapReader::Optional(absl::string_view key, bool* out) {
  YAML::Node v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (v.IsScalar()) {
    const std::string& s = v.Scalar();
    if (s == "true") return *out = true, true;
    if (s == "false") return *out = false, true;
  }
  WrongType(key, v, "true or false");
  return false;
}

bool MapReader::Optional(absl::string_view key, std::vector<std::string>* out) {
  YAML::Node v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (!v.IsSequence()) {
    WrongType(key, v, "a list like [a, b]");
    return false;
  }
  out->clear();
  bool ok = true;
  for (const YAML::Node& item : v) {
    if (!item.IsScalar()) {
      WrongType(key, item, "a list of words");
      ok = false;
      continue;
    }
    out->push_back(item.Scalar());
  }
  return ok;
}

bool MapReader::Enum(absl::string_view key, const std::vector<std::string>& allowed,
                     std::string* out, bool required) {
  std::string s;
  if (!(required ? Required(key, &s) : Optional(key, &s))) return false;
  for (const std::string& a : allowed) {
    if (a == s) {
      *out = s;
      return true;
    }
  }
  std::string hint = DidYouMean(ClosestMatches(s, allowed, 1));
  if (hint.empty()) hint = absl::StrCat("one of ", QuotedList(allowed));
  diags_->Error("unknown-value", WhereOf(key),
                absl::StrCat("`", key, "` of ", what_, " cannot be `", s, "`"), hint);
  return false;
}

YAML::Node MapReader::Child(absl::string_view key) { return Get(key); }

void MapReader::CheckUnknownKeys() {
  if (!ok_) return;
  std::vector<std::string> known(known_.begin(), known_.end());
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
    if (known_.count(key)) continue;
    diags_->Error("unknown-key", LocationOf(it->first, file_),
                  absl::StrCat("unknown key `", key, "` in ", what_),
                  DidYouMean(ClosestMatches(key, known, 1)));
  }
}

}  // namespace fitrank
