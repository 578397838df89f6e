// Forgiving name matching for catalog lookup: tokenising names and scoring how well a query
// fits one written form of an entry (its name, id, an alias, or "vendor name").
//
// Tokens. A name is lower-cased and cut into words at anything that is not a letter or a
// digit (a '.' between two digits stays: "3.1", "2.5"). Each word is then cut where letters
// meet digits: "rtx4090" -> rtx 4090, "128gb" -> 128 gb, "a3b" -> a 3 b, "sxm5" -> sxm 5.
//
// Matching. A form matches a query if every query token matches a distinct token of the
// form, in any order: a number only equals the same number ("3" never matches "3.1" or
// "30"); a run of letters equals, or is a prefix of, a run of letters ("gef" -> "geforce").
//
// Score (smaller is better), compared in this order:
//   1. inexact: how many query tokens matched only as a prefix;
//   2. extras: words of the form that the query left (partly) unmatched and that change the
//      product ("ti", "super", "xt", "distill", "coder", "4090d"'s "d" ...);
//   3. qualifiers: unmatched words that only narrow the product down: memory sizes ("12gb"),
//      form factors ("pcie", "sxm5", "nvl"), core counts ("40-core gpu"), words in
//      parentheses, and the default-variant words of models ("instruct", "it", "chat"). These
//      never make one candidate beat another except in one case, decided by the caller: when
//      the query names the product with no extras, a candidate that needs no qualifier at all
//      beats ones that do ("h200" -> H200 rather than H200 NVL), while "3060" stays ambiguous
//      between 3060 8GB and 3060 12GB.
// Brand words ("nvidia", "geforce", "rtx", "radeon", "instinct", "apple", and the vendor or
// org put in front of a name) cost nothing at all when left unmatched.
#ifndef FITRANK_CATALOG_INTERNAL_NAME_MATCH_H_
#define FITRANK_CATALOG_INTERNAL_NAME_MATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::catalog_internal {

struct NameToken {
  std::string text;
  bool numeric = false;   // digits (and a '.' between digits)
  int word = 0;           // index of the word it came from
};

// One written form of a name, tokenised.
enum class WordClass : uint8_t { kProduct, kQualifier, kBrand };

struct NameForm {
  std::vector<NameToken> tokens;
  std::vector<WordClass> word_class;  // per word
};

// Tokenises `text`. Words of `brand_prefix` (a vendor or org name put in front of the
// entry's name) are all brand words.
NameForm MakeForm(absl::string_view text, absl::string_view brand_prefix = "");

// The tokens of a query (word classes unused).
std::vector<NameToken> QueryTokens(absl::string_view query);

struct MatchScore {
  int inexact = 0;
  int extras = 0;
  int qualifiers = 0;
  // Orders by (inexact, extras); qualifiers break no ties here (see the file comment).
  bool operator<(const MatchScore& o) const {
    if (inexact != o.inexact) return inexact < o.inexact;
    return extras < o.extras;
  }
  bool operator==(const MatchScore& o) const {
    return inexact == o.inexact && extras == o.extras;
  }
};

// How well `query` fits `form`, or nullopt if some query token matches nothing.
std::optional<MatchScore> ScoreForm(const std::vector<NameToken>& query, const NameForm& form);

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_NAME_MATCH_H_
