// Text helpers shared by catalog lookup, rule compilation and the CLI: name matching and
// number formatting.
#ifndef FITRANK_BASE_TEXT_H_
#define FITRANK_BASE_TEXT_H_

#include <cstddef>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace fitrank {

// The longest name or word from the user that fitrank matches against catalog names, rule
// ids or commands, in bytes. Longer input is refused before any matching (the CLI says so) or,
// in library calls, matches nothing: the fuzzy matchers cost |query| x |candidate| per
// candidate, and no real name is near this long.
inline constexpr size_t kMaxNameLength = 256;

// `s` made safe to print to a terminal: the bytes a terminal would act on are written as
// escapes ("\x1b", "\n", "\r", "\x7f"; the UTF-8 C1 controls U+0080-U+009F as
// "\u009b"). Tabs and all other bytes, including valid and invalid UTF-8, are kept.
std::string EscapeControl(absl::string_view s);

// `s` cut to at most `max_bytes` (not splitting a UTF-8 sequence), with "…" (+N bytes)
// appended when cut; for echoing user input in messages.
std::string Clip(absl::string_view s, size_t max_bytes = 80);

// Lower-cases ASCII and drops spaces, underscores and hyphens: "GeForce RTX-4090" ->
// "geforcertx4090". Dots and other characters are kept ("llama3.1").
std::string NormalizeName(absl::string_view s);

// Levenshtein distance between a and b (byte-wise).
int EditDistance(absl::string_view a, absl::string_view b);

// Up to `n` candidates closest to `query` by edit distance on normalised names, best first,
// ties in candidate order. Candidates farther than max(3, |query|/2) are left out, so an
// unrelated word gets no suggestion; a query longer than kMaxNameLength gets none.
std::vector<std::string> ClosestMatches(absl::string_view query,
                                        const std::vector<std::string>& candidates, size_t n = 3);

// "`a`, `b` or `c`" for hints; empty string for an empty list.
std::string QuotedList(const std::vector<std::string>& items, absl::string_view last_sep = " or ");

// "did you mean `x`?" / "did you mean `x`, `y` or `z`?" or "" when `matches` is empty.
std::string DidYouMean(const std::vector<std::string>& matches);

// "a" or "an" before `name` as it is spoken: "an Arc A770", "an RTX 6000", "an NVIDIA H100",
// "a GeForce RTX 4090", "a CPU". Initialisms (a first word in capitals) go by the sound of
// their first letter's name; other words by their first letter.
absl::string_view IndefiniteArticle(absl::string_view name);

// Appends `v` with `decimals` digits after the point (0-3 on the fast path; more go to
// to_chars; clamped to 0-17), byte for byte what
// std::to_chars(chars_format::fixed, decimals) writes (correctly rounded; "-0.00" for small
// negatives; "nan", "inf"), several times faster: sweeps write millions of numbers.
void AppendFixed(std::string* out, double v, int decimals);
// The same written at `p`, which has room for kMaxFixedChars; returns the end. For writers
// that format into a buffer of their own.
inline constexpr size_t kMaxFixedChars = 352;  // 309 digits of the largest double, 17 decimals
char* WriteFixed(char* p, double v, int decimals);

}  // namespace fitrank

#endif  // FITRANK_BASE_TEXT_H_
