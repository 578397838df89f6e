// The ranked-picks report (`fitrank recommend --gpu G`). Plain structs, filled by
// engine/recommend.cc, rendered by cli/render_recommend.cc.
#ifndef FITRANK_ENGINE_REPORT_RECOMMEND_H_
#define FITRANK_ENGINE_REPORT_RECOMMEND_H_

#include <string>
#include <vector>

#include "engine/report/report.h"
#include "engine/report/gpu.h"

namespace fitrank {

struct RecommendReport {
  SetupView setup;
  const Mode* mode = nullptr;            // the profiles'
  const GradeScale* grades = nullptr;    // the profiles' scale the picks' grade_index points into
  std::vector<WorkloadPicks> workloads;  // one entry, or all five with --workload all
  int candidates = 0;                    // models considered
  int excluded = 0;                      // filtered out by --min-grade / --capability / gates
  std::vector<std::string> notes;        // e.g. "nothing reaches grade B; showing the best"
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_RECOMMEND_H_
