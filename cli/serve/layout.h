// The page shell every HTML page shares: head (viewport, stylesheet, script), header with the
// search link, main, footer. The stylesheet and script are embedded assets (/static/...);
// no CDN, nothing inline (the Content-Security-Policy forbids inline script and style).
#ifndef FITRANK_CLI_SERVE_LAYOUT_H_
#define FITRANK_CLI_SERVE_LAYOUT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::cli::serve {

// `title` is text; `main_html` markup. `bare` drops header, footer and script (the embed
// card, whose CSP allows no script).
std::string Page(absl::string_view title, absl::string_view main_html, bool bare = false);

// An error page body: a heading, what went wrong, the hint, and links to the candidates
// (text, href), all escaped.
std::string ErrorMain(absl::string_view heading, absl::string_view message, absl::string_view hint,
                      const std::vector<std::pair<std::string, std::string>>& links);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_LAYOUT_H_
