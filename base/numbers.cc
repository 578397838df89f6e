#include "base/numbers.h"

#include <charconv>
#include <cstdlib>
#include <cmath>
#include <string>
#include <system_error>

#include "absl/strings/ascii.h"

namespace fitrank {
namespace {

// Length of the run of ASCII digits at the start of `s`.
size_t Digits(absl::string_view s) {
  size_t n = 0;
  while (n < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[n]))) ++n;
  return n;
}

// True if `text` matches the decimal grammar of numbers.h.
bool IsDecimal(absl::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const size_t whole = Digits(s);
  s.remove_prefix(whole);
  size_t frac = 0;
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    frac = Digits(s);
    s.remove_prefix(frac);
  }
  if (whole == 0 && frac == 0) return false;
  if (!s.empty() && (s[0] == 'e' || s[0] == 'E')) {
    s.remove_prefix(1);
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
    const size_t exp = Digits(s);
    if (exp == 0) return false;
    s.remove_prefix(exp);
  }
  return s.empty();
}

}  // namespace

NumberParse ParseDecimal(absl::string_view text, double* out) {
  if (!IsDecimal(text)) return NumberParse::kNotDecimal;
  // strtod (in the "C" locale fitrank never changes) after the grammar check: it tells
  // overflow (HUGE_VAL) from underflow (0 or a subnormal), which from_chars does not.
  const std::string copy(text);
  const double v = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(v)) return NumberParse::kOverflow;
  *out = v;
  return NumberParse::kOk;
}

NumberParse ParseDecimalInt(absl::string_view text, int64_t* out) {
  absl::string_view s = text;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (s.empty() || Digits(s) != s.size()) return NumberParse::kNotDecimal;
  if (text[0] == '+') text.remove_prefix(1);
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range) return NumberParse::kOverflow;
  if (ec != std::errc() || ptr != text.data() + text.size()) return NumberParse::kNotDecimal;
  *out = v;
  return NumberParse::kOk;
}

}  // namespace fitrank
