#include "rules/internal/template.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fitrank::rules::internal {

bool ParseFormatSpec(absl::string_view spec, FormatSpec* out) {
  FormatSpec f;
  size_t i = 0;
  if (i < spec.size() && spec[i] == '+') {
    f.plus = true;
    ++i;
  }
  bool has_digits = false;
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    if (i >= spec.size() || spec[i] < '0' || spec[i] > '6') return false;
    f.digits = spec[i] - '0';
    has_digits = true;
    ++i;
  }
  if (i == spec.size()) {
    f.kind = has_digits ? FormatSpec::kFixed : FormatSpec::kDefault;
  } else if (i + 1 == spec.size() && spec[i] == 'f') {
    f.kind = FormatSpec::kFixed;
  } else if (i + 1 == spec.size() && spec[i] == '%') {
    f.kind = FormatSpec::kPercent;
  } else if (i + 1 == spec.size() && spec[i] == 'd' && !has_digits) {
    f.kind = FormatSpec::kInteger;
  } else {
    return false;
  }
  *out = f;
  return true;
}

std::string FormatNumber(double v, const FormatSpec& spec) {
  if (!std::isfinite(v)) return "?";
  std::string s;
  switch (spec.kind) {
    case FormatSpec::kDefault: {
      s = absl::StrFormat("%.2f", v);
      while (!s.empty() && s.back() == '0') s.pop_back();
      if (!s.empty() && s.back() == '.') s.pop_back();
      break;
    }
    case FormatSpec::kFixed:
      s = absl::StrFormat("%.*f", spec.digits, v);
      break;
    case FormatSpec::kInteger:
      s = absl::StrFormat("%.0f", v);
      break;
    case FormatSpec::kPercent:
      s = absl::StrCat(absl::StrFormat("%.*f", spec.digits, v * 100), "%");
      break;
  }
  // "-0", "-0.0": a value that rounds to zero prints without a sign.
  if (!s.empty() && s[0] == '-' && s.find_first_not_of("-0.%") == std::string::npos) {
    s.erase(0, 1);
  }
  if (spec.plus && !s.empty() && s[0] != '-') s = absl::StrCat("+", s);
  return s;
}

namespace {

// Offset of the first `c` in `s` outside quotes, or npos.
size_t FindOutsideQuotes(absl::string_view s, char c) {
  char quote = 0;
  for (size_t j = 0; j < s.size(); ++j) {
    char ch = s[j];
    if (quote) {
      if (ch == '\\') {
        ++j;
      } else if (ch == quote) {
        quote = 0;
      }
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == c) {
      return j;
    }
  }
  return absl::string_view::npos;
}

}  // namespace

