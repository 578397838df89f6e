#include "base/yaml_reader.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/numbers.h"
#include "base/text.h"

namespace fitrank {

std::unique_ptr<YamlTree> ParseYaml(absl::string_view content, absl::string_view file,
                                    Diagnostics* diags) {
  diags->AddSource(std::string(file), std::string(content));
  if (std::unique_ptr<YamlTree> tree = YamlTree::FromShippedImage(content)) return tree;
  return YamlTree::Parse(content, file, diags);
}

MapReader::MapReader(YamlNode map, std::string file, Diagnostics* diags, std::string what,
                     std::string doc)
    : map_(map),
      file_(std::move(file)),
      diags_(diags),
      what_(std::move(what)),
      doc_(std::move(doc)) {
  if (!map_.IsMap()) {
    ok_ = false;
    diags_->Error("wrong-type", map_.Where(file_),
                  absl::StrCat(what_, " must be a map of `key: value` lines"),
                  doc_.empty()
                      ? "write it as indented `key: value` lines"
                      : absl::StrCat("write it as indented `key: value` lines (see ", doc_, ")"));
    return;
  }
  const size_t n = map_.size();
  used_.assign(n, false);
  keys_.resize(n);
  for (size_t i = 0; i < n; ++i) keys_[i] = map_.Key(i).Scalar();
}

int MapReader::IndexOf(absl::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key && !key.empty()) return static_cast<int>(i);
  }
  return -1;
}

bool MapReader::Has(absl::string_view key) const { return IndexOf(key) >= 0; }

void MapReader::Known(absl::string_view key) {
  asked_.emplace_back(key);
  int i = IndexOf(key);
  if (i >= 0) used_[i] = true;
}

YamlNode MapReader::Get(absl::string_view key) {
  asked_.emplace_back(key);
  int i = IndexOf(key);
  if (i < 0) return {};
  used_[i] = true;
  return map_.Value(i);
}

YamlNode MapReader::Child(absl::string_view key) { return Get(key); }

Location MapReader::WhereOf(absl::string_view key) const {
  int i = IndexOf(key);
  return i >= 0 ? map_.Value(i).Where(file_) : Where();
}

void MapReader::Missing(absl::string_view key, absl::string_view example) {
  Known(key);
  if (!ok_) return;
  diags_->Error("missing-field", Where(), absl::StrCat(what_, " has no `", key, "`"),
                absl::StrCat("add `", key, ": ", example, "`"));
}

void MapReader::WrongType(absl::string_view key, YamlNode v, absl::string_view expected,
                             absl::string_view hint) {
  std::string got = v.IsScalar()     ? absl::StrCat("`", Clip(v.Scalar()), "`")
                    : v.IsSequence() ? "a list"
                    : v.IsMap()      ? "a map"
                                     : "nothing";
  diags_->Error("wrong-type", v.Where(file_),
                absl::StrCat("`", key, "` of ", what_, " must be ", expected, ", got ", got),
                std::string(hint));
}

bool MapReader::ReportIfMissing(absl::string_view key, absl::string_view example) {
  if (!ok_ || Has(key)) return false;
  Missing(key, example);
  return true;
}

bool MapReader::Required(absl::string_view key, std::string* out) {
  return !ReportIfMissing(key, "...") && Optional(key, out);
}

bool MapReader::Optional(absl::string_view key, std::string* out) {
  absl::string_view text;
  if (!Optional(key, &text)) return false;
  out->assign(text.data(), text.size());
  return true;
}

bool MapReader::Required(absl::string_view key, absl::string_view* out) {
  return !ReportIfMissing(key, "...") && Optional(key, out);
}

bool MapReader::Optional(absl::string_view key, absl::string_view* out) {
  YamlNode v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (!v.IsScalar()) {
    WrongType(key, v, "text",
              "write the value after the colon; quote it if it contains `: ` or starts with "
              "`[` or `{`");
    return false;
  }
  *out = v.Scalar();
  return true;
}

