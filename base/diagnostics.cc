#include "base/diagnostics.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank {

absl::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

void Diagnostics::AddSource(std::string file, std::string content) {
  sources_[std::move(file)] = std::move(content);
}

void Diagnostics::Add(Diagnostic d) {
  if (d.severity == Severity::kError) ++errors_;
  if (d.severity == Severity::kWarning) ++warnings_;
  diags_.push_back(std::move(d));
}

void Diagnostics::Error(std::string code, Location where, std::string message, std::string hint) {
  Add({Severity::kError, std::move(code), std::move(message), std::move(where), std::move(hint)});
}

void Diagnostics::Warning(std::string code, Location where, std::string message,
                          std::string hint) {
  Add({Severity::kWarning, std::move(code), std::move(message), std::move(where),
       std::move(hint)});
}

void Diagnostics::Merge(const Diagnostics& other) {
  for (const auto& [file, content] : other.sources_) sources_[file] = content;
  for (const Diagnostic& d : other.diags_) Add(d);
}

namespace {

// Returns line `line` (1-based) of `text`, without its newline; empty if out of range.
absl::string_view LineOf(absl::string_view text, int line) {
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    size_t nl = text.find('\n', start);
    if (nl == absl::string_view::npos) return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  if (end == absl::string_view::npos) end = text.size();
  absl::string_view s = text.substr(start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

// The longest source line shown under a diagnostic, in bytes; a longer one is shown as a
// window around the column ("…" marks the cut ends).
constexpr int kMaxShownLine = 1000;

std::string Diagnostics::Render(const Diagnostic& d) const {
  std::string out;
  const Location& w = d.where;
  if (!w.file.empty()) {
    absl::StrAppend(&out, EscapeControl(w.file));
    if (w.line > 0) absl::StrAppend(&out, ":", w.line);
    if (w.line > 0 && w.col > 0) absl::StrAppend(&out, ":", w.col);
    absl::StrAppend(&out, ": ");
  }
  // Messages and hints quote user content: nothing in them reaches the terminal raw.
  absl::StrAppend(&out, SeverityName(d.severity), ": ", EscapeControl(d.message));
  if (!d.code.empty()) absl::StrAppend(&out, " [", d.code, "]");
  out += '\n';
  auto it = sources_.find(w.file);
  if (it != sources_.end() && w.line > 0) {
    absl::string_view line = LineOf(it->second, w.line);
    if (!line.empty()) {
      int col = w.col > 0 ? w.col : 1;
      std::string prefix, suffix;
      if (static_cast<int>(line.size()) > kMaxShownLine) {
        const int start = std::max(0, std::min(col - 1 - kMaxShownLine / 2,
                                               static_cast<int>(line.size()) - kMaxShownLine));
        if (start > 0) prefix = "…";
        if (start + kMaxShownLine < static_cast<int>(line.size())) suffix = "…";
        line = line.substr(start, kMaxShownLine);
        col -= start;
      }
      absl::StrAppend(&out, "  ", prefix, EscapeControl(line), suffix, "\n  ");
      if (!prefix.empty()) out += ' ';  // "…" is one column wide
      // Tabs in the source keep their width under the caret; escaped bytes take the width of
      // their escape.
      for (int i = 1; i < col && i - 1 < static_cast<int>(line.size()); ++i) {
        const char c = line[i - 1];
        if (c == '\t') {
          out += '\t';
        } else {
          out.append(EscapeControl(absl::string_view(&c, 1)).size(), ' ');
        }
      }
      out += "^\n";
    }
  }
  if (!d.hint.empty()) absl::StrAppend(&out, "  hint: ", EscapeControl(d.hint), "\n");
  return out;
}

std::string Diagnostics::Render() const {
  std::string out;
  for (const Diagnostic& d : diags_) out += Render(d);
  return out;
}

}  // namespace fitrank
