// BuildGpuReport: the whole GPU page.
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/quantities.h"
#include "engine/report/advisor.h"
#include "engine/report/capability.h"
#include "engine/report/builders.h"
#include "engine/report/picks.h"
#include "engine/report/scaling.h"
#include "engine/report/traits.h"

namespace fitrank {

namespace {

// What the mode changes, one phrase per change (reports.yaml gpu.mode.*).
std::vector<std::string> ModeChanges(const ReportPolicy& pol, const Mode& m) {
  std::vector<std::string> changes;
  for (const SetWeight& w : m.multipliers) {
    changes.push_back(
        pol.Note("gpu.mode.weight", {{"set", w.set}, {"factor", FormatFactor(w.value)}}));
  }
  if (m.concurrency > 1) {
    changes.push_back(pol.Note("gpu.mode.concurrency", {{"count", m.concurrency}}));
  }
  if (m.decode_target_scale != 1) {
    changes.push_back(
        pol.Note("gpu.mode.decode-target", {{"factor", FormatFactor(m.decode_target_scale)}}));
  }
  if (m.ttft_target_scale != 1) {
    changes.push_back(
        pol.Note("gpu.mode.ttft-target", {{"factor", FormatFactor(m.ttft_target_scale)}}));
  }
  if (m.context_scale != 1) {
    changes.push_back(pol.Note("gpu.mode.context", {{"factor", FormatFactor(m.context_scale)}}));
  }
  if (!m.gpu_counts.empty()) {
    changes.push_back(
        pol.Note("gpu.mode.gpu-counts", {{"counts", absl::StrJoin(m.gpu_counts, "/")}}));
  }
  if (!m.parallelism.empty()) {
    changes.push_back(pol.Note("gpu.mode.parallelism", {{"parallelism", m.parallelism}}));
  }
  return changes;
}

}  // namespace

absl::StatusOr<GpuReport> BuildGpuReport(const ReportEnv& env, const Setup& setup,
                                         const Mode& mode) {
  const Gpu& gpu = *setup.devices.front().gpu;
  GpuReport r;
  r.grades = &env.profiles->grades();
  r.specs = SpecsOf(env, gpu);
  r.setup = ViewOf(env, setup);
  r.mode = &mode;
  r.mode_changes = ModeChanges(*env.policy, mode);
  // One full ranking per workload is most of the page's work. The rankings are independent of
  // each other and of the blocks below (the builders only read the env; the grader is
  // thread-safe), so every other one runs on a second thread while this one does the rest.
  const std::vector<Workload>& workloads = env.profiles->workloads();
  r.recommendations.resize(workloads.size());
  auto rank = [&](size_t i) {
    WorkloadPicks& wp = r.recommendations[i];
    wp.workload = &workloads[i];
    wp.picks = RankedPicks(env, setup, workloads[i], mode, env.policy->picks_per_workload);
  };
  std::thread helper([&] {
    for (size_t i = 0; i < workloads.size(); i += 2) rank(i);
  });
  for (size_t i = 1; i < workloads.size(); i += 2) rank(i);
  r.capability_matrix = BuildCapabilityMatrix(env, setup, mode);
  r.out_of_reach = BuildOutOfReach(env, setup, mode);
  r.diffusion = BuildDiffusionSummary(env, setup);
  r.multi_gpu = BuildScaling(env, gpu, setup, mode);
  UpgradeQuery uq;
  // The workload "just out of reach" counts at, so that the two blocks agree.
  uq.workload = env.policy->count_workload.found;
  uq.mode = &mode;
  absl::StatusOr<UpgradeReport> up = BuildUpgradeReport(env, setup, uq);
  helper.join();
  if (up.ok()) {
    for (OutOfReach& o : r.out_of_reach) {
      for (const UpgradeOption& opt : up->options) {
        if (!o.unlocked_by.empty() && opt.price_usd >= o.unlocked_by_usd) continue;
        for (const UnlockedModel& u : opt.unlocks) {
          if (u.model_id != o.model_id) continue;
          o.unlocked_by = opt.action;
          o.unlocked_by_usd = opt.price_usd;
        }
      }
    }
    r.upgrades = up->options;
    if (r.upgrades.size() > 5) r.upgrades.resize(5);
  }
  r.buying_advice = BuildBuyingAdvice(env, setup, mode, r, up.ok() ? *up : UpgradeReport{});
  // Last: the trait rules read every block above (buying advice included).
  ReportTraits::GpuSentences said = env.traits->GpuTraits(env, setup, r);
  for (RuleSentence& s : said.strengths) {
    r.strengths.push_back(std::move(s.text));
    r.strength_rules.push_back(std::move(s.rule_id));
  }
  for (RuleSentence& s : said.considerations) {
    r.considerations.push_back(std::move(s.text));
    r.consideration_rules.push_back(std::move(s.rule_id));
  }
  for (RuleSentence& s : said.red_flags) r.buying_advice.red_flags.push_back(std::move(s.text));
  if (said.limiter) {
    const std::string& id = said.limiter->rule_id;
    r.buying_advice.limiter_id = id.substr(id.find('.') + 1);
    r.buying_advice.limiter = std::move(said.limiter->text);
  }
  return r;
}

}  // namespace fitrank
