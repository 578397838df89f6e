#include "cli/serve/query.h"

#include "absl/strings/str_cat.h"

namespace fitrank::cli::serve {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX (and '+' when `plus_is_space`) from `in`, whose first byte sits at `offset` of the
// whole input (for messages).
absl::StatusOr<std::string> Decode(absl::string_view in, size_t offset, bool plus_is_space) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      int hi = i + 1 < in.size() ? HexValue(in[i + 1]) : -1;
      int lo = i + 2 < in.size() ? HexValue(in[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return absl::InvalidArgumentError(absl::StrCat("bad percent escape `",
                                                       in.substr(i, 3), "` at byte ",
                                                       offset + i + 1));
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// Valid UTF-8 (no overlongs, no surrogates) and no control characters but tab.
bool CleanText(absl::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
      ++i;
      continue;
    }
    int len = 0;
    uint32_t cp = 0;
    if ((c & 0xe0) == 0xc0) {
      len = 2;
      cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3;
      cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    if (cp >= 0x80 && cp < 0xa0) return false;  // C1 controls
    i += len;
  }
  return true;
}

absl::Status CheckText(absl::string_view what, absl::string_view s, size_t limit) {
  if (s.size() > limit) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is ", s.size(), " bytes long; the limit is ", limit));
  }
  if (!CleanText(s)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is not UTF-8 text (control characters or malformed bytes)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<QueryParam>> ParseQuery(absl::string_view query) {
  std::vector<QueryParam> out;
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t end = query.find('&', pos);
    if (end == absl::string_view::npos) end = query.size();
    absl::string_view pair = query.substr(pos, end - pos);
    size_t start = pos;
    pos = end + 1;
    if (pair.empty()) continue;
    if (out.size() == kMaxQueryParams) {
      return absl::InvalidArgumentError(
          absl::StrCat("more than ", kMaxQueryParams, " query parameters"));
    }
    size_t eq = pair.find('=');
    absl::string_view raw_name = pair.substr(0, eq);
    absl::string_view raw_value =
        eq == absl::string_view::npos ? absl::string_view() : pair.substr(eq + 1);
    absl::StatusOr<std::string> name = Decode(raw_name, start, true);
    if (!name.ok()) return name.status();
    absl::StatusOr<std::string> value =
        Decode(raw_value, start + (eq == absl::string_view::npos ? 0 : eq + 1), true);
    if (!value.ok()) return value.status();
    if (absl::Status s = CheckText("a parameter name", *name, kMaxParamNameBytes); !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckText(absl::StrCat("parameter `", *name, "`"), *value,
                                   kMaxParamValueBytes);
        !s.ok()) {
      return s;
    }
    out.push_back({*std::move(name), *std::move(value)});
  }
  return out;
}

absl::StatusOr<std::string> DecodePathSegment(absl::string_view segment) {
  absl::StatusOr<std::string> s = Decode(segment, 0, false);
  if (!s.ok()) return s.status();
  if (absl::Status st = CheckText("the name in the path", *s, kMaxParamValueBytes); !st.ok()) {
    return st;
  }
  if (s->find('/') != std::string::npos) {
    return absl::InvalidArgumentError("a name in the path cannot contain `/`");
  }
  return s;
}

std::string UrlEncode(absl::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' ||
        u == '.' || u == '_' || u == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

std::optional<std::string> Last(const std::vector<QueryParam>& q, absl::string_view name) {
  std::optional<std::string> v;
  for (const QueryParam& p : q) {
    if (p.name == name) v = p.value;
  }
  return v;
}

std::vector<std::string> All(const std::vector<QueryParam>& q, absl::string_view name) {
  std::vector<std::string> v;
  for (const QueryParam& p : q) {
    if (p.name == name) v.push_back(p.value);
  }
  return v;
}

}  // namespace fitrank::cli::serve
