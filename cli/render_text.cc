#include "cli/render_text.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/estimator/setup.h"

namespace fitrank::cli {

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

std::string CsvNumber(double v, int decimals) {
  if (!std::isfinite(v)) return "";
  std::string s = absl::StrFormat("%.*f", decimals, v);
  // Never print "-0".
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string CsvHeader(absl::string_view display) {
  std::string s = absl::AsciiStrToLower(display);
  s = absl::StrReplaceAll(s, {{"gb/s", "gbps"}, {"/", " per "}, {"$", "usd"}});
  std::string out;
  for (char c : s) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string FormatTokS(double tok_s) {
  if (!Usable(tok_s)) return std::string(kDash);
  return absl::StrCat(FormatNumber(tok_s, tok_s < 100 ? 1 : 0), " tok/s");
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
    if (k >= 1000) return absl::StrCat(FormatNumber(k / 1024, 1), "M");
    return absl::StrCat(FormatNumber(std::floor(k), 0), "K");
  }
  return absl::StrCat(tokens);
}

std::string FormatGb(double gb) {
  if (!std::isfinite(gb)) return std::string(kDash);
  return absl::StrCat(FormatNumber(gb, std::fabs(gb) < 100 ? 1 : 0), " GB");
}

std::string FormatCapacity(double gib) {
  if (!std::isfinite(gib) || !(gib > 0)) return std::string(kDash);
  return absl::StrCat(FormatGb(gib * kGbPerGib), " (", FormatNumber(gib, gib < 10 ? 1 : 0),
                      " GiB)");
}

std::string FormatUsd(double usd) {
  if (!Usable(usd)) return std::string(kDash);
  return absl::StrCat("$", FormatNumber(usd, usd < 10 ? 2 : 0));
}

std::string FormatPct(double pct) {
  if (!std::isfinite(pct)) return std::string(kDash);
  return absl::StrCat(FormatNumber(pct, std::fabs(pct) < 1 && pct != 0 ? 1 : 0), "%");
}

std::string FormatParams(double params_b) {
  if (!Usable(params_b)) return std::string(kDash);
  if (params_b >= 1000) return absl::StrCat(FormatNumber(params_b / 1000, 1), "T");
  if (params_b >= 10) return absl::StrCat(FormatNumber(params_b, 0), "B");
  return absl::StrCat(FormatNumber(params_b, 1), "B");
}

std::string FormatFit(const std::string& kind, double offload_pct, double host_ram_gb) {
  if (kind == "native-comfortable") return "native, comfortable";
  if (kind == "native-tight") return "native, tight";
  if (kind == "offload") {
    return absl::StrCat("offload ", FormatPct(offload_pct), " (needs ~", FormatGb(host_ram_gb),
                        " host RAM)");
  }
  return "does not fit";
}

size_t DisplayWidth(absl::string_view s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0x1b) {  // skip an ANSI CSI sequence
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if ((c & 0xC0) != 0x80) ++w;
  }
  return w;
}

std::string StripAnsi(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 0x1b) {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

std::string Style::Paint(absl::string_view text, Color c) const {
  if (!color || c == Color::kNone || text.empty()) return std::string(text);
  const char* code = "";
  switch (c) {
    case Color::kBold: code = "1"; break;
    case Color::kDim: code = "2"; break;
    case Color::kRed: code = "31"; break;
    case Color::kGreen: code = "32"; break;
    case Color::kYellow: code = "33"; break;
    case Color::kCyan: code = "36"; break;
    case Color::kMagenta: code = "35"; break;
    case Color::kNone: break;
  }
  return absl::StrCat("\x1b[", code, "m", text, "\x1b[0m");
}

std::string Style::Grade(absl::string_view grade) const {
  if (grade.empty()) return std::string(kDash);
  char g = grade[0];
  Color c = g == 'A' || g == 'B' ? Color::kGreen : g == 'C' ? Color::kYellow : Color::kRed;
  return Paint(grade, c);
}

std::string Style::Fit(absl::string_view kind, absl::string_view text) const {
  Color c = kind == "native-comfortable" ? Color::kGreen
            : kind == "native-tight"     ? Color::kYellow
                                         : Color::kRed;
  return Paint(text, c);
}

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> right)
    : header_(std::move(header)), right_(std::move(right)) {
  right_.resize(header_.size(), false);
}

void TextTable::Add(std::vector<std::string> row) {
  row.resize(header_.size());
  rows_.push_back(std::move(row));
}

void TextTable::Print(std::ostream& out, absl::string_view indent) const {
  std::vector<size_t> width(header_.size(), 0);
  for (size_t c = 0; c < header_.size(); ++c) width[c] = DisplayWidth(header_[c]);
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string s(indent);
    for (size_t c = 0; c < row.size(); ++c) {
      std::string pad(width[c] - DisplayWidth(row[c]), ' ');
      bool last = c + 1 == row.size();
      if (right_[c]) {
        absl::StrAppend(&s, pad, row[c]);
      } else {
        absl::StrAppend(&s, row[c], last ? "" : pad);
      }
      if (!last) s += "  ";
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << "\n";
  };
  line(header_);
  std::vector<std::string> rule;
  for (size_t c = 0; c < header_.size(); ++c) {
    std::string r;
    for (size_t i = 0; i < width[c]; ++i) r += "─";
    rule.push_back(r);
  }
  line(rule);
  for (const auto& row : rows_) line(row);
}

void TextTable::PrintMarkdown(std::ostream& out) const {
  auto cell = [](const std::string& s) {
    std::string t = StripAnsi(s);
    std::string o;
    for (char ch : t) {
      if (ch == '|') o += "\\|";
      else o += ch;
    }
    return o;
  };
  out << "|";
  for (const auto& h : header_) out << " " << cell(h) << " |";
  out << "\n|";
  for (size_t c = 0; c < header_.size(); ++c) out << (right_[c] ? "---:|" : "---|");
  out << "\n";
  for (const auto& row : rows_) {
    out << "|";
    for (const auto& v : row) out << " " << cell(v) << " |";
    out << "\n";
  }
}

std::string CsvField(absl::string_view s) {
  if (s.find_first_of(",\"\n\r") == absl::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void TextTable::PrintCsv(std::ostream& out) const {
  auto line = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) out << ",";
      out << CsvField(StripAnsi(row[c]));
    }
    out << "\n";
  };
  line(header_);
  for (const auto& row : rows_) line(row);
}

std::string Wrap(absl::string_view text, size_t width, absl::string_view indent) {
  std::string out, line(indent);
  size_t line_w = DisplayWidth(indent), base = line_w;
  const std::string cont(base, ' ');  // continuation lines align under the first word
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    size_t w = DisplayWidth(word);
    if (line_w > base && line_w + 1 + w > width) {
      absl::StrAppend(&out, line, "\n");
      line = cont;
      line_w = base;
    }
    if (line_w > base) {
      line += ' ';
      ++line_w;
    }
    absl::StrAppend(&line, word);
    line_w += w;
  }
  if (line_w > base) absl::StrAppend(&out, line, "\n");
  return out;
}

}  // namespace fitrank::cli
