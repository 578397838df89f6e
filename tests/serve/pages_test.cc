// The web pages through App::Handle: every block, escaping, errors, headers, assets.
#include <regex>

#include "serve_test_util.h"

namespace fitrank::cli::serve {
namespace {

TEST(Pages, GpuPageHasEveryBlock) {
  HttpResponse r = Get("/gpu/RTX%204090");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  for (const char* id : {"mode", "specs", "traits", "capability", "picks", "out-of-reach",
                         "diffusion", "scaling", "buying", "upgrades"}) {
    EXPECT_TRUE(Contains(r.body, std::string("<section id=\"") + id + "\"")) << id;
  }
  EXPECT_TRUE(Contains(r.body, "<h1>GeForce RTX 4090</h1>"));
  EXPECT_TRUE(Contains(r.body, "<option value=\"interactive\">Interactive</option>"));
  EXPECT_TRUE(Contains(r.body, "class=\"copy\""));  // run commands with copy buttons
  EXPECT_TRUE(Contains(r.body, "<svg"));            // the scaling chart
}

TEST(Pages, ModeChangesThePicks) {
  // The picks of the RTX 4090 differ between balanced and scale-out (scale-out sizes 2-8 GPUs).
  auto picks = [](const std::string& body) {
    size_t a = body.find("<section id=\"picks\""), b = body.find("<section id=\"capability\"");
    return body.substr(a, b - a);
  };
  std::string balanced = picks(Get("/gpu/RTX%204090").body);
  std::string scale_out = picks(Get("/gpu/RTX%204090?mode=scale-out").body);
  EXPECT_NE(balanced, scale_out);
  EXPECT_TRUE(Contains(Get("/gpu/RTX%204090?mode=scale-out").body,
                       "<option value=\"scale-out\" selected>"));
}

TEST(Pages, FitPageHasTheExplorerAndTheEmbedSnippet) {
  HttpResponse r = Get("/fit/llama%203.1%208b/4090?quant=Q4_K_M");
  ASSERT_EQ(r.status, 200) << r.body;
  for (const char* id : {"headline", "advice", "workloads", "quants", "run", "embed"}) {
    EXPECT_TRUE(Contains(r.body, std::string("<section id=\"") + id + "\"")) << id;
  }
  EXPECT_TRUE(Contains(r.body, "<h1>Llama 3.1 8B Instruct on GeForce RTX 4090</h1>"));
  EXPECT_TRUE(std::regex_search(r.body, std::regex("<option value=\"Q4_K_M\" selected")));
  EXPECT_TRUE(Contains(r.body, "Memory needed vs usable"));
  EXPECT_TRUE(Contains(r.body, "Decode speed per quantization"));
  // The snippet to copy, with the server's address from the Host header.
  EXPECT_TRUE(Contains(r.body, "&lt;iframe src=&quot;http://127.0.0.1:8080/embed/fit/llama%203.1%208b/4090"));
}

TEST(Pages, EmbedCardAndBadge) {
  HttpResponse card = Get("/embed/fit/llama%203.1%208b/4090");
  ASSERT_EQ(card.status, 200);
  EXPECT_TRUE(Contains(card.body, "class=\"card\""));
  EXPECT_TRUE(Contains(Header(card, "Content-Security-Policy"), "frame-ancestors *"));
  EXPECT_EQ(Header(card, "X-Frame-Options"), "");
  HttpResponse badge = Get("/badge/fit/llama%203.1%208b/4090.svg");
  ASSERT_EQ(badge.status, 200);
  EXPECT_EQ(badge.content_type, "image/svg+xml; charset=utf-8");
  EXPECT_TRUE(Contains(badge.body, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(Contains(badge.body, "Llama 3.1 8B Instruct: "));
  EXPECT_EQ(Get("/badge/fit/nosuchmodel/4090.svg").status, 404);
  EXPECT_EQ(Get("/embed/fit/nosuchmodel/4090").status, 404);
}

TEST(Pages, UnknownNamesGive404WithDidYouMeanLinks) {
  HttpResponse r = Get("/gpu/4090x");
  EXPECT_EQ(r.status, 404);
  EXPECT_TRUE(Contains(r.body, "unknown GPU `4090x`"));
  EXPECT_TRUE(Contains(r.body, "<a href=\"/gpu/GeForce%20RTX%204090\">GeForce RTX 4090</a>"));
  HttpResponse f = Get("/fit/llama%203.1%208b/4090x");
  EXPECT_EQ(f.status, 404);
  EXPECT_TRUE(Contains(f.body, "href=\"/fit/llama%203.1%208b/GeForce%20RTX%204090\""));
}

TEST(Pages, EverythingFromTheRequestIsEscaped) {
  HttpResponse r = Get("/gpu/%3Cscript%3Ealert(1)%3C%5Cscript%3E");
  EXPECT_EQ(r.status, 404);
  EXPECT_FALSE(Contains(r.body, "<script>alert"));
  EXPECT_TRUE(Contains(r.body, "&lt;script&gt;alert(1)&lt;\\script&gt;"));
  HttpResponse q = Get("/recommend?gpu=%22%3E%3Cimg%20src%3Dx%3E");
  EXPECT_FALSE(Contains(q.body, "<img src=x>"));
  HttpResponse b = Get("/badge/fit/%3Cx%3E/4090.svg");
  EXPECT_FALSE(Contains(b.body, "<x>"));
}

TEST(Pages, ComparUpgradeRecommend) {
  HttpResponse c = Get("/compare?gpu=RTX%204090&gpu=RTX%203090");
  ASSERT_EQ(c.status, 200) << c.body;
  EXPECT_TRUE(Contains(c.body, "<h1>GeForce RTX 4090 vs GeForce RTX 3090</h1>"));
  EXPECT_TRUE(Contains(c.body, "Decode speed on reference models"));
  HttpResponse u = Get("/upgrade?gpu=RTX%203060%2012GB&budget=2000");
  ASSERT_EQ(u.status, 200) << u.body;
  EXPECT_TRUE(Contains(u.body, "Dollars per unlocked model"));
  HttpResponse rec = Get("/recommend?gpu=4090&gpu=&ram=&workload=all&mode=interactive");
  ASSERT_EQ(rec.status, 200) << rec.body;  // the form's empty optional boxes are ignored
  EXPECT_TRUE(Contains(rec.body, "<option value=\"interactive\" selected>"));
}

TEST(Pages, GpuPageLinksKeepTheSetup) {
  // Two 4090s with 128 GB of RAM in interactive mode: every link to a fit page (picks, out of
  // reach) and to the upgrade and recommend pages carries gpus, ram and mode.
  HttpResponse r = Get("/gpu/RTX%204090?gpus=2&ram=128&mode=interactive");
  ASSERT_EQ(r.status, 200) << r.body;
  std::regex fit_link("href=\"(/fit/[^\"]*)\"");
  int links = 0;
  for (auto it = std::sregex_iterator(r.body.begin(), r.body.end(), fit_link);
       it != std::sregex_iterator(); ++it) {
    const std::string href = (*it)[1];
    EXPECT_TRUE(Contains(href, "?gpus=2&amp;ram=128&amp;mode=interactive")) << href;
    ++links;
  }
  EXPECT_GT(links, 5);
  EXPECT_TRUE(Contains(r.body, "&amp;workload=coding\""));  // a pick's link names its workload
  EXPECT_TRUE(Contains(
      r.body, "href=\"/upgrade?gpu=GeForce%20RTX%204090&amp;gpus=2&amp;ram=128&amp;mode=interactive\""));
  EXPECT_TRUE(Contains(r.body, "href=\"/recommend?gpu=GeForce%20RTX%204090&amp;gpus=2&amp;ram=128&amp;"
                               "mode=interactive&amp;workload=all\""));
  // The fit page a link leads to answers for the same setup.
  HttpResponse fit = Get("/fit/Llama%203.1%208B%20Instruct/GeForce%20RTX%204090?gpus=2&ram=128");
  ASSERT_EQ(fit.status, 200) << fit.body;
  EXPECT_TRUE(Contains(fit.body, "2x GeForce RTX 4090")) << fit.body.substr(0, 2000);
}

TEST(Pages, UpgradePageChoosesWorkloadAndMode) {
  HttpResponse u = Get("/upgrade?gpu=RTX%203060%2012GB&budget=2000&workload=coding");
  ASSERT_EQ(u.status, 200) << u.body;
  EXPECT_TRUE(Contains(u.body, "<select id=\"workload-select\" name=\"workload\">"));
  EXPECT_TRUE(Contains(u.body, "<option value=\"coding\" selected>"));
  EXPECT_TRUE(Contains(u.body, "<select id=\"mode-select\" name=\"mode\">"));
  EXPECT_TRUE(Contains(u.body, "<input type=\"hidden\" name=\"budget\" value=\"2000\">"));
  // Without JavaScript: links that keep the GPU and budget.
  EXPECT_TRUE(Contains(u.body, "href=\"/upgrade?gpu=RTX%203060%2012GB&amp;budget=2000&amp;workload=chat\""));
  EXPECT_TRUE(Contains(
      u.body, "href=\"/upgrade?gpu=RTX%203060%2012GB&amp;budget=2000&amp;workload=coding&amp;mode=interactive\""));
  // The choice changes the answer.
  HttpResponse chat = Get("/upgrade?gpu=RTX%203060%2012GB&budget=2000&workload=chat");
  ASSERT_EQ(chat.status, 200);
  EXPECT_TRUE(Contains(chat.body, "<option value=\"chat\" selected>"));
}

TEST(Pages, SearchFormWithAutocomplete) {
  HttpResponse r = Get("/");
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(Contains(r.body, "<datalist id=\"gpu-names\"><option value=\""));
  EXPECT_TRUE(Contains(r.body, "<option value=\"GeForce RTX 4090\">"));
  EXPECT_TRUE(Contains(r.body, "<label for=\"gpu1\">GPU 1</label>"));
  HttpResponse go = Get("/fit?model=llama%203.1%208b&gpu=4090");
  EXPECT_EQ(go.status, 303);
  EXPECT_EQ(Header(go, "Location"), "/fit/llama%203.1%208b/4090");
  EXPECT_EQ(Header(Get("/gpu?gpu=RTX%204090"), "Location"), "/gpu/RTX%204090");
}

TEST(Pages, SecurityHeadersEverywhere) {
  for (const char* t : {"/", "/gpu/4090", "/nope", "/api/v1/gpu/4090", "/static/app.js"}) {
    HttpResponse r = Get(t);
    EXPECT_TRUE(Contains(Header(r, "Content-Security-Policy"), "default-src 'none'")) << t;
    EXPECT_EQ(Header(r, "X-Content-Type-Options"), "nosniff") << t;
  }
  EXPECT_EQ(Header(Get("/gpu/4090"), "Access-Control-Allow-Origin"), "");
}

TEST(Pages, AssetsComeFromAFixedTable) {
  HttpResponse css = Get("/static/style.css");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.content_type, "text/css; charset=utf-8");
  EXPECT_TRUE(Contains(css.body, "@media print"));
  EXPECT_EQ(Get("/static/app.js").content_type, "text/javascript; charset=utf-8");
  for (const char* t : {"/static/../CMakeLists.txt", "/static/%2E%2E%2Fweb%2Fstyle.css",
                        "/static/catalog/gpus.yaml", "/static/", "/web/style.css"}) {
    EXPECT_NE(Get(t).status, 200) << t;
  }
}

TEST(Pages, UnknownPage404) {
  HttpResponse r = Get("/gpu");
  EXPECT_EQ(r.status, 303);  // the search box with no name goes back to the search
  EXPECT_EQ(Get("/nope").status, 404);
  EXPECT_EQ(Get("/fit/onlyone").status, 404);
}

}  // namespace
}  // namespace fitrank::cli::serve

namespace fitrank::cli::serve {
namespace {

TEST(Pages, NoInlineScriptStyleOrHandlers) {
  // The CSP forbids them; a page that had one would break in the browser.
  std::regex inline_script("<script(?![^>]*\\bsrc=)");
  std::regex handler("<[a-z]+[^>]*\\son[a-z]+=\"", std::regex::icase);
  std::regex style_attr("<[a-z]+[^>]*\\sstyle=\"");
  for (const char* t : {"/", "/gpu/RTX%204090", "/fit/llama%203.1%208b/4090", "/compare?gpu=4090&gpu=3090",
                        "/upgrade?gpu=RTX%203060%2012GB", "/recommend?gpu=4090",
                        "/embed/fit/llama%203.1%208b/4090", "/gpu/nope"}) {
    std::string body = Get(t).body;
    EXPECT_FALSE(std::regex_search(body, inline_script)) << t;
    EXPECT_FALSE(std::regex_search(body, handler)) << t;
    EXPECT_FALSE(std::regex_search(body, style_attr)) << t;
  }
}

}  // namespace
}  // namespace fitrank::cli::serve
