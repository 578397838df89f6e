// Snapshot swaps: a reload with errors keeps the old snapshot and returns its diagnostics; a
// request in flight finishes on the snapshot it started with.
#include <atomic>
#include <memory>

#include "nlohmann/json.hpp"
#include "serve_test_util.h"

namespace fitrank::cli::serve {
namespace {

// A snapshot whose commands answer {"snapshot": name}, and call `during` first if set.
std::shared_ptr<const Snapshot> Fake(std::string name, std::function<void()> during = nullptr) {
  auto s = std::make_shared<Snapshot>();
  s->loaded_at = name;
  s->modes = {{"balanced", "Balanced", ""}};
  s->default_mode = "balanced";
  s->run = [name, during](const std::vector<std::string>&, std::ostream& out, std::ostream&,
                          UsageProblem*) {
    if (during) during();
    out << "{\"snapshot\": \"" << name << "\"}\n";
    return 0;
  };
  return s;
}

TEST(Reload, FailureKeepsTheOldSnapshotAndReportsWhere) {
  int loads = 0;
  App app([&](std::string* diagnostics) -> std::shared_ptr<const Snapshot> {
    if (++loads == 1) return Fake("first");
    *diagnostics = "catalog/gpus.yaml:3:7: error: expected a number\n";
    return nullptr;
  });
  ASSERT_TRUE(app.ok());
  std::string diags;
  EXPECT_FALSE(app.Reload(&diags));
  EXPECT_EQ(diags, "catalog/gpus.yaml:3:7: error: expected a number\n");
  EXPECT_EQ(app.Current()->loaded_at, "first");
  HttpResponse r = app.Handle({"POST", "/api/v1/reload", true, ""});
  EXPECT_EQ(r.status, 400);
  nlohmann::json e = nlohmann::json::parse(r.body)["error"];
  EXPECT_EQ(e["code"], "reload_failed");
  EXPECT_EQ(e["hint"], "catalog/gpus.yaml:3:7: error: expected a number\n");
  EXPECT_EQ(nlohmann::json::parse(app.Handle({"GET", "/api/v1/catalog/quants", true, ""}).body),
            nlohmann::json({{"snapshot", "first"}}));
}

TEST(Reload, RequestInFlightFinishesOnItsSnapshot) {
  App* app_ptr = nullptr;
  int loads = 0;
  App app([&](std::string*) -> std::shared_ptr<const Snapshot> {
    if (++loads == 1) {
      // Its command reloads the app while the request is being answered.
      return Fake("old", [&] {
        std::string d;
        EXPECT_TRUE(app_ptr->Reload(&d));
      });
    }
    return Fake("new");
  });
  app_ptr = &app;
  HttpResponse during = app.Handle({"GET", "/api/v1/catalog/quants", true, ""});
  EXPECT_EQ(nlohmann::json::parse(during.body), nlohmann::json({{"snapshot", "old"}}));
  HttpResponse after = app.Handle({"GET", "/api/v1/catalog/quants", true, ""});
  EXPECT_EQ(nlohmann::json::parse(after.body), nlohmann::json({{"snapshot", "new"}}));
  EXPECT_EQ(loads, 2);
}

TEST(Reload, NoSnapshotAnswers503) {
  App app([](std::string* d) -> std::shared_ptr<const Snapshot> {
    *d = "profiles/modes.yaml:1:1: error: broken\n";
    return nullptr;
  });
  EXPECT_FALSE(app.ok());
  EXPECT_EQ(app.diagnostics(), "profiles/modes.yaml:1:1: error: broken\n");
  EXPECT_EQ(app.Handle({"GET", "/", true, ""}).status, 503);
}

}  // namespace
}  // namespace fitrank::cli::serve
