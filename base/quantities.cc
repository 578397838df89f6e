#include "base/quantities.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fitrank {

namespace {
bool Usable(double v) { return std::isfinite(v) && v > 0; }
}  // namespace

std::string FormatNumber(double v, int decimals) {
  if (!std::isfinite(v)) return std::string(kDash);
  std::string s = absl::StrFormat("%.*f", decimals, std::fabs(v));
  size_t dot = s.find('.');
  size_t int_end = dot == std::string::npos ? s.size() : dot;
  std::string out;
  for (size_t i = 0; i < int_end; ++i) {
    if (i > 0 && (int_end - i) % 3 == 0) out += ',';
    out += s[i];
  }
  out += s.substr(int_end);
  // Never print "-0".
  bool negative = v < 0 && out.find_first_not_of("0.,") != std::string::npos;
  return negative ? "-" + out : out;
}

std::string FormatMs(double ms) {
  if (!Usable(ms)) return std::string(kDash);
  if (ms < 10000) return absl::StrCat(FormatNumber(ms, 0), " ms");
  return absl::StrCat(FormatNumber(ms / 1000, ms < 100000 ? 1 : 0), " s");
}

std::string FormatContext(int tokens) {
  if (tokens <= 0) return std::string(kDash);
  if (tokens >= 1024 * 1024 && tokens % (1024 * 1024) == 0) {
    return absl::StrCat(tokens / (1024 * 1024), "M");
  }
  if (tokens >= 1024) {
    double k = tokens / 1024.0;
    if (k >= 999.5) return absl::StrCat(FormatNumber(k / 1024, 1), "M");
    // "%.0f", as the rules' sentences print {..._context_k:.0f}: one figure on the whole page.
    return absl::StrCat(absl::StrFormat("%.0f", k), "K");
  }
  return absl::StrCat(tokens);
}

std::string FormatSeconds(double seconds) {
  if (!Usable(seconds)) return std::string(kDash);
  if (seconds < 1) return FormatMs(seconds * 1000);
  if (seconds >= 600) return absl::StrCat(FormatNumber(seconds / 60, 0), " min");
  return absl::StrCat(FormatNumber(seconds, seconds < 100 ? 1 : 0), " s");
}

std::string FormatGb(double gb) {
  if (!std::isfinite(gb)) return std::string(kDash);
  return absl::StrCat(FormatNumber(gb, std::fabs(gb) < 100 ? 1 : 0), " GB");
}

std::string FormatGib(double gib) {
  if (!std::isfinite(gib)) return std::string(kDash);
  return absl::StrCat(FormatNumber(gib, std::fabs(gib) < 100 ? 1 : 0), " GiB");
}

std::string FormatCapacity(double gib) {
  if (!std::isfinite(gib) || !(gib > 0)) return std::string(kDash);
  return absl::StrCat(FormatGb(gib * kGbPerGib), " (", FormatNumber(gib, gib < 10 ? 1 : 0),
                      " GiB)");
}

std::string FormatFactor(double factor) {
  if (!std::isfinite(factor)) return std::string(kDash);
  return absl::StrFormat("%.2g", factor);
}

}  // namespace fitrank
