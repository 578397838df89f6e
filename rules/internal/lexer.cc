#include "rules/internal/lexer.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fitrank::rules::internal {
namespace {

constexpr double kMaxNumber = 1e15;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || IsDigit(c); }

}  // namespace

std::string TokDescription(Tok t) {
  switch (t) {
    case Tok::kEnd:
      return "the end of the expression";
    case Tok::kNumber:
      return "a number";
    case Tok::kString:
      return "a quoted string";
    case Tok::kName:
      return "a name";
    case Tok::kTrue:
      return "`true`";
    case Tok::kFalse:
      return "`false`";
    case Tok::kAnd:
      return "`and`";
    case Tok::kOr:
      return "`or`";
    case Tok::kNot:
      return "`not`";
    case Tok::kIn:
      return "`in`";
    case Tok::kLParen:
      return "`(`";
    case Tok::kRParen:
      return "`)`";
    case Tok::kLBracket:
      return "`[`";
    case Tok::kRBracket:
      return "`]`";
    case Tok::kComma:
      return "`,`";
    case Tok::kPlus:
      return "`+`";
    case Tok::kMinus:
      return "`-`";
    case Tok::kStar:
      return "`*`";
    case Tok::kSlash:
      return "`/`";
    case Tok::kEq:
      return "`==`";
    case Tok::kNe:
      return "`!=`";
    case Tok::kLt:
      return "`<`";
    case Tok::kLe:
      return "`<=`";
    case Tok::kGt:
      return "`>`";
    case Tok::kGe:
      return "`>=`";
    case Tok::kMatch:
      return "`=~`";
    case Tok::kError:
      return "an invalid token";
  }
  return "?";
}

int Utf8Length(absl::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 1;
  for (int k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

std::string Printable(absl::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size();) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    int n = Utf8Length(bytes, i);
    if (c >= 0x80 && n > 1) {
      out.append(bytes.data() + i, n);
      i += n;
      continue;
    }
    absl::StrAppend(&out, absl::StrFormat("\\x%02X", c));
    ++i;
  }
  return out;
}

int32_t LiteralOffset(absl::string_view text, int32_t begin, int32_t end, int32_t value_offset) {
  int32_t raw = begin + 1;  // after the opening quote
  int32_t value = 0;
  while (raw < end - 1 && value < value_offset) {
    if (text[raw] == '\\' && raw + 1 < end - 1) {
      char e = text[raw + 1];
      bool known = e == '\\' || e == '"' || e == '\'' || e == 'n' || e == 't';
      // A known escape is one value byte for two raw bytes; an unknown one is kept verbatim.
      raw += 2;
      value += known ? 1 : 2;
      continue;
    }
    ++raw;
    ++value;
  }
  return raw;
}

Token Lexer::Fail(int32_t offset, std::string code, std::string message, std::string hint) {
  if (!error_) error_ = ExprError{offset, std::move(code), std::move(message), std::move(hint)};
  pos_ = static_cast<int32_t>(text_.size());
  Token t;
  t.kind = Tok::kError;
  t.begin = t.end = offset;
  return t;
}

Token Lexer::Next() {
  if (error_) return Fail(error_->offset, "", "");
  const int32_t n = static_cast<int32_t>(text_.size());
  while (pos_ < n && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                      text_[pos_] == '\r')) {
    ++pos_;
  }
  Token t;
  t.begin = t.end = pos_;
  if (pos_ >= n) return t;  // kEnd
  const int32_t start = pos_;
  const char c = text_[pos_];
  const char next = pos_ + 1 < n ? text_[pos_ + 1] : '\0';
  if (IsDigit(c) || (c == '.' && IsDigit(next))) return LexNumber(start);
  if (c == '"' || c == '\'') return LexString(start);
  if (IsNameStart(c)) return LexName(start);

  auto one = [&](Tok k, int len) {
    t.kind = k;
    pos_ += len;
    t.end = pos_;
    return t;
  };
  switch (c) {
    case '(':
      return one(Tok::kLParen, 1);
    case ')':
      return one(Tok::kRParen, 1);
    case '[':
      return one(Tok::kLBracket, 1);
    case ']':
      return one(Tok::kRBracket, 1);
    case ',':
      return one(Tok::kComma, 1);
    case '+':
      return one(Tok::kPlus, 1);
    case '-':
      return one(Tok::kMinus, 1);
    case '*':
      return one(Tok::kStar, 1);
    case '/':
      return one(Tok::kSlash, 1);
    case '<':
      if (next == '=') return one(Tok::kLe, 2);
      if (next == '>') return Fail(start, "syntax", "`<>` is not an operator", "use `!=`");
      return one(Tok::kLt, 1);
    case '>':
      return next == '=' ? one(Tok::kGe, 2) : one(Tok::kGt, 1);
    case '=':
      if (next == '=') return one(Tok::kEq, 2);
      if (next == '~') return one(Tok::kMatch, 2);
      return Fail(start, "syntax", "`=` is not an operator", "use `==` to compare");
    case '!':
      if (next == '=') return one(Tok::kNe, 2);
      return Fail(start, "syntax", "`!` is not an operator", "use `not`");
    case '&':
      return Fail(start, "syntax", "`&` is not an operator", "use `and`");
    case '|':
      return Fail(start, "syntax", "`|` is not an operator", "use `or`");
    case '%':
      return Fail(start, "syntax", "`%` is not an operator",
                  "write percentages as plain numbers (15, not 15%); facts ending in _pct are "
                  "already percentages");
    default:
      break;
  }
  int len = Utf8Length(text_, pos_);
  return Fail(start, "syntax",
              absl::StrCat("unexpected character `", Printable(text_.substr(pos_, len)), "`"));
}

