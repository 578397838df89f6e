// Strict decimal numbers for everything a user writes: command-line values, YAML scalars,
// calibration cells. Only plain decimal notation is a number:
//
//   number = [ "+" | "-" ] ( digits [ "." [ digits ] ] | "." digits ) [ ( "e" | "E" ) [ "+" | "-" ] digits ]
//
// No hex ("0x10", "0x1p3"), no "inf"/"nan", no surrounding spaces, no digit separators.
// A value too large for a double ("1e309") is not a number: callers report it as out of range.
//
// Thread safety: pure functions.
#ifndef FITRANK_BASE_NUMBERS_H_
#define FITRANK_BASE_NUMBERS_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace fitrank {

enum class NumberParse {
  kOk,
  kNotDecimal,  // not the grammar above (hex, words, empty, spaces)
  kOverflow,    // decimal, but beyond a double's range (|x| > 1.8e308) or the integer's
};

// Parses `text` as a decimal number into `*out` (finite). Underflow reads as 0.
NumberParse ParseDecimal(absl::string_view text, double* out);

// Parses `text` as a decimal whole number ([+-]digits, no point, no exponent) into `*out`.
NumberParse ParseDecimalInt(absl::string_view text, int64_t* out);

}  // namespace fitrank

#endif  // FITRANK_BASE_NUMBERS_H_
