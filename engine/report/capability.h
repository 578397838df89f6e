// The AI capability matrix (LLM chat ~8B ... long video) and the diffusion compatibility
// summary of a setup, from the estimator. Which models represent each row is report policy
// (engine/report/reports.yaml `capability_matrix`).
#ifndef FITRANK_ENGINE_REPORT_CAPABILITY_H_
#define FITRANK_ENGINE_REPORT_CAPABILITY_H_

#include <vector>

#include "engine/report/env.h"
#include "engine/report/gpu.h"

namespace fitrank {

// One row per policy row, with its RunStatus (kUnknown when the catalog has none of the row's
// models).
std::vector<CapabilityRow> BuildCapabilityMatrix(const ReportEnv& env, const Setup& setup,
                                                 const Mode& mode);

// Every diffusion model of the catalog at its default resolution and steps.
DiffusionSummary BuildDiffusionSummary(const ReportEnv& env, const Setup& setup);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_CAPABILITY_H_