Token Lexer::LexNumber(int32_t start) {
  const int32_t n = static_cast<int32_t>(text_.size());
  int32_t p = start;
  while (p < n && IsDigit(text_[p])) ++p;
  if (p < n && text_[p] == '.' && p + 1 < n && IsDigit(text_[p + 1])) {
    ++p;
    while (p < n && IsDigit(text_[p])) ++p;
  }
  if (p < n && (text_[p] == 'e' || text_[p] == 'E')) {
    int32_t q = p + 1;
    if (q < n && (text_[q] == '+' || text_[q] == '-')) ++q;
    if (q < n && IsDigit(text_[q])) {
      p = q;
      while (p < n && IsDigit(text_[p])) ++p;
    }
  }
  if (p < n && (IsNameChar(text_[p]) || text_[p] == '.')) {
    int32_t q = p;
    while (q < n && (IsNameChar(text_[q]) || text_[q] == '.')) ++q;
    return Fail(start, "bad-number",
                absl::StrCat("`", Printable(text_.substr(start, q - start)),
                             "` is not a number"),
                "numbers are written like 12, 0.5 or 1e3; names cannot start with a digit");
  }
  std::string digits(text_.substr(start, p - start));
  double v = std::strtod(digits.c_str(), nullptr);  // underflow gives 0 or a tiny number
  if (!std::isfinite(v) || v > kMaxNumber) {
    return Fail(start, "bad-number", absl::StrCat("number `", Printable(digits), "` is too large"),
                "numbers in rules must be at most 1e15");
  }
  Token t;
  t.kind = Tok::kNumber;
  t.begin = start;
  t.end = p;
  t.number = v;
  pos_ = p;
  return t;
}

Token Lexer::LexString(int32_t start) {
  const int32_t n = static_cast<int32_t>(text_.size());
  const char quote = text_[start];
  std::string value;
  int32_t p = start + 1;
  while (p < n && text_[p] != quote) {
    if (text_[p] == '\\' && p + 1 < n) {
      char e = text_[p + 1];
      switch (e) {
        case '\\':
        case '"':
        case '\'':
          value += e;
          break;
        case 'n':
          value += '\n';
          break;
        case 't':
          value += '\t';
          break;
        default:  // kept verbatim, so regexes like "\d+" need no doubling
          value += '\\';
          value += e;
          break;
      }
      p += 2;
      continue;
    }
    value += text_[p++];
  }
  if (p >= n) {
    return Fail(start, "unterminated-string",
                absl::StrCat("unterminated string: no closing `", std::string(1, quote), "`"),
                absl::StrCat("end the string with ", std::string(1, quote)));
  }
  Token t;
  t.kind = Tok::kString;
  t.begin = start;
  t.end = p + 1;
  t.text = std::move(value);
  pos_ = p + 1;
  return t;
}

Token Lexer::LexName(int32_t start) {
  const int32_t n = static_cast<int32_t>(text_.size());
  int32_t p = start;
  while (true) {
    while (p < n && IsNameChar(text_[p])) ++p;
    if (p + 1 < n && text_[p] == '.' && IsNameStart(text_[p + 1])) {
      ++p;
      continue;
    }
    break;
  }
  if (p < n && text_[p] == '.') {
    return Fail(p, "syntax",
                absl::StrCat("`", Printable(text_.substr(start, p + 1 - start)),
                             "` is not a valid name"),
                "each part of a dotted name starts with a letter: `fit.headroom_pct`");
  }
  Token t;
  t.begin = start;
  t.end = p;
  pos_ = p;
  absl::string_view name = text_.substr(start, p - start);
  if (name == "and") {
    t.kind = Tok::kAnd;
  } else if (name == "or") {
    t.kind = Tok::kOr;
  } else if (name == "not") {
    t.kind = Tok::kNot;
  } else if (name == "in") {
    t.kind = Tok::kIn;
  } else if (name == "true") {
    t.kind = Tok::kTrue;
  } else if (name == "false") {
    t.kind = Tok::kFalse;
  } else {
    t.kind = Tok::kName;
    t.text = std::string(name);
  }
  return t;
}

}  // namespace fitrank::rules::internal
