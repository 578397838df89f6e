#include "cli/detect_setup.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/estimator/setup.h"

namespace fitrank::cli {

std::vector<FlagSpec> DetectFlagSpecs() {
  return {
      {"sysroot", "DIR", "read /proc and /sys under DIR (tests; default $FITRANK_SYSROOT or /)"},
      {"probe-timeout-ms", "MS", "kill a GPU tool that runs longer (100-60000, default 3000)"},
  };
}

std::vector<FlagSpec> DetectedSetupFlagSpecs() {
  std::vector<FlagSpec> f = {{"free-memory", "",
                              "with the detected setup: count only the GPUs' free memory (what "
                              "fits next to what runs now)"}};
  for (FlagSpec& d : DetectFlagSpecs()) f.push_back(std::move(d));
  return f;
}

DetectOptions DetectOptionsFromFlags(const Context& ctx) {
  DetectOptions o;
  std::optional<std::string> root = ctx.args.Get("sysroot");
  o.sysroot = SysrootFromFlagOrEnv(root ? &*root : nullptr);
  if (std::optional<int> ms = ctx.args.GetInt("probe-timeout-ms", 100, 60000))
    o.probe.timeout_ms = *ms;
  return o;
}

DetectedSetup BuildDetectedSetup(const Catalog& catalog, const Detection& detection,
                                 bool free_memory) {
  DetectedSetup s;
  std::vector<std::string> sources;
  for (const DetectedGpu& g : detection.gpus) {
    s.matches.push_back(MatchGpu(catalog, g));
    const Gpu* gpu = SetupGpu(s.matches.back(), g, free_memory);
    if (gpu == nullptr) continue;
    bool merged = false;
    for (DeviceGroup& d : s.devices) {
      if (d.gpu == gpu || (d.gpu->id == gpu->id && d.gpu->memory_gb == gpu->memory_gb)) {
        ++d.count;
        merged = true;
        break;
      }
    }
    if (!merged) s.devices.push_back({gpu, 1});
    if (std::find(sources.begin(), sources.end(), g.source) == sources.end())
      sources.push_back(g.source);
  }
  // The setup's host RAM is a size as sold (GiB, like --ram 64); /proc/meminfo gave GB.
  if (detection.host.ram_total_gb > 0) s.host_ram_gb = detection.host.ram_total_gb / kGbPerGib;
  s.summary = s.devices.empty() ? "no usable GPU" : SetupLabel(s.devices);
  if (!sources.empty()) absl::StrAppend(&s.summary, " (", absl::StrJoin(sources, ", "), ")");
  if (free_memory) absl::StrAppend(&s.summary, ", free memory only");
  if (s.host_ram_gb) absl::StrAppend(&s.summary, absl::StrFormat(", %.1f GB RAM", *s.host_ram_gb * kGbPerGib));
  return s;
}

}  // namespace fitrank::cli
