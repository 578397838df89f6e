#include "cli/serve/app.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file_source.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/openapi.h"
#include "cli/serve/pages.h"

namespace fitrank::cli::serve {

namespace {

// Pages may load only our own script, style and images, and never be framed, except the
// embed card, which any site may frame.
constexpr char kCsp[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'self'";
constexpr char kEmbedCsp[] =
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors *";
constexpr char kJson[] = "application/json; charset=utf-8";

// The embedded assets, by the only names a request may ask for.
struct Asset {
  const char* name;
  const char* file;  // path in the embedded tree
  const char* type;
};
constexpr Asset kAssets[] = {
    {"style.css", "web/style.css", "text/css; charset=utf-8"},
    {"app.js", "web/app.js", "text/javascript; charset=utf-8"},
    {"favicon.svg", "web/favicon.svg", "image/svg+xml"},
};

HttpResponse JsonResponse(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.content_type = kJson;
  r.body = std::move(body);
  return r;
}

HttpResponse FromPage(PageResult p) {
  HttpResponse r;
  r.status = p.status;
  r.content_type = p.content_type;
  r.body = std::move(p.body);
  return r;
}

HttpResponse NotFoundPage(absl::string_view path) {
  HttpResponse r;
  r.status = 404;
  r.body = Page("Not found", ErrorMain("Not found", absl::StrCat("There is no page at ", path, "."),
                                       "Start from the search page, or see /api/v1/openapi.json "
                                       "for the API.",
                                       {}));
  return r;
}

// Splits the raw path into decoded segments; false if a segment does not decode.
bool Segments(absl::string_view raw_path, std::vector<std::string>* out, std::string* problem) {
  for (absl::string_view s : absl::StrSplit(raw_path.substr(1), '/')) {
    absl::StatusOr<std::string> d = DecodePathSegment(s);
    if (!d.ok()) {
      *problem = std::string(d.status().message());
      return false;
    }
    out->push_back(*d);
  }
  return true;
}

// The server's URL as the client reached it: --public-url, else the Host header when it is a
// plain host[:port], else a relative URL.
std::string BaseUrl(const Snapshot& snap, const HttpRequest& req) {
  if (!snap.public_url.empty()) return snap.public_url;
  if (req.host.empty() || req.host.size() > 255) return "";
  for (char c : req.host) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' && c != ':' && c != '-' &&
        c != '[' && c != ']') {
      return "";
    }
  }
  return absl::StrCat("http://", req.host);
}

}  // namespace

App::App(SnapshotLoader loader) : loader_(std::move(loader)) {
  snapshot_ = loader_(&first_diagnostics_);
}

std::shared_ptr<const Snapshot> App::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return snapshot_;
}

bool App::Reload(std::string* diagnostics) {
  std::lock_guard<std::mutex> one_at_a_time(reload_mu_);
  std::shared_ptr<const Snapshot> next = loader_(diagnostics);
  if (next == nullptr) return false;
  std::lock_guard<std::mutex> lock(mu_);
  snapshot_ = std::move(next);
  return true;
}

HttpResponse App::Handle(const HttpRequest& req) const {
  std::shared_ptr<const Snapshot> snap = Current();  // held until this request ends
  HttpResponse r;
  if (snap == nullptr) {
    r = JsonResponse(503, ErrorBody("not_loaded", "the data did not load", first_diagnostics_));
  } else {
    r = Route(req, *snap);
  }
  bool embed = absl::StartsWith(req.target, "/embed/");
  r.headers.push_back({"Content-Security-Policy", embed ? kEmbedCsp : kCsp});
  r.headers.push_back({"X-Content-Type-Options", "nosniff"});
  r.headers.push_back({"Referrer-Policy", "strict-origin-when-cross-origin"});
  if (!embed) r.headers.push_back({"X-Frame-Options", "SAMEORIGIN"});
  if (req.method == "GET" && (absl::StartsWith(req.target, "/api/") ||
                              absl::StartsWith(req.target, "/badge/"))) {
    r.headers.push_back({"Access-Control-Allow-Origin", "*"});
  }
  if (absl::StartsWith(req.target, "/static/")) {
    r.headers.push_back({"Cache-Control", "public, max-age=3600"});
  } else {
    r.headers.push_back({"Cache-Control", "no-cache"});
  }
  return r;
}

