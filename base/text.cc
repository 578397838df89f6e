#include "base/text.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace fitrank {

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

}  // namespace fitrank
