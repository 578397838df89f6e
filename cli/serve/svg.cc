#include "cli/serve/svg.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/serve/escape.h"

namespace fitrank::cli::serve {

namespace {

constexpr int kWidth = 640;
constexpr int kLabelWidth = 170;
constexpr int kValueWidth = 90;
constexpr int kRow = 26;
constexpr int kBar = 18;
constexpr int kTop = 8;

bool Drawable(double v) { return std::isfinite(v) && v >= 0; }

std::string Fixed(double v, int decimals) {
  std::string s;
  AppendFixed(&s, v, decimals);
  return s;
}

std::string ValueText(double v, absl::string_view text) {
  if (!text.empty()) return std::string(text);
  return Drawable(v) ? Fixed(v, 1) : "—";
}

std::string Open(absl::string_view title, int height, absl::string_view desc) {
  return absl::StrCat("<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "viewBox=\"0 0 ", kWidth, " ", height,
                      "\" role=\"img\" preserveAspectRatio=\"xMinYMin meet\"><title>", Html(title),
                      "</title><desc>", Html(desc), "</desc>");
}

std::string Label(int y, absl::string_view text) {
  return absl::StrCat("<text x=\"", kLabelWidth - 8, "\" y=\"", y + kBar - 5,
                      "\" text-anchor=\"end\" class=\"lbl\">", Html(text), "</text>");
}

}  // namespace

std::string BarChart(absl::string_view title, absl::string_view unit, const std::vector<Bar>& bars,
                     std::optional<RefLine> ref) {
  double max = 0;
  for (const Bar& b : bars) {
    if (Drawable(b.value)) max = std::max(max, b.value);
  }
  if (ref && Drawable(ref->value)) max = std::max(max, ref->value);
  if (max <= 0) max = 1;
  const int plot = kWidth - kLabelWidth - kValueWidth;
  const int height = kTop * 2 + kRow * static_cast<int>(bars.size()) + (ref ? 18 : 0);
  std::string desc;
  for (const Bar& b : bars) {
    absl::StrAppend(&desc, desc.empty() ? "" : "; ", b.label, ": ", ValueText(b.value, b.value_text),
                    " ", unit);
  }
  if (ref) absl::StrAppend(&desc, "; ", ref->label);
  std::string out = Open(title, height, desc);
  int y = kTop;
  for (const Bar& b : bars) {
    out += Label(y, b.label);
    double w = Drawable(b.value) ? b.value / max * plot : 0;
    absl::StrAppend(&out, "<rect x=\"", kLabelWidth, "\" y=\"", y, "\" width=\"", Fixed(w, 1),
                    "\" height=\"", kBar, "\" rx=\"3\" class=\"", b.highlight ? "bar hi" : "bar",
                    "\"/>");
    absl::StrAppend(&out, "<text x=\"", Fixed(kLabelWidth + w + 6, 1), "\" y=\"", y + kBar - 5,
                    "\" class=\"val\">", Html(ValueText(b.value, b.value_text)), "</text>");
    y += kRow;
  }
  if (ref && Drawable(ref->value)) {
    double x = kLabelWidth + ref->value / max * plot;
    absl::StrAppend(&out, "<line x1=\"", Fixed(x, 1), "\" y1=\"", kTop - 4, "\" x2=\"",
                    Fixed(x, 1), "\" y2=\"", y, "\" class=\"ref\"/>");
    absl::StrAppend(&out, "<text x=\"", Fixed(std::min(x, kWidth - 150.0), 1), "\" y=\"", y + 14,
                    "\" class=\"reflbl\">", Html(ref->label), "</text>");
  }
  return out + "</svg><figcaption>" + Html(title) + "</figcaption></figure>";
}

std::string GroupedBarChart(absl::string_view title, absl::string_view unit,
                            const std::vector<std::string>& categories,
                            const std::vector<std::string>& series,
                            const std::vector<std::vector<double>>& values) {
  double max = 0;
  for (const auto& s : values) {
    for (double v : s) {
      if (Drawable(v)) max = std::max(max, v);
    }
  }
  if (max <= 0) max = 1;
  const int plot = kWidth - kLabelWidth - kValueWidth;
  const int sub = 14;
  const int group = static_cast<int>(series.size()) * sub + 10;
  const int legend = 22;
  const int height = legend + kTop + group * static_cast<int>(categories.size());
  std::string desc;
  for (size_t c = 0; c < categories.size(); ++c) {
    for (size_t s = 0; s < series.size(); ++s) {
      double v = s < values.size() && c < values[s].size() ? values[s][c] : NAN;
      absl::StrAppend(&desc, desc.empty() ? "" : "; ", categories[c], " on ", series[s], ": ",
                      ValueText(v, ""), " ", unit);
    }
  }
  std::string out = Open(title, height, desc);
  int x = kLabelWidth;
  for (size_t s = 0; s < series.size(); ++s) {
    absl::StrAppend(&out, "<rect x=\"", x, "\" y=\"4\" width=\"12\" height=\"12\" class=\"s", s % 4,
                    "\"/><text x=\"", x + 16, "\" y=\"14\" class=\"lbl\">", Html(series[s]),
                    "</text>");
    x += 16 + 8 * static_cast<int>(std::min<size_t>(series[s].size(), 24)) + 14;
  }
  int y = legend + kTop;
  for (size_t c = 0; c < categories.size(); ++c) {
    absl::StrAppend(&out, "<text x=\"", kLabelWidth - 8, "\" y=\"", y + group / 2,
                    "\" text-anchor=\"end\" class=\"lbl\">", Html(categories[c]), "</text>");
    for (size_t s = 0; s < series.size(); ++s) {
      double v = s < values.size() && c < values[s].size() ? values[s][c] : NAN;
      double w = Drawable(v) ? v / max * plot : 0;
      int yy = y + static_cast<int>(s) * sub;
      absl::StrAppend(&out, "<rect x=\"", kLabelWidth, "\" y=\"", yy, "\" width=\"", Fixed(w, 1),
                      "\" height=\"", sub - 3, "\" class=\"s", s % 4, "\"/>");
      absl::StrAppend(&out, "<text x=\"", Fixed(kLabelWidth + w + 4, 1), "\" y=\"", yy + sub - 4,
                      "\" class=\"val small\">", Html(ValueText(v, "")), "</text>");
    }
    y += group;
  }
  return out + "</svg><figcaption>" + Html(title) + "</figcaption></figure>";
}

std::string StackedBar(absl::string_view title, absl::string_view unit,
                       const std::vector<Segment>& segments, RefLine ref) {
  double total = 0;
  for (const Segment& s : segments) {
    if (Drawable(s.value)) total += s.value;
  }
  double max = std::max(total, Drawable(ref.value) ? ref.value : 0.0);
  if (max <= 0) max = 1;
  const int left = 10, plot = kWidth - 20, bar_y = 26, bar_h = 30;
  std::string desc;
  for (const Segment& s : segments) {
    absl::StrAppend(&desc, desc.empty() ? "" : "; ", s.label, " ", ValueText(s.value, ""), " ",
                    unit);
  }
  absl::StrAppend(&desc, "; total ", Fixed(total, 1), " ", unit, "; ", ref.label);
  std::string out = Open(title, 100, desc);
  double x = left;
  int i = 0;
  for (const Segment& s : segments) {
    double w = Drawable(s.value) ? s.value / max * plot : 0;
    absl::StrAppend(&out, "<rect x=\"", Fixed(x, 1), "\" y=\"", bar_y, "\" width=\"", Fixed(w, 1),
                    "\" height=\"", bar_h, "\" class=\"seg", i % 4, "\"/>");
    x += w;
    ++i;
  }
  if (Drawable(ref.value)) {
    double rx = left + ref.value / max * plot;
    absl::StrAppend(&out, "<line x1=\"", Fixed(rx, 1), "\" y1=\"", bar_y - 8, "\" x2=\"",
                    Fixed(rx, 1), "\" y2=\"", bar_y + bar_h + 8, "\" class=\"ref\"/>");
    absl::StrAppend(&out, "<text x=\"", Fixed(std::min(std::max(rx - 60, 10.0), kWidth - 160.0), 1),
                    "\" y=\"14\" class=\"reflbl\">", Html(ref.label), "</text>");
  }
  int lx = left;
  i = 0;
  for (const Segment& s : segments) {
    std::string text = absl::StrCat(s.label, " ", ValueText(s.value, ""), " ", unit);
    absl::StrAppend(&out, "<rect x=\"", lx, "\" y=\"76\" width=\"12\" height=\"12\" class=\"seg",
                    i % 4, "\"/><text x=\"", lx + 16, "\" y=\"86\" class=\"lbl\">", Html(text),
                    "</text>");
    lx += 16 + 7 * static_cast<int>(text.size()) + 16;
    ++i;
  }
  return out + "</svg><figcaption>" + Html(title) + "</figcaption></figure>";
}

}  // namespace fitrank::cli::serve
