// Text helpers for the report renderers: number formats with units, colour, and a small
// aligned-column table that also prints as markdown or CSV.
//
// Every Format* function prints "—" for a value that is not finite or not meaningful (e.g. a
// decode speed of 0 for a model that does not fit), so no NaN or inf can ever reach the user.
// Colour codes are emitted only when the Style says so (stdout is a TTY and NO_COLOR unset).
#ifndef FITRANK_CLI_RENDER_TEXT_H_
#define FITRANK_CLI_RENDER_TEXT_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/estimator/estimator.h"
#include "base/quantities.h"

namespace fitrank::cli {

// The quantity formatters (base/quantities.h), shared with the engine's sentences.
using ::fitrank::FormatContext;
using ::fitrank::FormatGb;
using ::fitrank::FormatMs;
using ::fitrank::FormatNumber;
using ::fitrank::FormatSeconds;
using ::fitrank::kDash;

// "62.3 tok/s" (<100: one decimal; >=100: none); 0 or not finite: "—".
std::string FormatTokS(double tok_s);
// "$1,599"; 0 or not finite: "—". Below $10 two decimals ("$2.29").
std::string FormatUsd(double usd);
// A number for CSV cells: plain digits with `decimals` places, no thousands separator and no
// unit ("1455", "23.3"); "" when not finite. Every CSV writer uses it (RFC 4180 cells that
// parse as numbers).
std::string CsvNumber(double v, int decimals = 0);
// A display header as a CSV header: snake_case with the unit in the name ("Memory GB" ->
// "memory_gb", "Bandwidth GB/s" -> "bandwidth_gbps", "Cloud USD/h" -> "cloud_usd_per_h").
std::string CsvHeader(absl::string_view display);
// "10%" ; below 1 one decimal ("0.4%").
std::string FormatPct(double pct);
// "8B", "30.5B", "1.6T"
std::string FormatParams(double params_b);
// Human label of a fit kind: "native, comfortable", "native, tight", "offload 10%
// (needs ~22.2 GB host RAM)", "does not fit".
std::string FormatFit(FitKind kind, double offload_pct, double host_ram_gb);

// Display width of UTF-8 text (code points; every code point counts one column).
size_t DisplayWidth(absl::string_view s);

enum class Color { kNone, kBold, kDim, kRed, kGreen, kYellow, kCyan, kMagenta };

struct Style {
  bool color = false;
  // The terminal's width in columns (COLUMNS, else the terminal's own; cli/terminal_width.h);
  // 0: no limit (output to a file or a pipe). Tables and wrapped text fit within it.
  size_t width = 0;
  // Where prose wraps: 96 columns, or one less than a narrower terminal.
  size_t WrapWidth() const;
  std::string Paint(absl::string_view text, Color c) const;
  // Grade letters: A/B green, C yellow, D/F red.
  std::string Grade(absl::string_view grade) const;
  // Fit kinds: native-comfortable green, native-tight yellow, offload/no-fit red.
  std::string Fit(FitKind kind, absl::string_view text) const;
  std::string Heading(absl::string_view text) const { return Paint(text, Color::kBold); }
};

// A table of text cells. Print() aligns columns (right-aligned where `right` is set) for the
// terminal; PrintMarkdown() and PrintCsv() give the same rows. Cells may carry colour codes
// for the terminal: widths ignore ANSI escapes. Markdown and CSV strip them.
//
// Print() with `max_width` > 0 keeps every line within that many columns: it first narrows
// the widest columns, wrapping their cells over several lines (a wrapped cell loses its
// colour), and when the columns cannot all fit even so, it stacks them: each row becomes a
// block, its first cell on a line and every other cell below as "Header: value".
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header, std::vector<bool> right = {});
  void Add(std::vector<std::string> row);
  bool empty() const { return rows_.empty(); }
  void Print(std::ostream& out, absl::string_view indent = "  ", size_t max_width = 0) const;
  // Rows without the header and its rule (a two-column list of facts).
  void PrintBody(std::ostream& out, absl::string_view indent = "  ", size_t max_width = 0) const;
  void PrintMarkdown(std::ostream& out) const;
  void PrintCsv(std::ostream& out) const;

 private:
  void PrintRows(std::ostream& out, absl::string_view indent, size_t max_width,
                 bool with_header) const;
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

// Removes ANSI escape sequences.
std::string StripAnsi(absl::string_view s);
// CSV field quoting (RFC 4180).
std::string CsvField(absl::string_view s);
// Wraps `text` at `width` columns: the first line starts with `indent` (e.g. "  - "), the
// others with as many spaces. A word longer than a line is cut across lines.
std::string Wrap(absl::string_view text, size_t width, absl::string_view indent);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RENDER_TEXT_H_
