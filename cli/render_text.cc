#include "cli/render_text.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace fitrank::cli {

namespace {
bool Usable(double v) { return std::isfinite(v) && v > 0; }
}  // namespace

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

std::string FormatFit(FitKind kind, double offload_pct, double host_ram_gb) {
  switch (kind) {
    case FitKind::kNativeComfortable: return "native, comfortable";
    case FitKind::kNativeTight: return "native, tight";
    case FitKind::kOffload:
      return absl::StrCat("offload ", FormatPct(offload_pct), " (needs ~", FormatGb(host_ram_gb),
                          " host RAM)");
    case FitKind::kNoFit: break;
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

std::string Style::Fit(FitKind kind, absl::string_view text) const {
  Color c = kind == FitKind::kNativeComfortable ? Color::kGreen
            : kind == FitKind::kNativeTight     ? Color::kYellow
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

void TextTable::Print(std::ostream& out, absl::string_view indent, size_t max_width) const {
  PrintRows(out, indent, max_width, true);
}

void TextTable::PrintBody(std::ostream& out, absl::string_view indent, size_t max_width) const {
  PrintRows(out, indent, max_width, false);
}

namespace {

// `text` cut into lines of at most `width` columns at spaces (words longer than a line are
// cut). Colour codes are dropped when the text needs more than one line.
std::vector<std::string> CellLines(const std::string& text, size_t width) {
  if (DisplayWidth(text) <= width) return {text};
  std::vector<std::string> lines;
  for (absl::string_view l : absl::StrSplit(Wrap(StripAnsi(text), width, ""), '\n')) {
    if (!l.empty()) lines.emplace_back(l);
  }
  if (lines.empty()) lines.emplace_back();
  return lines;
}

// The narrowest a column may become: its longest word, but no less than 6 and no more than 16
// columns (longer words are cut).
size_t MinColumnWidth(const std::string& header, const std::vector<std::vector<std::string>>& rows,
                      size_t c) {
  size_t longest = 0;
  auto words = [&](const std::string& cell) {
    for (absl::string_view w : absl::StrSplit(StripAnsi(cell), ' ', absl::SkipEmpty())) {
      longest = std::max(longest, DisplayWidth(w));
    }
  };
  words(header);
  for (const auto& row : rows) words(row[c]);
  return std::clamp<size_t>(longest, 6, 16);
}

}  // namespace

void TextTable::PrintRows(std::ostream& out, absl::string_view indent, size_t max_width,
                          bool with_header) const {
  const size_t n = header_.size();
  if (n == 0) return;
  std::vector<size_t> width(n, 0);
  for (size_t c = 0; c < n; ++c) width[c] = with_header ? DisplayWidth(header_[c]) : 0;
  for (const auto& row : rows_) {
    for (size_t c = 0; c < n; ++c) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  auto total = [&] {
    size_t t = DisplayWidth(indent) + 2 * (n - 1);
    for (size_t w : width) t += w;
    return t;
  };
  if (max_width > 0 && total() > max_width) {
    std::vector<size_t> min_width(n);
    for (size_t c = 0; c < n; ++c) {
      min_width[c] = std::min(width[c], MinColumnWidth(with_header ? header_[c] : "", rows_, c));
    }
    // Narrow the widest column that can still give, one column at a time.
    while (total() > max_width) {
      size_t pick = n;
      for (size_t c = 0; c < n; ++c) {
        if (width[c] > min_width[c] && (pick == n || width[c] > width[pick])) pick = c;
      }
      if (pick == n) break;
      --width[pick];
    }
    if (total() > max_width) {
      // Too many columns for the terminal: one block per row.
      const std::string sub = absl::StrCat(indent, "  ");
      for (const auto& row : rows_) {
        out << indent << row[0] << "\n";
        for (size_t c = 1; c < n; ++c) {
          if (StripAnsi(row[c]).empty()) continue;
          std::string label = header_[c].empty() ? "" : absl::StrCat(header_[c], ": ");
          std::string cell = DisplayWidth(sub) + DisplayWidth(label) + DisplayWidth(row[c]) <= max_width
                                 ? row[c]
                                 : StripAnsi(row[c]);
          out << Wrap(absl::StrCat(label, cell), max_width, sub);
        }
      }
      return;
    }
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string>> cells(n);
    size_t height = 1;
    for (size_t c = 0; c < n; ++c) {
      cells[c] = CellLines(row[c], width[c]);
      height = std::max(height, cells[c].size());
    }
    for (size_t l = 0; l < height; ++l) {
      std::string s(indent);
      for (size_t c = 0; c < n; ++c) {
        const std::string& cell = l < cells[c].size() ? cells[c][l] : std::string();
        std::string pad(width[c] - std::min(width[c], DisplayWidth(cell)), ' ');
        bool last = c + 1 == n;
        if (right_[c]) {
          absl::StrAppend(&s, pad, cell);
        } else {
          absl::StrAppend(&s, cell, last ? "" : pad);
        }
        if (!last) s += "  ";
      }
      while (!s.empty() && s.back() == ' ') s.pop_back();
      out << s << "\n";
    }
  };
  if (with_header) {
    line(header_);
    std::vector<std::string> rule;
    for (size_t c = 0; c < n; ++c) {
      std::string r;
      for (size_t i = 0; i < width[c]; ++i) r += "─";
      rule.push_back(r);
    }
    line(rule);
  }
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
  const size_t room = width > base + 1 ? width - base : 1;  // columns for words on a line
  auto flush = [&] {
    absl::StrAppend(&out, line, "\n");
    line = cont;
    line_w = base;
  };
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    size_t w = DisplayWidth(word);
    if (line_w > base && line_w + 1 + w > width) flush();
    // A word longer than a line: cut it (at code point boundaries, outside colour codes).
    while (w > room) {
      size_t cols = 0, i = 0;
      while (i < word.size() && cols < room) {
        ++i;
        while (i < word.size() && (static_cast<unsigned char>(word[i]) & 0xC0) == 0x80) ++i;
        ++cols;
      }
      if (line_w > base) flush();
      absl::StrAppend(&line, word.substr(0, i));
      flush();
      word.remove_prefix(i);
      w = DisplayWidth(word);
    }
    if (word.empty()) continue;
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

size_t Style::WrapWidth() const { return width == 0 || width > 97 ? 96 : std::max<size_t>(width - 1, 20); }

}  // namespace fitrank::cli
