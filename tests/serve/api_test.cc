// The JSON API: the CLI's own JSON byte for byte, error objects, limits on what a request can
// reach, headers.
#include <sstream>

#include "cli/command.h"
#include "nlohmann/json.hpp"
#include "serve_test_util.h"

namespace fitrank::cli::serve {
namespace {

using nlohmann::json;

std::string CliJson(std::vector<std::string> args) {
  args.insert(args.begin(), "fitrank");
  args.push_back("--json");
  std::ostringstream out, err;
  EXPECT_EQ(RunCli(args, out, err), 0) << err.str();
  return out.str();
}

json ErrorOf(const HttpResponse& r) {
  json j = json::parse(r.body);
  EXPECT_TRUE(j.contains("error")) << r.body;
  return j["error"];
}

TEST(Api, ReturnsExactlyTheCliJson) {
  EXPECT_EQ(Get("/api/v1/gpu/RTX%204090?mode=interactive").body,
            CliJson({"gpu", "RTX 4090", "--mode", "interactive"}));
  EXPECT_EQ(Get("/api/v1/fit?model=llama%203.1%208b&gpu=4090&quant=Q8_0").body,
            CliJson({"fit", "llama 3.1 8b", "--gpu", "4090", "--quant", "Q8_0"}));
  EXPECT_EQ(Get("/api/v1/recommend?gpu=RTX%204090&gpu=RTX%203090&workload=coding&mode=interactive").body,
            CliJson({"recommend", "--gpu", "RTX 4090", "--gpu", "RTX 3090", "--workload", "coding",
                     "--mode", "interactive"}));
  EXPECT_EQ(Get("/api/v1/compare?gpu=4090&gpu=3090").body, CliJson({"compare", "4090", "3090"}));
  EXPECT_EQ(Get("/api/v1/catalog/show?name=4090").body, CliJson({"catalog", "show", "4090"}));
  EXPECT_EQ(Get("/api/v1/catalog/quants").body, CliJson({"catalog", "quants"}));
}

TEST(Api, OkResponsesAreJsonWithCors) {
  HttpResponse r = Get("/api/v1/estimate?gpu=4090&model=llama%203.1%208b");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(Header(r, "Access-Control-Allow-Origin"), "*");
  EXPECT_TRUE(json::parse(r.body).contains("decode_tok_s"));
}

TEST(Api, UnknownNameIs400WithDidYouMean) {
  HttpResponse r = Get("/api/v1/gpu/4090x");
  EXPECT_EQ(r.status, 400);
  json e = ErrorOf(r);
  EXPECT_EQ(e["code"], "unknown_name");
  EXPECT_EQ(e["message"], "unknown GPU `4090x`");
  EXPECT_EQ(e["hint"], "did you mean `GeForce RTX 4090`?");
  EXPECT_EQ(e["candidates"], json::array({"GeForce RTX 4090"}));
}

TEST(Api, AmbiguousNameListsCandidates) {
  json e = ErrorOf(Get("/api/v1/fit?model=llama&gpu=4090"));
  EXPECT_EQ(e["code"], "ambiguous_name");
  EXPECT_EQ(e["candidates"], json::array({"LLaMA 7B", "LLaMA 13B", "LLaMA 30B (33B)", "LLaMA 65B"}));
}

TEST(Api, NumbersOutOfRange) {
  HttpResponse r = Get("/api/v1/recommend?gpu=4090&ram=-5");
  EXPECT_EQ(r.status, 400);
  json e = ErrorOf(r);
  EXPECT_EQ(e["code"], "out_of_range");
  EXPECT_EQ(e["message"], "`--ram -5` is out of range");
  EXPECT_EQ(ErrorOf(Get("/api/v1/recommend?gpu=4090&top=lots"))["code"], "bad_number");
  EXPECT_EQ(ErrorOf(Get("/api/v1/recommend?gpu=4090&ram=nan"))["code"], "bad_number");
}

TEST(Api, UnknownParameterSuggestsTheClosest) {
  json e = ErrorOf(Get("/api/v1/recommend?gpu=4090&workoad=coding"));
  EXPECT_EQ(e["code"], "unknown_parameter");
  EXPECT_EQ(e["message"], "/api/v1/recommend takes no parameter `workoad`");
  EXPECT_EQ(e["hint"], "did you mean `workload`?");
}

TEST(Api, NoParameterReachesTheFileSystem) {
  for (const char* p : {"data=/etc", "rules=/tmp", "format=csv", "json=", "help="}) {
    HttpResponse r = Get(std::string("/api/v1/recommend?gpu=4090&") + p);
    EXPECT_EQ(r.status, 400) << p;
    EXPECT_EQ(ErrorOf(r)["code"], "unknown_parameter") << p;
  }
  EXPECT_EQ(ErrorOf(Get("/api/v1/estimate?gpu=4090&model-config=/etc/passwd"))["code"],
            "unknown_parameter");
  // A value that looks like a flag stays a value.
  HttpResponse r = Get("/api/v1/recommend?gpu=--data=/etc");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorOf(r)["message"], "unknown GPU `--data=/etc`");
  HttpResponse g = Get("/api/v1/gpu/--help");
  EXPECT_EQ(ErrorOf(g)["code"], "unknown_name");
}

TEST(Api, NeverDetectsOrReadsTheServersOwnMachine) {
  // The CLI's detection and local-model flags describe the machine the command runs on: the
  // API has none of them, and a setup without a GPU (or `gpu=auto`) is refused, never probed.
  for (const char* p : {"sysroot=/", "probe-timeout-ms=60000", "free-memory=", "installed=",
                        "model-gguf=/etc/passwd"}) {
    HttpResponse r = Get(std::string("/api/v1/recommend?gpu=4090&") + p);
    EXPECT_EQ(r.status, 400) << p;
    EXPECT_EQ(ErrorOf(r)["code"], "unknown_parameter") << p;
  }
  EXPECT_EQ(ErrorOf(Get("/api/v1/fit?model=llama%203.1%208b&gpu=4090&model-gguf=/etc/passwd"))
                ["code"],
            "unknown_parameter");
  for (const char* path : {"/api/v1/recommend", "/api/v1/upgrade?budget=2000",
                           "/api/v1/estimate?model=llama%203.1%208b",
                           "/api/v1/fit?model=llama%203.1%208b"}) {
    HttpResponse r = Get(path);
    EXPECT_EQ(r.status, 400) << path;
    EXPECT_EQ(ErrorOf(r)["code"], "missing_parameter") << path;
  }
  json e = ErrorOf(Get("/api/v1/recommend"));
  EXPECT_EQ(e["message"], "/api/v1/recommend needs `gpu`: a GPU name or id, repeated for a mixed rig");
  HttpResponse a = Get("/api/v1/fit?model=llama%203.1%208b&gpu=auto");
  EXPECT_EQ(a.status, 400);
  EXPECT_EQ(ErrorOf(a)["code"], "bad_input");
  // The pages ask the API: a recommend page without a GPU is a 400 page, not this server's GPUs.
  EXPECT_EQ(Get("/recommend?workload=coding").status, 400);
  EXPECT_EQ(Get("/api/v1/recommend?gpu=4090").status, 200);
}

TEST(Api, MissingPositional) {
  json e = ErrorOf(Get("/api/v1/fit?gpu=4090"));
  EXPECT_EQ(e["code"], "missing_parameter");
  EXPECT_EQ(e["message"], "/api/v1/fit needs `model`: a model name or id");
}

TEST(Api, UnknownPathsAre404) {
  HttpResponse r = Get("/api/v1/gpus/4090");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(ErrorOf(r)["code"], "not_found");
  EXPECT_EQ(Get("/api/v2/gpu/4090").status, 404);
  EXPECT_EQ(Get("/api/v1/gpu/4090/extra").status, 404);
}

TEST(Api, BadQueryIs400NeverA500) {
  for (const char* t : {"/api/v1/recommend?gpu=%ZZ", "/api/v1/recommend?gpu=%00",
                        "/api/v1/gpu/%FF", "/api/v1/gpu/a%2Fb", "/api/v1/compare?gpu=4090",
                        "/api/v1/compare?gpu=4090&gpu=4090", "/api/v1/upgrade",
                        "/api/v1/catalog/show", "/api/v1/recommend?gpu=4090&mode=fast",
                        "/api/v1/recommend?gpu=4090&gpus=1000"}) {
    HttpResponse r = Get(t);
    EXPECT_EQ(r.status, 400) << t << "\n" << r.body;
    EXPECT_FALSE(ErrorOf(r)["message"].get<std::string>().empty()) << t;
  }
}

TEST(Api, ReloadFromLoopbackOnly) {
  HttpResponse far = Post("/api/v1/reload", /*loopback=*/false);
  EXPECT_EQ(far.status, 403);
  EXPECT_EQ(ErrorOf(far)["code"], "forbidden");
  HttpResponse near = Post("/api/v1/reload");
  EXPECT_EQ(near.status, 200) << near.body;
  EXPECT_EQ(json::parse(near.body)["reloaded"], true);
  EXPECT_EQ(Get("/api/v1/gpu/4090").status, 200);  // serves on the new snapshot
}

TEST(Api, OtherMethodsAre405) {
  HttpResponse r = TestApp().Handle({"DELETE", "/api/v1/gpu/4090", true, ""});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "GET, HEAD");
  EXPECT_EQ(Post("/api/v1/gpu/4090").status, 405);
}

}  // namespace
}  // namespace fitrank::cli::serve