bool CompileTemplate(absl::string_view text, ExprCompiler* compiler, const ParseLimits& limits,
                     CompiledTemplate* out, std::vector<ExprError>* errors) {
  const size_t errors_before = errors->size();
  auto fail = [&](size_t offset, std::string message, std::string hint) {
    errors->push_back({static_cast<int>(offset), "bad-template", std::move(message),
                       std::move(hint), false});
  };
  if (static_cast<int>(text.size()) > limits.max_bytes) {
    fail(limits.max_bytes,
         absl::StrCat("sentence is ", text.size(), " bytes long; the limit is ", limits.max_bytes),
         "");
    return false;
  }
  std::string literal;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '}') {
      if (next == '}') {
        literal += '}';
        i += 2;
        continue;
      }
      fail(i, "a `}` without its `{`", "write `}}` for a literal brace");
      ++i;
      continue;
    }
    if (c != '{') {  // a run of plain text, appended at once
      const size_t end = std::min(text.find_first_of("{}", i), text.size());
      literal.append(text.data() + i, end - i);
      i = end;
      continue;
    }
    if (next == '{') {
      literal += '{';
      i += 2;
      continue;
    }
    absl::string_view rest = text.substr(i + 1);
    size_t close = FindOutsideQuotes(rest, '}');
    size_t open = FindOutsideQuotes(rest, '{');
    if (close == absl::string_view::npos || (open != absl::string_view::npos && open < close)) {
      fail(i, "unclosed `{` in the sentence", "close it with `}`, or write `{{` for a literal brace");
      break;
    }
    absl::string_view inner = rest.substr(0, close);
    size_t colon = FindOutsideQuotes(inner, ':');
    absl::string_view expr_text = inner.substr(0, colon);
    const size_t base = i + 1;
    TemplatePiece piece;
    piece.literal = std::move(literal);
    literal.clear();
    piece.has_expr = true;
    ParseResult parsed = ParseExpression(expr_text, limits);
    if (!parsed.ok()) {
      ExprError e = *parsed.error;
      e.offset += static_cast<int>(base);
      if (e.message == "empty expression") {
        e.message = "empty placeholder `{}`";
        e.hint = "put a fact name inside, like {fit.headroom_pct:.0f}, or write `{{` for a brace";
      }
      errors->push_back(std::move(e));
    } else {
      std::vector<ExprError> expr_errors;
      piece.expr = compiler->Compile(expr_text, parsed.ast, std::nullopt, "a placeholder",
                                     /*allow_score=*/true, &expr_errors);
      for (ExprError& e : expr_errors) {
        e.offset += static_cast<int>(base);
        errors->push_back(std::move(e));
      }
    }
    if (colon != absl::string_view::npos) {
      absl::string_view spec = inner.substr(colon + 1);
      if (!ParseFormatSpec(spec, &piece.spec)) {
        fail(base + colon + 1, absl::StrCat("bad number format `", spec, "`"),
             "use .0f, .1f, d, %, .1% (a leading + prints the sign)");
      } else if (piece.expr.ok && piece.expr.type != Type::kNumber) {
        fail(base + colon + 1,
             absl::StrCat("a number format on ", TypeName(piece.expr.type), " value"),
             "formats apply to numbers only");
      }
    }
    out->pieces.push_back(std::move(piece));
    i = base + close + 1;
  }
  if (!literal.empty()) {
    TemplatePiece piece;
    piece.literal = std::move(literal);
    out->pieces.push_back(std::move(piece));
  }
  for (size_t k = errors_before; k < errors->size(); ++k) {
    if (!(*errors)[k].warning) return false;
  }
  return true;
}

namespace {

std::string RenderValue(const CompiledExpr& e, const FormatSpec& spec, const Program& program,
                        RunContext* ctx) {
  if (e.fact_index >= 0 && !ctx->facts->schema().facts()[e.fact_index].builtin &&
      !ctx->facts->IsSet(e.fact_index)) {
    return "n/a";
  }
  if (e.constant) {
    switch (e.constant->type) {
      case Type::kNumber:
        return FormatNumber(e.constant->num, spec);
      case Type::kBool:
        return e.constant->b ? "yes" : "no";
      default:
        return e.constant->str;
    }
  }
  Value v = Run(program, e.entry, ctx);
  switch (e.type) {
    case Type::kNumber:
      return FormatNumber(v.num, spec);
    case Type::kBool:
      return v.b ? "yes" : "no";
    case Type::kString:
      return std::string(v.str.view());
    case Type::kStringList: {
      std::string out;
      StringListRef l = v.list.ref();
      for (uint32_t k = 0; k < l.size; ++k) absl::StrAppend(&out, k ? ", " : "", l.at(k));
      return out;
    }
    case Type::kNumberList:
      return "";
  }
  return "";
}

}  // namespace

std::string RenderTemplate(const CompiledTemplate& t, const Program& program, RunContext* ctx) {
  std::string out;
  for (const TemplatePiece& p : t.pieces) {
    out += p.literal;
    if (p.has_expr && p.expr.ok) out += RenderValue(p.expr, p.spec, program, ctx);
  }
  return out;
}

}  // namespace fitrank::rules::internal
