// /embed/fit/{model}/{gpu} (the iframe card) and /badge/fit/{model}/{gpu}.svg.
#include "absl/strings/str_cat.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/pages.h"

namespace fitrank::cli::serve {

namespace {

ApiResult Fit(const Snapshot& snap, const std::string& model, const std::string& gpu,
              const std::vector<QueryParam>& q) {
  std::vector<QueryParam> api = {{"model", model}, {"gpu", gpu}};
  for (const QueryParam& p : q) api.push_back(p);
  return CallApi(snap.run, "fit", api);
}

std::string GradeColour(const std::string& grade) {
  if (grade.empty()) return "#6b7280";
  switch (grade[0]) {
    case 'A': return "#15803d";
    case 'B': return "#4d7c0f";
    case 'C': return "#a16207";
    case 'D': return "#c2410c";
    default: return "#b91c1c";
  }
}

}  // namespace

PageResult EmbedCard(const Snapshot& snap, const std::string& model, const std::string& gpu,
                     const std::vector<QueryParam>& q) {
  ApiResult r = Fit(snap, model, gpu, q);
  PageResult p;
  if (r.status != 200) {
    p.status = r.status == 400 && r.json["error"].value("code", "") != "bad_input" ? 404 : r.status;
    p.body = Page("Not found",
                  absl::StrCat("<div class=\"card\"><p>", T(r.json["error"]["message"]),
                               "</p></div>"),
                  /*bare=*/true);
    return p;
  }
  const Json& j = r.json;
  std::string full = absl::StrCat(FitPath(model, gpu));
  p.body = Page(
      absl::StrCat(Text(j["model"]), " on ", Text(j["setup"]["label"])),
      absl::StrCat("<div class=\"card\"><div class=\"card-head\">", GradeBadge(j["grade"]),
                   "<div><div class=\"card-title\">", T(j["model"]), "</div><div class=\"card-sub\">on ",
                   T(j["setup"]["label"]), " · ", T(j["quant"]), "</div></div></div>",
                   "<dl class=\"card-stats\"><div><dt>Fit</dt><dd>", T(j["fit"]["kind"]),
                   "</dd></div><div><dt>Decode</dt><dd>", T(j["decode_tok_s"]),
                   " tok/s</dd></div><div><dt>Memory</dt><dd>", T(j["memory"]["total_gb"]), " / ",
                   T(j["memory"]["usable_gb"]), " GB</dd></div><div><dt>Context</dt><dd>",
                   T(j["safe_context"]), "</dd></div></dl>",
                   "<a class=\"card-link\" target=\"_blank\" rel=\"noopener\" href=\"", Html(full),
                   "\">Details on fitrank · estimate</a></div>"),
      /*bare=*/true);
  return p;
}

PageResult Badge(const Snapshot& snap, const std::string& model, const std::string& gpu,
                 const std::vector<QueryParam>& q) {
  ApiResult r = Fit(snap, model, gpu, q);
  PageResult p;
  p.content_type = "image/svg+xml; charset=utf-8";
  std::string left = "fitrank";
  std::string right, colour;
  if (r.status == 200) {
    std::string grade = Text(r.json["grade"]);
    right = absl::StrCat(Text(r.json["model"]), ": ", grade, " · ", Text(r.json["decode_tok_s"]),
                         " tok/s");
    colour = GradeColour(r.json["grade"].is_string() ? grade : "");
  } else {
    p.status = r.status == 400 ? 404 : r.status;
    right = "unknown model or GPU";
    colour = "#6b7280";
  }
  // Widths from a 6.5 px average glyph at 11 px Verdana-like text; the text is escaped.
  int lw = 10 + static_cast<int>(left.size()) * 7;
  int rw = 10 + static_cast<int>(right.size()) * 7;
  p.body = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", lw + rw, "\" height=\"20\" role=\"img\" "
      "aria-label=\"", Html(left), ": ", Html(right), "\"><title>", Html(left), ": ", Html(right),
      "</title><rect width=\"", lw, "\" height=\"20\" fill=\"#374151\"/><rect x=\"", lw,
      "\" width=\"", rw, "\" height=\"20\" fill=\"", colour,
      "\"/><g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">"
      "<text x=\"5\" y=\"14\">", Html(left), "</text><text x=\"", lw + 5, "\" y=\"14\">",
      Html(right), "</text></g></svg>\n");
  return p;
}

}  // namespace fitrank::cli::serve
