#include "cli/serve/html.h"

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/render_text.h"
#include "cli/serve/escape.h"
#include "cli/serve/query.h"

namespace fitrank::cli::serve {

std::string Text(const Json& v, int decimals) {
  if (v.is_null()) return "—";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number()) {
    std::string s;
    AppendFixed(&s, v.get<double>(), decimals);
    if (s.find('.') != std::string::npos) {
      while (!s.empty() && s.back() == '0') s.pop_back();
      if (!s.empty() && s.back() == '.') s.pop_back();
    }
    return s;
  }
  return v.dump();
}

std::string Money(const Json& v) {
  if (!v.is_number() || !(v.get<double>() > 0)) return "—";
  return absl::StrCat("$", Text(v, 0));
}

std::string T(const Json& v, int decimals) { return Html(Text(v, decimals)); }

std::string Capacity(const Json& gib) {
  return Html(FormatCapacity(gib.is_number() ? gib.get<double>() : 0));
}

std::string Tag(absl::string_view tag, absl::string_view text, absl::string_view cls) {
  return absl::StrCat("<", tag, cls.empty() ? "" : absl::StrCat(" class=\"", Html(cls), "\""),
                      ">", Html(text), "</", tag, ">");
}

std::string Link(absl::string_view href, absl::string_view text) {
  return absl::StrCat("<a href=\"", Html(href), "\">", Html(text), "</a>");
}

std::string Table(const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows_html,
                  absl::string_view caption) {
  std::string out = "<div class=\"table-wrap\"><table>";
  if (!caption.empty()) absl::StrAppend(&out, "<caption>", Html(caption), "</caption>");
  out += "<thead><tr>";
  for (const std::string& h : headers) absl::StrAppend(&out, "<th scope=\"col\">", Html(h), "</th>");
  out += "</tr></thead><tbody>";
  for (const auto& row : rows_html) {
    out += "<tr>";
    for (const std::string& c : row) absl::StrAppend(&out, "<td>", c, "</td>");
    out += "</tr>";
  }
  out += "</tbody></table></div>";
  return out;
}

std::string Section(absl::string_view id, absl::string_view title, absl::string_view body_html) {
  return absl::StrCat("<section id=\"", Html(id), "\" aria-labelledby=\"", Html(id), "-h\"><h2 id=\"",
                      Html(id), "-h\">", Html(title), "</h2>", body_html, "</section>");
}

std::string List(const std::vector<std::string>& items, absl::string_view cls) {
  std::string out = cls.empty() ? "<ul>" : absl::StrCat("<ul class=\"", Html(cls), "\">");
  for (const std::string& i : items) absl::StrAppend(&out, "<li>", Html(i), "</li>");
  return out + "</ul>";
}

std::string GradeBadge(const Json& grade) {
  std::string g = grade.is_string() ? grade.get<std::string>() : "";
  if (g.empty()) return "<span class=\"grade grade-none\">—</span>";
  char letter = g[0] >= 'A' && g[0] <= 'F' ? g[0] : 'X';
  return absl::StrCat("<span class=\"grade grade-", std::string(1, letter), "\">", Html(g),
                      "</span>");
}

std::string RunCommand(absl::string_view command) {
  return absl::StrCat("<div class=\"cmd\"><code>", Html(command),
                      "</code><button type=\"button\" class=\"copy\" data-copy=\"", Html(command),
                      "\" aria-label=\"Copy the command\">Copy</button></div>");
}

std::string FitPath(absl::string_view model, absl::string_view gpu) {
  return absl::StrCat("/fit/", UrlEncode(model), "/", UrlEncode(gpu));
}

std::string GpuPath(absl::string_view gpu) { return absl::StrCat("/gpu/", UrlEncode(gpu)); }

}  // namespace fitrank::cli::serve
