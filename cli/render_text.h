// Text helpers for the report renderers: number formats with units, colour, and a small
// aligned-column table that also prints as markdown or CSV.
//
// Every Format* function prints "—" for a value that is not finite or not meaningful (e.g. a
// decode speed of 0 for a model that does not fit), so no NaN or inf can ever reach the user.
// Colour codes are emitted only when the Style says so (stdout is a TTY and NO_COLOR unset).
#ifndef FITRANK_CLI_RENDER_TEXT_H_
#define FITRANK_CLI_RENDER_TEXT_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::cli {

inline constexpr absl::string_view kDash = "—";

// "62.3 tok/s" (<100: one decimal; >=100: none); 0 or not finite: "—".
std::string FormatTokS(double tok_s);
// "420 ms" below 10 s, "16.2 s" above; 0 or not finite: "—".
std::string FormatMs(double ms);
// "4K", "131K", "1M" (binary K = 1024 tokens, as runtimes count them); 0: "—".
std::string FormatContext(int tokens);
// "22.2 GB" (one decimal below 100, none above); not finite: "—".
std::string FormatGb(double gb);
// A capacity as sold ("24 GB" cards, Apple/APU RAM, DIMMs are GiB: 2^30 bytes) in the display
// unit, GB = 1e9 bytes, which every other figure uses, with the size as sold beside it:
// "25.8 GB (24 GiB)". Not finite or not positive: "—".
std::string FormatCapacity(double gib);
// "$1,599"; 0 or not finite: "—". Below $10 two decimals ("$2.29").
std::string FormatUsd(double usd);
// "1,008" with thousands separators, `decimals` after the point.
std::string FormatNumber(double v, int decimals = 0);
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
std::string FormatFit(const std::string& kind, double offload_pct, double host_ram_gb);

// Display width of UTF-8 text (code points; every code point counts one column).
size_t DisplayWidth(absl::string_view s);

enum class Color { kNone, kBold, kDim, kRed, kGreen, kYellow, kCyan, kMagenta };

struct Style {
  bool color = false;
  std::string Paint(absl::string_view text, Color c) const;
  // Grade letters: A/B green, C yellow, D/F red.
  std::string Grade(absl::string_view grade) const;
  // Fit kinds: native-comfortable green, native-tight yellow, offload/no-fit red.
  std::string Fit(absl::string_view kind, absl::string_view text) const;
  std::string Heading(absl::string_view text) const { return Paint(text, Color::kBold); }
};

// A table of text cells. Print() aligns columns (right-aligned where `right` is set) for the
// terminal; PrintMarkdown() and PrintCsv() give the same rows. Cells may carry colour codes
// for the terminal: widths ignore ANSI escapes. Markdown and CSV strip them.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header, std::vector<bool> right = {});
  void Add(std::vector<std::string> row);
  bool empty() const { return rows_.empty(); }
  void Print(std::ostream& out, absl::string_view indent = "  ") const;
  void PrintMarkdown(std::ostream& out) const;
  void PrintCsv(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

// Removes ANSI escape sequences.
std::string StripAnsi(absl::string_view s);
// CSV field quoting (RFC 4180).
std::string CsvField(absl::string_view s);
// Wraps `text` at `width` columns: the first line starts with `indent` (e.g. "  - "), the
// others with as many spaces.
std::string Wrap(absl::string_view text, size_t width, absl::string_view indent);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RENDER_TEXT_H_
