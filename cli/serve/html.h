// Small HTML building blocks for the pages: every text argument is escaped here (escape.h);
// arguments named `*_html` are markup the caller built from these helpers.
#ifndef FITRANK_CLI_SERVE_HTML_H_
#define FITRANK_CLI_SERVE_HTML_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli::serve {

using Json = nlohmann::ordered_json;

// A JSON value as display text: strings as they are, numbers with at most `decimals` digits
// after the point (trailing zeros dropped), null or missing as "—". Not escaped.
std::string Text(const Json& v, int decimals = 1);
// "$1599" for a positive price; "—" for null, zero (unknown in the catalog) or negative.
std::string Money(const Json& v);
// The same, escaped for HTML.
std::string T(const Json& v, int decimals = 1);

// A capacity as sold (a GPU's or a setup's memory_gb, GiB) in the pages' unit, GB, with the
// size as sold: "25.8 GB (24 GiB)" (base/quantities.h FormatCapacity). Escaped.
std::string Capacity(const Json& gib);

// <tag class="cls">text</tag>, text escaped.
std::string Tag(absl::string_view tag, absl::string_view text, absl::string_view cls = "");

// <a href="href">text</a>; `href` is a path the server built (escaped as an attribute).
std::string Link(absl::string_view href, absl::string_view text);

// A table: headers as text, cells as markup. `caption` is text ("" none).
std::string Table(const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows_html,
                  absl::string_view caption = "");

// <section aria-labelledby=id><h2 id=id>title</h2>body</section>
std::string Section(absl::string_view id, absl::string_view title, absl::string_view body_html);

// <ul> of text items.
std::string List(const std::vector<std::string>& items, absl::string_view cls = "");

// A grade as a coloured letter badge ("A" ... "F", "—" when empty).
std::string GradeBadge(const Json& grade);

// A run command in <code> with a copy button (the button works with app.js; without JS the
// command is still selectable text).
std::string RunCommand(absl::string_view command);

// "/fit/{model}/{gpu}" with both names URL-encoded.
std::string FitPath(absl::string_view model, absl::string_view gpu);
std::string GpuPath(absl::string_view gpu);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_HTML_H_
