#include "base/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace fitrank {

std::string EscapeControl(absl::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      const unsigned char c1 = static_cast<unsigned char>(s[++i]);
      out += "\\u00";
      out += kHex[c1 >> 4];
      out += kHex[c1 & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string Clip(absl::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  size_t cut = max_bytes;
  // Back up to the start of a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
  return absl::StrCat(s.substr(0, cut), "… (+", s.size() - cut, " bytes)");
}

std::string NormalizeName(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == ' ' || c == '_' || c == '-' || c == '\t') continue;
    out += absl::ascii_tolower(static_cast<unsigned char>(c));
  }
  return out;
}

int EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> ClosestMatches(absl::string_view query,
                                        const std::vector<std::string>& candidates, size_t n) {
  if (query.size() > kMaxNameLength) return {};
  const std::string q = NormalizeName(query);
  const int limit = std::max<int>(3, static_cast<int>(q.size()) / 2);
  std::vector<std::pair<int, size_t>> scored;
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::string c = NormalizeName(candidates[i]);
    int d = EditDistance(q, c);
    // A query that is a prefix/substring of a long name is a good match even if far in edits.
    if (!q.empty() && c.find(q) != std::string::npos) d = std::min<int>(d, 1);
    if (d <= limit) scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, i] : scored) {
    if (out.size() == n) break;
    if (std::find(out.begin(), out.end(), candidates[i]) == out.end()) out.push_back(candidates[i]);
  }
  return out;
}

std::string QuotedList(const std::vector<std::string>& items, absl::string_view last_sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? std::string(last_sep) : ", ";
    absl::StrAppend(&out, "`", items[i], "`");
  }
  return out;
}

std::string DidYouMean(const std::vector<std::string>& matches) {
  if (matches.empty()) return "";
  return absl::StrCat("did you mean ", QuotedList(matches), "?");
}

namespace {

// "00" "01" ... "99": two digits per division.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the last two digits of *n before p and divides *n by 100.
inline char* PutPair(char* p, uint64_t* n) {
  const uint64_t r = *n % 100;
  *n /= 100;
  p -= 2;
  std::memcpy(p, kDigitPairs + 2 * r, 2);
  return p;
}

// Digits of n (n < 1e10).
inline int DigitCount(uint64_t n) {
  int digits = 1;
  for (uint64_t x = 10; digits < 10 && n >= x; x *= 10) ++digits;
  return digits;
}

}  // namespace

char* WriteFixed(char* p, double v, int decimals) {
  static constexpr double kScale[] = {1, 10, 100, 1000};
  decimals = std::clamp(decimals, 0, 17);
  const double scaled = std::fabs(v) * kScale[std::min(decimals, 3)];
  // Below 1e9 the product is within 2e-7 of |v| x 10^d, so rounding it half up gives the
  // correctly rounded digits unless it lies within 1e-6 of a tie: ties, huge numbers, NaN,
  // infinities and more than 3 decimals go to to_chars. (There the product is not negative,
  // so its truncation is its floor.)
  if (decimals > 3 || !(scaled < 1e9) ||
      std::fabs(scaled - static_cast<double>(static_cast<uint64_t>(scaled)) - 0.5) < 1e-6) {
    return std::to_chars(p, p + kMaxFixedChars, v, std::chars_format::fixed, decimals).ptr;
  }
  uint64_t n = static_cast<uint64_t>(scaled + 0.5);
  // The length first, then the digits from the last one back: written in place.
  const bool negative = std::signbit(v);
  const int digits = std::max(DigitCount(n), decimals + 1);  // at least "0." before decimals
  char* const end = p + negative + digits + (decimals > 0 ? 1 : 0);
  char* q = end;
  int d = decimals;
  for (; d >= 2; d -= 2) q = PutPair(q, &n);
  if (d == 1) {
    *--q = static_cast<char>('0' + n % 10);
    n /= 10;
  }
  if (decimals > 0) *--q = '.';
  while (n >= 100) q = PutPair(q, &n);
  if (n >= 10) {
    q = PutPair(q, &n);
  } else {
    *--q = static_cast<char>('0' + n);
  }
  if (negative) *--q = '-';
  return end;
}

void AppendFixed(std::string* out, double v, int decimals) {
  char buf[kMaxFixedChars];
  out->append(buf, WriteFixed(buf, v, decimals));
}

absl::string_view IndefiniteArticle(absl::string_view name) {
  absl::string_view word = name.substr(0, name.find(' '));
  if (word.empty()) return "a";
  bool initialism = word.size() >= 2;
  for (char c : word) {
    initialism &= absl::ascii_isupper(static_cast<unsigned char>(c)) ||
                  absl::ascii_isdigit(static_cast<unsigned char>(c));
  }
  const char first = absl::ascii_toupper(static_cast<unsigned char>(word[0]));
  // Letters whose names start with a vowel sound: "eff", "aitch", "em", "ar", "ex"...
  const absl::string_view vowel_sounds = initialism ? "AEFHILMNORSX" : "AEIOU";
  return vowel_sounds.find(first) != absl::string_view::npos ? "an" : "a";
}

}  // namespace fitrank
