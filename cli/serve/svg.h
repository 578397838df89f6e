// Charts drawn by the server as inline SVG (no script, no external file). Every label is
// escaped; values that are not finite or negative draw as empty bars labelled "—". The
// SVG carries role="img", a <title> and a <desc> listing every value, so a screen reader
// gets the numbers the picture shows.
#ifndef FITRANK_CLI_SERVE_SVG_H_
#define FITRANK_CLI_SERVE_SVG_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::cli::serve {

struct Bar {
  std::string label;       // left of the bar
  double value = 0;        // bar length, in the chart's unit
  std::string value_text;  // right of the bar ("" -> the value with one decimal)
  bool highlight = false;  // drawn in the accent colour (the chosen quant, the current setup)
};

struct RefLine {
  double value = 0;
  std::string label;  // "usable 23.3 GB"
};

// Horizontal bars, one per row, scaled to the largest value (and the reference line).
std::string BarChart(absl::string_view title, absl::string_view unit, const std::vector<Bar>& bars,
                     std::optional<RefLine> ref = std::nullopt);

// Horizontal bars grouped by category, one bar per series in each group (compare charts).
// values[s][c] is series s in category c.
std::string GroupedBarChart(absl::string_view title, absl::string_view unit,
                            const std::vector<std::string>& categories,
                            const std::vector<std::string>& series,
                            const std::vector<std::vector<double>>& values);

struct Segment {
  std::string label;  // "weights"
  double value = 0;
};

// One stacked bar (segments left to right, classes seg0, seg1, ...) against a reference line:
// the fit page's memory bar (weights, KV cache, overhead vs usable memory), with a legend.
std::string StackedBar(absl::string_view title, absl::string_view unit,
                       const std::vector<Segment>& segments, RefLine ref);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_SVG_H_
