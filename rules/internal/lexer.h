// Tokens of the rule expression language (the grammar is in rules/parser.h).
#ifndef FITRANK_RULES_INTERNAL_LEXER_H_
#define FITRANK_RULES_INTERNAL_LEXER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "rules/ast.h"

namespace fitrank::rules::internal {

enum class Tok : uint8_t {
  kEnd,
  kNumber,
  kString,
  kName,  // identifier or dotted fact name: `min`, `fit.headroom_pct`
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIn,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kMatch,
  kError,  // Lexer::error() says why
};

// How a token is named in "expected ..." messages: "`)`", "a number", "the end".
std::string TokDescription(Tok t);

struct Token {
  Tok kind = Tok::kEnd;
  int32_t begin = 0;
  int32_t end = 0;
  double number = 0;  // kNumber
  std::string text;   // kString: unescaped value; kName: the name
};

// Splits an expression into tokens. After a kError token, error() is set and Next() keeps
// returning kError.
class Lexer {
 public:
  explicit Lexer(absl::string_view text) : text_(text) {}

  Token Next();
  const std::optional<ExprError>& error() const { return error_; }

 private:
  Token Fail(int32_t offset, std::string code, std::string message, std::string hint = "");
  Token LexNumber(int32_t start);
  Token LexString(int32_t start);
  Token LexName(int32_t start);

  absl::string_view text_;
  int32_t pos_ = 0;
  std::optional<ExprError> error_;
};

// `bytes` quoted for a message: printable ASCII and valid UTF-8 as is, other bytes as \xNN.
std::string Printable(absl::string_view bytes);

// Byte length of the UTF-8 sequence starting at text[i] (1 for an invalid byte).
int Utf8Length(absl::string_view text, size_t i);

// For a string literal token spanning [begin, end) of `text` (quotes included), the offset in
// `text` of byte `value_offset` of its unescaped value.
int32_t LiteralOffset(absl::string_view text, int32_t begin, int32_t end, int32_t value_offset);

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_LEXER_H_
