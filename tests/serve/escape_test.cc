// Escaping for HTML, attributes and SVG, and the SVG charts' use of it.
#include "cli/serve/escape.h"

#include <cmath>

#include "cli/serve/svg.h"
#include "gtest/gtest.h"

namespace fitrank::cli::serve {
namespace {

TEST(Escape, Html) {
  EXPECT_EQ(Html("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(Html("RTX 4090 — 24 GB"), "RTX 4090 — 24 GB");
}

TEST(Svg, LabelsAreEscapedAndBadValuesDrawEmpty) {
  std::string svg = BarChart("t<", "tok/s", {{"<b>", NAN, "", false}, {"ok", 10, "", true}});
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("<title>t&lt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">—</text>"), std::string::npos);  // the NaN bar's value
  EXPECT_NE(svg.find("class=\"bar hi\""), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  // The description lists every value for screen readers.
  EXPECT_NE(svg.find("<desc>&lt;b&gt;: — tok/s; ok: 10.0 tok/s</desc>"), std::string::npos);
}

TEST(Svg, StackedBarMarksTheReference) {
  std::string svg = StackedBar("Memory", "GB", {{"weights", 8.6}, {"KV cache", 1.1}},
                               {23.3, "usable 23.3 GB"});
  EXPECT_NE(svg.find("class=\"ref\""), std::string::npos);
  EXPECT_NE(svg.find("usable 23.3 GB"), std::string::npos);
  EXPECT_NE(svg.find("total 9.7 GB"), std::string::npos);
}

}  // namespace
}  // namespace fitrank::cli::serve
