#include <cstdint>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/numbers.h"
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

namespace {

// Days in `month` (1-12) of `year`, Gregorian.
int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Checks `s` as YYYY, YYYY-MM or YYYY-MM-DD with a real month and day. Returns "" when it is a
// date, else why not (the hint of the diagnostic).
std::string DateProblem(absl::string_view s) {
  const std::string kForm = "write YYYY-MM-DD, YYYY-MM or YYYY";
  std::vector<absl::string_view> parts = absl::StrSplit(s, '-');
  static constexpr size_t kWidth[3] = {4, 2, 2};
  if (parts.size() > 3) return kForm;
  int64_t value[3] = {0, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i) {
    // Digits only: ParseDecimalInt alone would take a sign ("+1" has the right width).
    const bool digits = absl::c_all_of(parts[i], [](char c) { return absl::ascii_isdigit(c); });
    if (parts[i].size() != kWidth[i] || !digits ||
        ParseDecimalInt(parts[i], &value[i]) != NumberParse::kOk) {
      return kForm;
    }
  }
  if (value[1] < 1 || value[1] > 12) {
    return absl::StrCat("the month is ", value[1], ", not 1-12; ", kForm);
  }
  const int days = DaysInMonth(value[0], value[1]);
  if (value[2] < 1 || value[2] > days) {
    return absl::StrCat("the day is ", value[2], ", but month ", value[1], " of ", value[0],
                        " has ", days, " days; ", kForm);
  }
  return "";
}

}  // namespace

void ReadDate(MapReader& r, absl::string_view key, bool required, std::string* out) {
  if (!(required ? r.Required(key, out) : r.Optional(key, out))) return;
  const std::string problem = DateProblem(*out);
  if (!problem.empty()) {
    r.diags()->Error("bad-date", r.WhereOf(key),
                     absl::StrCat("`", key, "` must be a date, got `", *out, "`"), problem);
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
