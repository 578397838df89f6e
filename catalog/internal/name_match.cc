#include "catalog/internal/name_match.h"

#include <cctype>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"

namespace fitrank::catalog_internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return c >= 'a' && c <= 'z'; }

struct Word {
  std::string text;
  bool in_parens = false;
};

// Lower-cased words; '.' kept between digits.
std::vector<Word> SplitWords(absl::string_view s) {
  std::vector<Word> words;
  std::string cur;
  int depth = 0;
  bool cur_parens = false;
  auto flush = [&] {
    if (!cur.empty()) words.push_back({std::move(cur), cur_parens});
    cur.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = absl::ascii_tolower(static_cast<unsigned char>(s[i]));
    if (IsDigit(c) || IsAlpha(c)) {
      if (cur.empty()) cur_parens = depth > 0;
      cur += c;
      continue;
    }
    if (c == '.' && !cur.empty() && IsDigit(cur.back()) && i + 1 < s.size() && IsDigit(s[i + 1])) {
      cur += c;
      continue;
    }
    // "Command R+", "Max+": the plus stays on its token, so "r+" is a different token
    // from "r" ("r" only matches it as a prefix).
    if (c == '+' && !cur.empty()) {
      cur += c;
      continue;
    }
    flush();
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) --depth;
  }
  flush();
  return words;
}

bool IsBrandWord(const std::string& w) {
  static const absl::flat_hash_set<std::string> kWords = {
      "nvidia", "geforce", "rtx", "gtx", "quadro", "tesla", "amd",  "radeon",
      "rx",     "instinct", "intel", "arc", "apple", "meta", "google"};
  return kWords.contains(w);
}

// Words that narrow a product down without naming a different one (see the header).
bool IsQualifierWord(const std::string& w) {
  static const absl::flat_hash_set<std::string> kWords = {
      // form factors and editions
      "pcie", "sxm", "sxm2", "sxm3", "sxm4", "sxm5", "sxm6", "nvl", "oam", "hgx", "mxm", "sff",
      "generation", "edition", "workstation", "server", "core", "cores", "gpu",
      // default model variants
      "instruct", "it", "chat", "hf"};
  if (kWords.contains(w)) return true;
  // memory sizes: 12gb, 1.5tb, 16g
  size_t i = 0;
  while (i < w.size() && (IsDigit(w[i]) || w[i] == '.')) ++i;
  if (i == 0 || i == w.size()) return false;
  absl::string_view unit = absl::string_view(w).substr(i);
  return unit == "gb" || unit == "tb" || unit == "g";
}

void AppendWords(absl::string_view text, bool all_brand, NameForm* form, int* word_index) {
  std::vector<Word> words = SplitWords(text);
  for (size_t wi = 0; wi < words.size(); ++wi) {
    const std::string& w = words[wi].text;
    WordClass c = WordClass::kProduct;
    if (all_brand || IsBrandWord(w)) {
      c = WordClass::kBrand;
    } else if (words[wi].in_parens || IsQualifierWord(w)) {
      c = WordClass::kQualifier;
    } else if (wi + 1 < words.size() &&
               (words[wi + 1].text == "core" || words[wi + 1].text == "cores") &&
               IsDigit(w[0])) {
      c = WordClass::kQualifier;  // "40-core": the count before "core" qualifies as well
    }
    form->word_class.push_back(c);
    size_t start = 0;
    for (size_t i = 1; i <= w.size(); ++i) {
      bool boundary = i == w.size();
      if (!boundary) {
        bool a = IsAlpha(w[i - 1]), b = IsAlpha(w[i]);
        boundary = a != b && w[i] != '.' && w[i - 1] != '.' && w[i] != '+';
      }
      if (boundary) {
        NameToken t;
        t.text = w.substr(start, i - start);
        t.numeric = !IsAlpha(t.text[0]);
        t.word = *word_index;
        form->tokens.push_back(std::move(t));
        start = i;
      }
    }
    ++*word_index;
  }
}

}  // namespace

NameForm MakeForm(absl::string_view text, absl::string_view brand_prefix) {
  NameForm form;
  int word_index = 0;
  AppendWords(brand_prefix, /*all_brand=*/true, &form, &word_index);
  AppendWords(text, /*all_brand=*/false, &form, &word_index);
  return form;
}

std::vector<NameToken> QueryTokens(absl::string_view query) {
  return MakeForm(query).tokens;
}

std::optional<MatchScore> ScoreForm(const std::vector<NameToken>& query, const NameForm& form) {
  // Names have a handful of tokens: a bitmask of used tokens is plenty.
  if (form.tokens.size() > 64 || query.empty()) return std::nullopt;
  uint64_t used = 0;
  MatchScore score;
  for (const NameToken& q : query) {
    int exact = -1, prefix = -1;
    for (size_t i = 0; i < form.tokens.size(); ++i) {
      if (used & (uint64_t{1} << i)) continue;
      const NameToken& t = form.tokens[i];
      if (t.numeric != q.numeric) continue;
      if (t.text == q.text) {
        exact = static_cast<int>(i);
        break;
      }
      if (prefix < 0 && !q.numeric && t.text.size() > q.text.size() &&
          t.text.compare(0, q.text.size(), q.text) == 0) {
        prefix = static_cast<int>(i);
      }
    }
    int pick = exact >= 0 ? exact : prefix;
    if (pick < 0) return std::nullopt;
    if (exact < 0) ++score.inexact;
    used |= uint64_t{1} << pick;
  }
  // A word counts once if any of its tokens is unmatched.
  int last_word = -1;
  for (size_t i = 0; i < form.tokens.size(); ++i) {
    if (used & (uint64_t{1} << i)) continue;
    int w = form.tokens[i].word;
    if (w == last_word) continue;
    last_word = w;
    switch (form.word_class[w]) {
      case WordClass::kProduct: ++score.extras; break;
      case WordClass::kQualifier: ++score.qualifiers; break;
      case WordClass::kBrand: break;
    }
  }
  return score;
}

}  // namespace fitrank::catalog_internal
