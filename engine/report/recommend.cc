// BuildRecommendReport and the picks shared with the GPU page.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/report/builders.h"
#include "engine/report/picks.h"
#include "engine/report/grader.h"

namespace fitrank {

namespace {

// The threads recommend's ranking runs on (Evaluator::RankGroups): the calling one and a
// helper. Two because the ranking is ~3/4 of the command's instructions and the second core
// idles meanwhile; more would only queue on a 2-core machine. Measured (docs/SPEED.md): the
// main thread's 47 M -> 28 M instructions; on the idle 2-core VM wall 0.85x (7 -> 6 ms
// median, paired) for 1.03x the CPU; on a loaded machine the helper waits for a core and
// costs ~7% more CPU for the same wall.
constexpr int kRankThreads = 2;

bool HasCapability(const Model& m, const std::string& cap) {
  return std::find(m.capabilities.begin(), m.capabilities.end(), cap) != m.capabilities.end();
}

// How many picks to ask the ranker for: more than k when filters will drop some.
int PicksToAsk(int k, int min_grade, const std::string& capability) {
  return (min_grade < 0 && capability.empty()) ? k : 10000;
}

// RankedPicks' filters over the ranker's picks `all` for `workload`.
std::vector<Pick> FilteredPicks(std::vector<Pick> all, const Workload& workload, int k,
                                int min_grade, const std::string& capability, int* excluded) {
  std::vector<Pick> out;
  int dropped = 0;
  for (Pick& p : all) {
    if (min_grade >= 0 && (p.grade_index < 0 || p.grade_index > min_grade)) {
      ++dropped;
      continue;
    }
    if (!capability.empty() && (p.model == nullptr || !HasCapability(*p.model, capability))) {
      ++dropped;
      continue;
    }
    if (static_cast<int>(out.size()) >= k) continue;
    p.workload = &workload;
    p.rank = static_cast<int>(out.size()) + 1;
    out.push_back(std::move(p));
  }
  if (excluded != nullptr) *excluded += dropped;
  return out;
}

}  // namespace

std::vector<Pick> RankedPicks(const ReportEnv& env, const Setup& setup,
                              const Workload& workload, const Mode& mode, int k,
                              int min_grade, const std::string& capability,
                              int* excluded) {
  return FilteredPicks(
      env.grader->Rank(setup, workload, mode, PicksToAsk(k, min_grade, capability)), workload,
      k, min_grade, capability, excluded);
}

absl::StatusOr<RecommendReport> BuildRecommendReport(const ReportEnv& env, const Setup& setup,
                                                     const RecommendQuery& q) {
  RecommendReport r;
  r.setup = ViewOf(env, setup);
  r.mode = q.mode;
  r.grades = &env.profiles->grades();
  for (const Model& m : env.catalog->models()) r.candidates += IsAssistantModel(m);
  // Every workload asked for (`--workload all`: five) ranked in one pass over the models,
  // the models shared between two threads: this ranking is most of the command's time, and
  // nothing else runs beside it.
  std::vector<std::vector<Pick>> ranked = env.grader->RankEach(
      setup, q.workloads, *q.mode, PicksToAsk(q.top_k, q.min_grade, q.capability),
      kRankThreads);
  for (size_t i = 0; i < q.workloads.size(); ++i) {
    const Workload* wl = q.workloads[i];
    WorkloadPicks wp;
    wp.workload = wl;
    wp.picks = FilteredPicks(std::move(ranked[i]), *wl, q.top_k, q.min_grade, q.capability,
                             &r.excluded);
    if (wp.picks.empty()) {
      const ReportPolicy& pol = *env.policy;
      r.notes.push_back(pol.Note(
          "recommend.no-pick",
          {{"workload", wl->name},
           {"setup", setup.label},
           {"min_grade",
            q.min_grade < 0
                ? std::string()
                : pol.Note("recommend.no-pick.min-grade",
                           {{"grade", env.profiles->grades().grades[q.min_grade].letter}})},
           {"capability",
            q.capability.empty()
                ? std::string()
                : pol.Note("recommend.no-pick.capability", {{"capability", q.capability}})}}));
    }
    r.workloads.push_back(std::move(wp));
  }
  return r;
}

}  // namespace fitrank
