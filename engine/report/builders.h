// Builders of the user-facing reports: pure functions of a ReportEnv and a query. They never
// print; cli/cmd_*.cc render what they return. Every builder returns a complete report or an
// InvalidArgument/NotFound status whose message is fit for the user ("no GPU setup in the
// catalog can run X"), never an empty report.
#ifndef FITRANK_ENGINE_REPORT_BUILDERS_H_
#define FITRANK_ENGINE_REPORT_BUILDERS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/report/compare.h"
#include "engine/report/env.h"
#include "engine/report/fit.h"
#include "engine/report/gpu.h"
#include "engine/report/recommend.h"
#include "engine/report/upgrade.h"

namespace fitrank {

// Queries carry the workload and mode the caller resolved (never null): a name is looked up
// once, where the user typed it.
struct FitQuery {
  const Model* model = nullptr;
  const Quant* quant = nullptr;   // null: the best quant for the setup
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
};
absl::StatusOr<FitReport> BuildFitReport(const ReportEnv& env, const Setup& setup,
                                         const FitQuery& q);

struct RecommendQuery {
  std::vector<const Workload*> workloads;  // several for --workload all
  const Mode* mode = nullptr;
  int top_k = 5;
  int min_grade = -1;                  // index into the profiles' grade scale; -1 = no filter
  std::string capability;              // "" = no filter; e.g. "tools", "vision"
};
absl::StatusOr<RecommendReport> BuildRecommendReport(const ReportEnv& env, const Setup& setup,
                                                     const RecommendQuery& q);

absl::StatusOr<GpuReport> BuildGpuReport(const ReportEnv& env, const Setup& setup,
                                         const Mode& mode);

struct UpgradeQuery {
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
  double budget_usd = 0;               // 0 = no budget
};
absl::StatusOr<UpgradeReport> BuildUpgradeReport(const ReportEnv& env, const Setup& setup,
                                                 const UpgradeQuery& q);

struct CompareQuery {
  std::vector<const Gpu*> gpus;        // two or more, distinct
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
};
absl::StatusOr<CompareReport> BuildCompareReport(const ReportEnv& env, const Setup* host_like,
                                                 const CompareQuery& q);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_BUILDERS_H_
