#include "cli/serve/layout.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/serve/escape.h"
#include "cli/serve/query.h"

namespace fitrank::cli::serve {

std::string Page(absl::string_view title, absl::string_view main_html, bool bare) {
  std::string out = absl::StrCat(
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>",
      Html(title),
      " · fitrank</title><link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">"
      "<link rel=\"stylesheet\" href=\"/static/style.css\">",
      // The embed card runs no script (its CSP allows none).
      bare ? "</head><body class=\"bare\">"
           : "<script src=\"/static/app.js\" defer></script></head><body>");
  if (!bare) {
    out +=
        "<a class=\"skip\" href=\"#main\">Skip to content</a><header class=\"top\"><a "
        "class=\"brand\" href=\"/\">fitrank</a><nav aria-label=\"Main\"><a href=\"/\">Search</a>"
        "<a href=\"/compare?gpu=RTX%204090&amp;gpu=RTX%203090\">Compare</a>"
        "<a href=\"/api/v1/openapi.json\">API</a></nav></header>";
  }
  absl::StrAppend(&out, "<main id=\"main\">", main_html, "</main>");
  if (!bare) {
    out +=
        "<footer>Numbers are estimates from the hardware's bandwidth and compute and the "
        "model's real layout (EST.). Every page is a URL you can share; the same data is at "
        "<a href=\"/api/v1/openapi.json\">/api/v1</a>.</footer>";
  }
  out += "</body></html>\n";
  return out;
}

std::string ErrorMain(absl::string_view heading, absl::string_view message, absl::string_view hint,
                      const std::vector<std::pair<std::string, std::string>>& links) {
  std::string out = absl::StrCat("<div class=\"error\" role=\"alert\"><h1>", Html(heading),
                                 "</h1><p class=\"message\">", Html(message), "</p>");
  if (!hint.empty()) absl::StrAppend(&out, "<p class=\"hint\">", Html(hint), "</p>");
  if (!links.empty()) {
    out += "<ul class=\"candidates\">";
    for (const auto& [text, href] : links) {
      absl::StrAppend(&out, "<li><a href=\"", Html(href), "\">", Html(text), "</a></li>");
    }
    out += "</ul>";
  }
  out += "<p><a href=\"/\">Search again</a></p></div>";
  return out;
}

}  // namespace fitrank::cli::serve
