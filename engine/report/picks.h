// Ranked picks for one workload and mode on a setup, shared by `recommend`, the GPU page and
// `compare`: the scoring engine's ranking, filtered by minimum grade and capability, with run
// commands filled in.
#ifndef FITRANK_ENGINE_REPORT_PICKS_H_
#define FITRANK_ENGINE_REPORT_PICKS_H_

#include <string>
#include <vector>

#include "engine/report/env.h"

namespace fitrank {

// At most `k` picks, ranks 1..k; `min_grade` (an index into the profiles' grade scale, -1
// none) drops picks graded worse. `excluded` (optional) is increased by the number of
// candidates the filters dropped.
std::vector<Pick> RankedPicks(const ReportEnv& env, const Setup& setup,
                              const Workload& workload, const Mode& mode, int k,
                              int min_grade = -1,
                              const std::string& capability = "", int* excluded = nullptr);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_PICKS_H_
