#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "catalog/internal/records.h"

namespace fitrank::catalog_internal {

std::string EntryWhat(YamlNode node, absl::string_view kind, int index) {
  YamlNode id = node.Get("id");
  if (id.IsScalar() && !id.Scalar().empty()) return absl::StrCat(kind, " `", id.Scalar(), "`");
  return absl::StrCat(kind, " #", index + 1);
}

void ReadId(MapReader& r, bool any_case, std::string* id, Places* places) {
  places->entry = r.Where();
  if (!r.Required("id", id)) return;
  places->id = r.WhereOf("id");
  bool ok = !id->empty();
  for (char c : *id) {
    bool allowed = absl::ascii_isdigit(c) || c == '-' || c == '.' || c == '_' || c == '+' ||
                   (any_case ? absl::ascii_isalpha(c) : absl::ascii_islower(c));
    if (!allowed) ok = false;
  }
  if (!ok) {
    r.diags()->Error("bad-id", places->id, absl::StrCat("id `", *id, "` is not a valid id"),
                     any_case ? "use letters, digits and `-` `.` `_` `+`, no spaces"
                              : absl::StrCat("use lower-case letters, digits and `-` `.` `_` "
                                             "`+`, no spaces: `",
                                             absl::AsciiStrToLower(NormalizeName(*id)), "`"));
  }
}

void ReadAliases(MapReader& r, std::vector<std::string>* aliases, Places* places) {
  if (!r.Optional("aliases", aliases)) return;
  YamlNode list = r.Child("aliases");
  places->aliases.clear();
  for (size_t i = 0; i < list.size(); ++i) {
    places->aliases.push_back(list.Item(i).Where(r.file()));
  }
  for (size_t i = 0; i < aliases->size(); ++i) {
    if (NormalizeName((*aliases)[i]).empty()) {
      r.diags()->Error("empty-alias", places->aliases[i], "an alias cannot be empty",
                       "remove it from the list");
    }
  }
}

void ReadWordList(MapReader& r, absl::string_view key, const std::vector<std::string>& allowed,
                  bool required, std::vector<std::string>* out) {
  std::vector<std::string> words;
  if (required && r.ok() && !r.Has(key)) {
    r.Missing(key, "[a, b]");
    return;
  }
  if (!r.Optional(key, &words)) return;
  YamlNode list = r.Child(key);
  out->clear();
  for (size_t i = 0; i < list.size(); ++i) {
    YamlNode item = list.Item(i);
    const std::string& w = words[i];
    bool known = false;
    for (const std::string& a : allowed) known = known || a == w;
    if (known) {
      out->push_back(w);
      continue;
    }
    std::string hint = DidYouMean(ClosestMatches(w, allowed, 1));
    if (hint.empty()) hint = absl::StrCat("one of ", QuotedList(allowed));
    r.diags()->Error("unknown-value", item.Where(r.file()),
                     absl::StrCat("`", key, "` cannot contain `", w, "`"), hint);
  }
}

void ReadDate(MapReader& r, absl::string_view key, bool required, std::string* out) {
  if (!(required ? r.Required(key, out) : r.Optional(key, out))) return;
  const std::string& s = *out;
  auto digits = [&](size_t from, size_t n) {
    if (s.size() < from + n) return false;
    for (size_t i = from; i < from + n; ++i) {
      if (!absl::ascii_isdigit(s[i])) return false;
    }
    return true;
  };
  bool ok = (s.size() == 4 && digits(0, 4)) ||
            (s.size() == 7 && digits(0, 4) && s[4] == '-' && digits(5, 2)) ||
            (s.size() == 10 && digits(0, 4) && s[4] == '-' && digits(5, 2) && s[7] == '-' &&
             digits(8, 2));
  if (ok) {
    int month = s.size() >= 7 ? std::stoi(s.substr(5, 2)) : 1;
    int day = s.size() == 10 ? std::stoi(s.substr(8, 2)) : 1;
    ok = month >= 1 && month <= 12 && day >= 1 && day <= 31;
  }
  if (!ok) {
    r.diags()->Error("bad-date", r.WhereOf(key),
                     absl::StrCat("`", key, "` must be a date, got `", s, "`"),
                     "write YYYY-MM-DD, YYYY-MM or YYYY");
    out->clear();
  }
}

bool OptionalNum(MapReader& r, absl::string_view key, double* out, double min, double max) {
  double v = 0;
  if (!r.Optional(key, &v, 0, max) || v == 0) return false;
  if (v < min) {
    r.diags()->Error("out-of-range", r.WhereOf(key),
                     absl::StrCat("`", key, "` is ", v, ", below the plausible minimum ", min),
                     absl::StrCat("check the unit; write 0 or leave `", key,
                                  "` out if it is not known"));
    return false;
  }
  *out = v;
  return true;
}

bool OptionalNum(MapReader& r, absl::string_view key, int* out, int min, int max) {
  int v = 0;
  if (!r.Optional(key, &v, 0, max) || v == 0) return false;
  if (v < min) {
    r.diags()->Error("out-of-range", r.WhereOf(key),
                     absl::StrCat("`", key, "` is ", v, ", below the plausible minimum ", min),
                     absl::StrCat("write 0 or leave `", key, "` out if it is not known"));
    return false;
  }
  *out = v;
  return true;
}

void Inconsistent(MapReader& r, absl::string_view key, std::string message, std::string hint) {
  r.diags()->Error("inconsistent", r.WhereOf(key), std::move(message), std::move(hint));
}

}  // namespace fitrank::catalog_internal
