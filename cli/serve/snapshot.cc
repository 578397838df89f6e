#include "cli/serve/snapshot.h"

#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "profiles/profiles.h"

namespace fitrank::cli::serve {

std::shared_ptr<const Snapshot> LoadSnapshot(const std::string& data_dir,
                                             const std::string& rules_dir,
                                             std::string* diagnostics) {
  auto snap = std::make_shared<Snapshot>();
  std::shared_ptr<const FileSource> data = DefaultSource(data_dir);
  Diagnostics diags;
  std::unique_ptr<Profiles> profiles = Profiles::Load(*data, &diags);
  if (profiles == nullptr || diags.HasErrors()) {
    *diagnostics = diags.Render();
    return nullptr;
  }
  for (const Mode& m : profiles->modes()) snap->modes.push_back({m.id, m.name, m.description});
  for (const Workload& w : profiles->workloads()) {
    snap->workloads.push_back({w.id, w.name, w.description});
  }
  snap->default_mode = profiles->default_mode().id;

  // Until the engine snapshot (engine/engine.h) is wired in, commands run on RunCli's
  // per-process caches: the data and rules directories are passed as flags.
  std::vector<std::string> extra;
  if (!data_dir.empty()) extra.push_back(absl::StrCat("--data=", data_dir));
  (void)rules_dir;
  snap->run = [extra](const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
                      UsageProblem* problem) {
    std::vector<std::string> a = argv;
    auto dashes = std::find(a.begin(), a.end(), "--");
    a.insert(dashes, extra.begin(), extra.end());
    RunOptions o;
    o.problem = problem;
    return RunCli(a, out, err, o);
  };
  // Load everything once now (catalog, rules, traits), so that a broken file is reported
  // here with its location, not by the first request.
  std::ostringstream out, err;
  int code = snap->run({"fitrank", "gpu", "--json", "--", "RTX 4090"}, out, err, nullptr);
  if (code == 2 || code > 2) {
    *diagnostics = err.str();
    return nullptr;
  }
  for (auto [endpoint, names] : {std::pair{"catalog/gpus", &snap->gpu_names},
                                 std::pair{"catalog/models", &snap->model_names}}) {
    ApiResult r = CallApi(snap->run, endpoint, {});
    if (r.status != 200 || !r.json.is_array()) {
      *diagnostics = r.body;
      return nullptr;
    }
    for (const auto& e : r.json) names->push_back(e.value("name", ""));
  }
  snap->loaded_at = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  return snap;
}

}  // namespace fitrank::cli::serve
