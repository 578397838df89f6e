// Reload from files on disk: an edit shows up after a reload, a broken file is reported with
// its location and the old snapshot keeps serving.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "nlohmann/json.hpp"
#include "serve_test_util.h"
#include "tests/scratch_dir.h"

namespace fitrank::cli::serve {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(ReloadFiles, EditsShowAfterReloadAndBrokenFilesKeepTheOldSnapshot) {
  const fs::path dir = fitrank::testing::ScratchDir("serve_reload");
  const std::string modes = ReadFile(fs::path(FITRANK_SOURCE_DIR) / "profiles/modes.yaml");
  ASSERT_NE(modes.find("    name: Balanced\n"), std::string::npos);
  WriteFile(dir / "profiles/modes.yaml", modes);
  App app([&](std::string* d) { return LoadSnapshot(dir.string(), "", d); });
  ASSERT_TRUE(app.ok()) << app.diagnostics();
  auto mode_name = [&] {
    HttpResponse r = app.Handle({"GET", "/api/v1/gpu/4090", true, ""});
    return nlohmann::json::parse(r.body)["mode"]["name"].get<std::string>();
  };
  EXPECT_EQ(mode_name(), "Balanced");

  std::string edited = modes;
  edited.replace(edited.find("    name: Balanced\n"), 19, "    name: Even-handed\n");
  WriteFile(dir / "profiles/modes.yaml", edited);
  HttpResponse ok = app.Handle({"POST", "/api/v1/reload", true, ""});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(mode_name(), "Even-handed");

  WriteFile(dir / "profiles/modes.yaml", "schema: fitrank.profiles/v1\nkind: modes\nmodes: [\n");
  HttpResponse bad = app.Handle({"POST", "/api/v1/reload", true, ""});
  EXPECT_EQ(bad.status, 400);
  nlohmann::json e = nlohmann::json::parse(bad.body)["error"];
  EXPECT_EQ(e["code"], "reload_failed");
  // The diagnostics name the file with line and column.
  EXPECT_NE(e["hint"].get<std::string>().find((dir / "profiles/modes.yaml").string() + ":"),
            std::string::npos)
      << e["hint"];
  EXPECT_EQ(mode_name(), "Even-handed");  // still the last good snapshot
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fitrank::cli::serve