HttpResponse App::Route(const HttpRequest& req, const Snapshot& snap) const {
  absl::string_view target = req.target;
  size_t qmark = target.find('?');
  absl::string_view raw_path = target.substr(0, qmark);
  absl::string_view raw_query =
      qmark == absl::string_view::npos ? absl::string_view() : target.substr(qmark + 1);
  bool api = absl::StartsWith(raw_path, "/api/");
  if (raw_path.empty() || raw_path[0] != '/') {
    return JsonResponse(400, ErrorBody("bad_request", "the request target is not a path", ""));
  }

  if (req.method == "POST" && raw_path == "/api/v1/reload") {
    if (!req.from_loopback) {
      return JsonResponse(403, ErrorBody("forbidden", "reload is allowed from loopback only",
                                         "send SIGHUP to the server process instead"));
    }
    std::string diags;
    if (!const_cast<App*>(this)->Reload(&diags)) {
      return JsonResponse(400, ErrorBody("reload_failed",
                                         "the data or rule files have errors; the old snapshot "
                                         "stays in service",
                                         diags));
    }
    nlohmann::ordered_json j = {{"reloaded", true}, {"loaded_at", Current()->loaded_at}};
    return JsonResponse(200, j.dump(2) + "\n");
  }
  if (req.method != "GET" && req.method != "HEAD") {
    HttpResponse r = JsonResponse(405, ErrorBody("method_not_allowed",
                                                 absl::StrCat(req.method, " is not allowed here"),
                                                 "the API and the pages answer GET"));
    r.headers.push_back({"Allow", "GET, HEAD"});
    return r;
  }

  absl::StatusOr<std::vector<QueryParam>> q = ParseQuery(raw_query);
  if (!q.ok()) {
    if (api) return JsonResponse(400, ErrorBody("bad_query", q.status().message(), ""));
    HttpResponse r;
    r.status = 400;
    r.body = Page("Bad request", ErrorMain("Bad request", q.status().message(), "", {}));
    return r;
  }

  if (api) {
    if (raw_path == "/api/v1/openapi.json") return JsonResponse(200, OpenApiDocument().dump(2) + "\n");
    if (!absl::StartsWith(raw_path, "/api/v1/")) {
      return JsonResponse(404, ErrorBody("not_found", absl::StrCat("no endpoint ", raw_path),
                                         "the API is under /api/v1/"));
    }
    ApiResult a = CallApi(snap.run, raw_path.substr(8), *q);
    return JsonResponse(a.status, std::move(a.body));
  }
  if (raw_path == "/healthz") {
    HttpResponse r;
    r.content_type = "text/plain; charset=utf-8";
    r.body = absl::StrCat("ok ", snap.loaded_at, "\n");
    return r;
  }
  if (absl::StartsWith(raw_path, "/static/")) {
    for (const Asset& a : kAssets) {
      if (raw_path.substr(8) == a.name) {
        EmbeddedSource embedded;
        absl::StatusOr<std::string> content = embedded.Read(a.file);
        HttpResponse r;
        r.content_type = a.type;
        r.body = content.ok() ? *content : "";
        return r;
      }
    }
    return NotFoundPage(raw_path);
  }

  // Forms submit their empty optional boxes (gpu=&ram=); for pages an empty value is absent.
  std::erase_if(*q, [](const QueryParam& p) { return p.value.empty(); });
  std::vector<std::string> seg;
  std::string problem;
  if (!Segments(raw_path, &seg, &problem)) {
    HttpResponse r;
    r.status = 400;
    r.body = Page("Bad request", ErrorMain("Bad request", problem, "", {}));
    return r;
  }
  auto redirect = [](std::string location) {
    HttpResponse r;
    r.status = 303;
    r.headers.push_back({"Location", std::move(location)});
    r.body = "";
    return r;
  };
  if (raw_path == "/") return FromPage(SearchPage(snap, *q));
  if (seg.size() == 1 && seg[0] == "gpu") {  // the search form's GPU box
    std::optional<std::string> g = Last(*q, "gpu");
    if (!g || g->empty()) return redirect("/");
    return redirect(GpuPath(*g));
  }
  if (seg.size() == 2 && seg[0] == "gpu" && !seg[1].empty()) {
    return FromPage(GpuPage(snap, seg[1], *q));
  }
  if (seg.size() == 1 && seg[0] == "fit") {  // the search form's model + GPU boxes
    std::optional<std::string> m = Last(*q, "model"), g = Last(*q, "gpu");
    if (!m || !g || m->empty() || g->empty()) return redirect("/");
    return redirect(FitPath(*m, *g));
  }
  if (seg.size() == 3 && seg[0] == "fit" && !seg[1].empty() && !seg[2].empty()) {
    return FromPage(FitPage(snap, seg[1], seg[2], *q, BaseUrl(snap, req)));
  }
  if (seg.size() == 4 && seg[0] == "embed" && seg[1] == "fit" && !seg[2].empty() &&
      !seg[3].empty()) {
    return FromPage(EmbedCard(snap, seg[2], seg[3], *q));
  }
  if (seg.size() == 4 && seg[0] == "badge" && seg[1] == "fit" && !seg[2].empty() &&
      absl::EndsWith(seg[3], ".svg") && seg[3].size() > 4) {
    return FromPage(Badge(snap, seg[2], seg[3].substr(0, seg[3].size() - 4), *q));
  }
  if (seg.size() == 1 && seg[0] == "compare") return FromPage(ComparePage(snap, *q));
  if (seg.size() == 1 && seg[0] == "upgrade") return FromPage(UpgradePage(snap, *q));
  if (seg.size() == 1 && seg[0] == "recommend") return FromPage(RecommendPage(snap, *q));
  return NotFoundPage(raw_path);
}

}  // namespace fitrank::cli::serve
