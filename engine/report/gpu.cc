// BuildGpuReport: the whole GPU page.
#include <algorithm>
#include <atomic>
#include <functional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/quantities.h"
#include "base/thread.h"
#include "engine/report/advisor.h"
#include "engine/report/capability.h"
#include "engine/report/grader.h"
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
  // The page's blocks are independent of each other (the builders only read the env; the
  // grader is thread-safe): two threads take them in turn, the heaviest first (the upgrade
  // survey, ~a quarter of the page; then the workload rankings), so that neither thread waits
  // long for the other. Each block writes only its own part of the report.
  const std::vector<Workload>& workloads = env.profiles->workloads();
  r.recommendations.resize(workloads.size());
  absl::StatusOr<UpgradeReport> up = absl::UnknownError("not built");
  std::vector<std::function<void()>> blocks;
  blocks.push_back([&] {
    UpgradeQuery uq;
    // The workload "just out of reach" counts at, so that the two blocks agree.
    uq.workload = env.policy->count_workload.found;
    uq.mode = &mode;
    up = BuildUpgradeReport(env, setup, uq);
  });
  // Workloads whose estimates share their sizing (SizingKeyOf) are ranked in one pass over
  // the models (Grader::RankEach), each other workload alone.
  std::vector<std::vector<size_t>> rank_groups;
  std::vector<std::pair<int, int>> group_shape;  // SizingKeyOf each group
  for (size_t i = 0; i < workloads.size(); ++i) {
    const std::pair<int, int> key = SizingKeyOf(ShapeFor(workloads[i], mode));
    size_t g = 0;
    while (g < group_shape.size() && group_shape[g] != key) ++g;
    if (g == group_shape.size()) {
      group_shape.push_back(key);
      rank_groups.emplace_back();
    }
    rank_groups[g].push_back(i);
  }
  std::stable_sort(rank_groups.begin(), rank_groups.end(),  // the biggest block first
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const std::vector<size_t>& group : rank_groups) {
    blocks.push_back([&] {
      std::vector<const Workload*> ws;
      for (size_t i : group) ws.push_back(&workloads[i]);
      std::vector<std::vector<Pick>> picks =
          env.grader->RankEach(setup, ws, mode, env.policy->picks_per_workload);
      for (size_t j = 0; j < group.size(); ++j) {
        WorkloadPicks& wp = r.recommendations[group[j]];
        wp.workload = ws[j];
        wp.picks = std::move(picks[j]);
      }
    });
  }
  blocks.push_back([&] { r.buying_advice = BuildBuyingVerdict(env, setup, mode); });
  blocks.push_back([&] { r.out_of_reach = BuildOutOfReach(env, setup, mode); });
  blocks.push_back([&] { r.multi_gpu = BuildScaling(env, gpu, setup, mode); });
  blocks.push_back([&] { r.capability_matrix = BuildCapabilityMatrix(env, setup, mode); });
  blocks.push_back([&] { r.diffusion = BuildDiffusionSummary(env, setup); });
  std::atomic<size_t> next_block{0};
  auto build_blocks = [&] {
    for (size_t b; (b = next_block.fetch_add(1)) < blocks.size();) blocks[b]();
  };
  Thread helper(build_blocks);
  build_blocks();
  helper.Join();
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
    const size_t shown = static_cast<size_t>(env.policy->gpu_page_upgrade_options);
    if (r.upgrades.size() > shown) r.upgrades.resize(shown);
    AddItinerary(*env.policy, *up, &r.buying_advice);
  }
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
