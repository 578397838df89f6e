#include "cli/serve/snapshot.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/diagnostics.h"
#include "base/file_source.h"

namespace fitrank::cli::serve {

std::shared_ptr<const Snapshot> LoadSnapshot(const std::string& data_dir,
                                             const std::string& rules_dir,
                                             std::string* diagnostics) {
  EngineSources sources;
  std::error_code ec;
  if (!data_dir.empty() && !std::filesystem::is_directory(data_dir, ec)) {
    *diagnostics = absl::StrCat("fitrank serve: error: data directory `", data_dir,
                                "` does not exist\n");
    return nullptr;
  }
  sources.data = DefaultSource(data_dir);
  if (!rules_dir.empty()) {
    if (!std::filesystem::is_directory(rules_dir, ec)) {
      *diagnostics = absl::StrCat("fitrank serve: error: local rules directory `", rules_dir,
                                  "` does not exist\n");
      return nullptr;
    }
    sources.local_rules = std::make_shared<DiskSource>(rules_dir);
  }
  Diagnostics diags;
  std::shared_ptr<const Engine> engine = Engine::Load(sources, &diags);
  if (engine == nullptr) {
    *diagnostics = absl::StrCat(diags.Render(), "fitrank serve: ", diags.error_count(),
                                diags.error_count() == 1 ? " error" : " errors",
                                " in the data and rules; nothing was loaded\n");
    return nullptr;
  }

  auto snap = std::make_shared<Snapshot>();
  snap->engine = engine;
  const Profiles& profiles = engine->profiles();
  for (const Mode& m : profiles.modes()) snap->modes.push_back({m.id, m.name, m.description});
  for (const Workload& w : profiles.workloads()) {
    snap->workloads.push_back({w.id, w.name, w.description});
  }
  snap->default_mode = profiles.default_mode().id;
  for (const Gpu& g : engine->catalog().gpus()) snap->gpu_names.push_back(g.name);
  for (const Model& m : engine->catalog().models()) snap->model_names.push_back(m.name);
  snap->run = [engine](const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
                       UsageProblem* problem) {
    RunOptions options;
    options.engine = engine;
    options.problem = problem;
    return RunCli(argv, out, err, options);
  };
  snap->loaded_at = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  return snap;
}

}  // namespace fitrank::cli::serve
