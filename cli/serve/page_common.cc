// What the pages share: error pages, query-string helpers, the operating-mode chooser.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/pages.h"

namespace fitrank::cli::serve::internal {

PageResult ErrorPage(const ApiResult& r, const std::string& heading,
                     std::string (*link_for)(const std::string& candidate, const void* ctx),
                     const void* ctx) {
  const Json& e = r.json.contains("error") ? r.json["error"] : Json::object();
  std::string code = e.value("code", "");
  PageResult p;
  p.status = code == "unknown_name" || code == "ambiguous_name" ? 404 : r.status;
  std::vector<std::pair<std::string, std::string>> links;
  if (e.contains("candidates") && link_for != nullptr) {
    for (const Json& c : e["candidates"]) {
      if (c.is_string()) links.push_back({c.get<std::string>(), link_for(c.get<std::string>(), ctx)});
    }
  }
  std::string title = p.status == 404 ? "Not found" : p.status == 422 ? "No answer" : heading;
  p.body = Page(title, ErrorMain(title, e.value("message", ""), e.value("hint", ""), links));
  return p;
}

std::vector<QueryParam> Without(const std::vector<QueryParam>& q,
                                const std::vector<std::string>& drop) {
  std::vector<QueryParam> out;
  for (const QueryParam& p : q) {
    if (std::find(drop.begin(), drop.end(), p.name) == drop.end()) out.push_back(p);
  }
  return out;
}

std::string QueryString(const std::vector<QueryParam>& q) {
  std::string out;
  for (const QueryParam& p : q) {
    absl::StrAppend(&out, out.empty() ? "" : "&", UrlEncode(p.name), "=", UrlEncode(p.value));
  }
  return out;
}

std::string ModeChooser(const Snapshot& snap, const std::string& current,
                        const std::vector<QueryParam>& keep, const std::string& action) {
  std::string out = absl::StrCat("<form class=\"mode autosubmit\" method=\"get\" action=\"",
                                 Html(action), "\">");
  for (const QueryParam& p : keep) {
    absl::StrAppend(&out, "<input type=\"hidden\" name=\"", Html(p.name), "\" value=\"",
                    Html(p.value), "\">");
  }
  out += "<label for=\"mode-select\">Operating mode</label><select id=\"mode-select\" name=\"mode\">";
  for (const NamedId& m : snap.modes) {
    absl::StrAppend(&out, "<option value=\"", Html(m.id), "\"", m.id == current ? " selected" : "",
                    ">", Html(m.name), "</option>");
  }
  out += "</select><button type=\"submit\">Apply</button></form><ul class=\"modes\">";
  for (const NamedId& m : snap.modes) {
    std::vector<QueryParam> q = keep;
    q.push_back({"mode", m.id});
    absl::StrAppend(&out, "<li><a href=\"", Html(action), "?", Html(QueryString(q)), "\"",
                    m.id == current ? " aria-current=\"page\"" : "", " title=\"",
                    Html(m.description), "\">", Html(m.name), "</a></li>");
  }
  return out + "</ul>";
}

}  // namespace fitrank::cli::serve::internal