bool MapReader::Number(absl::string_view key, YamlNode v, double* out, double min,
                          double max) {
  double d = 0;
  const NumberParse parsed = v.IsScalar() ? ParseDecimal(v.Scalar(), &d) : NumberParse::kNotDecimal;
  if (parsed == NumberParse::kOverflow) {
    diags_->Error("out-of-range", v.Where(file_),
                  absl::StrCat("`", key, "` of ", what_, " is ", Clip(v.Scalar()),
                               ", outside the plausible range [", min, ", ", max, "]"),
                  "check the unit the key names (GB, GB/s, dense TFLOPS, billions, ms ...)");
    return false;
  }
  if (parsed != NumberParse::kOk) {
    WrongType(key, v, "a number",
              "write a plain number in the unit the key names (GB, GB/s, TFLOPS, billions), "
              "without quotes or units");
    return false;
  }
  if (d < min || d > max) {
    diags_->Error("out-of-range", v.Where(file_),
                  absl::StrCat("`", key, "` of ", what_, " is ", v.Scalar(),
                               ", outside the plausible range [", min, ", ", max, "]"),
                  "check the unit the key names (GB, GB/s, dense TFLOPS, billions, ms ...)");
    return false;
  }
  *out = d;
  return true;
}

bool MapReader::Required(absl::string_view key, double* out, double min, double max) {
  return !ReportIfMissing(key, "<number>") && Optional(key, out, min, max);
}

bool MapReader::Optional(absl::string_view key, double* out, double min, double max) {
  YamlNode v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  return Number(key, v, out, min, max);
}

bool MapReader::Required(absl::string_view key, int* out, int min, int max) {
  return !ReportIfMissing(key, "<number>") && Optional(key, out, min, max);
}

bool MapReader::Optional(absl::string_view key, int* out, int min, int max) {
  YamlNode v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  double d = 0;
  if (!Number(key, v, &d, min, max)) return false;
  if (d != std::floor(d)) {
    WrongType(key, v, "a whole number", "write a whole number without quotes or units, e.g. `32`");
    return false;
  }
  *out = static_cast<int>(d);
  return true;
}

bool MapReader::Optional(absl::string_view key, bool* out) {
  YamlNode v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (v.IsScalar()) {
    if (v.Scalar() == "true") return *out = true, true;
    if (v.Scalar() == "false") return *out = false, true;
  }
  WrongType(key, v, "true or false", "write `true` or `false`, without quotes");
  return false;
}

bool MapReader::Optional(absl::string_view key, std::vector<std::string>* out) {
  YamlNode v = Get(key);
  if (!v.IsDefined() || v.IsNull()) return false;
  if (!v.IsSequence()) {
    WrongType(key, v, "a list like [a, b]",
              "write a list in brackets, e.g. `[a, b]`, or one `- item` per line");
    return false;
  }
  out->clear();
  bool ok = true;
  for (size_t i = 0, n = v.size(); i < n; ++i) {
    YamlNode item = v.Item(i);
    if (!item.IsScalar()) {
      WrongType(key, item, "a list of words", "write each item as a plain word or quoted text");
      ok = false;
      continue;
    }
    out->emplace_back(item.Scalar());
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

void MapReader::CheckUnknownKeys() {
  if (!ok_) return;
  const std::vector<std::string>& known = asked_;
  for (size_t i = 0, n = map_.size(); i < n; ++i) {
    YamlNode k = map_.Key(i);
    std::string key = k.IsScalar() ? std::string(k.Scalar()) : "?";
    int first = IndexOf(key);
    if (first >= 0 && first != static_cast<int>(i)) {
      diags_->Error("duplicate-key", k.Where(file_),
                    absl::StrCat("`", key, "` is given twice in ", what_, " (first on line ",
                                 map_.Key(first).line(), ")"),
                    "keep one; the first value is the one read");
      continue;
    }
    if (used_[i]) continue;
    std::string hint = DidYouMean(ClosestMatches(key, known, 1));
    if (hint.empty()) {
      hint = doc_.empty() ? "remove it" : absl::StrCat("remove it; the keys are listed in ", doc_);
    }
    diags_->Error("unknown-key", k.Where(file_),
                  absl::StrCat("unknown key `", key, "` in ", what_), hint);
  }
}

}  // namespace fitrank
