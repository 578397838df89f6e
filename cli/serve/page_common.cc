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

namespace {

// A select that reloads `action` with ?`param`=value (the other parameters kept as hidden
// fields), and the same choices as links for browsers without JavaScript (styled as pills;
// hidden when app.js runs, whose autosubmit applies the select on change).
std::string Chooser(absl::string_view param, absl::string_view label,
                    const std::vector<NamedId>& options, const std::string& current,
                    const std::vector<QueryParam>& keep, const std::string& action) {
  std::string out = absl::StrCat("<form class=\"mode autosubmit\" method=\"get\" action=\"",
                                 Html(action), "\">");
  for (const QueryParam& p : keep) {
    absl::StrAppend(&out, "<input type=\"hidden\" name=\"", Html(p.name), "\" value=\"",
                    Html(p.value), "\">");
  }
  absl::StrAppend(&out, "<label for=\"", Html(param), "-select\">", Html(label),
                  "</label><select id=\"", Html(param), "-select\" name=\"", Html(param), "\">");
  for (const NamedId& m : options) {
    absl::StrAppend(&out, "<option value=\"", Html(m.id), "\"", m.id == current ? " selected" : "",
                    ">", Html(m.name), "</option>");
  }
  absl::StrAppend(&out, "</select><button type=\"submit\">Apply</button></form><ul class=\"modes\" "
                  "aria-label=\"", Html(label), "\">");
  for (const NamedId& m : options) {
    std::vector<QueryParam> q = keep;
    q.push_back({std::string(param), m.id});
    absl::StrAppend(&out, "<li><a href=\"", Html(action), "?", Html(QueryString(q)), "\"",
                    m.id == current ? " aria-current=\"page\"" : "", " title=\"",
                    Html(m.description), "\">", Html(m.name), "</a></li>");
  }
  return out + "</ul>";
}

}  // namespace

std::string ModeChooser(const Snapshot& snap, const std::string& current,
                        const std::vector<QueryParam>& keep, const std::string& action) {
  return Chooser("mode", "Operating mode", snap.modes, current, keep, action);
}

std::string WorkloadChooser(const Snapshot& snap, const std::string& current,
                            const std::vector<QueryParam>& keep, const std::string& action) {
  return Chooser("workload", "Workload", snap.workloads, current, keep, action);
}

}  // namespace fitrank::cli::serve::internal
