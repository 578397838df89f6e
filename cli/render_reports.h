// Renderers of the user-facing reports: terminal table (colour per Style), JSON (documented,
// stable keys: see README "JSON"), markdown, and CSV where rows make sense. Pure functions of
// the report structs; they never compute anything the engine did not put in the report.
#ifndef FITRANK_CLI_RENDER_REPORTS_H_
#define FITRANK_CLI_RENDER_REPORTS_H_

#include <ostream>

#include "cli/command.h"
#include "cli/render_doc.h"
#include "cli/render_json.h"
#include "cli/render_text.h"
#include "engine/report/compare.h"
#include "engine/report/estimate.h"
#include "engine/report/fit.h"
#include "engine/report/gpu.h"
#include "engine/report/recommend.h"
#include "engine/report/upgrade.h"

namespace fitrank::cli {

Json RecommendJson(const RecommendReport& r);
Json GpuJson(const GpuReport& r);
Json FitJson(const FitReport& r);
Json UpgradeJson(const UpgradeReport& r);
Json CompareJson(const CompareReport& r);
// Keys sorted (nlohmann::json), as `estimate --json` has always printed them.
nlohmann::json EstimateJson(const EstimateReport& r);

// Table / markdown / CSV / JSON (kJsonl prints compact one-line JSON).
void RenderRecommend(const RecommendReport& r, OutputFormat f, const Style& s, std::ostream& out);
void RenderGpu(const GpuReport& r, OutputFormat f, const Style& s, std::ostream& out);
void RenderFit(const FitReport& r, OutputFormat f, const Style& s, std::ostream& out);
void RenderUpgrade(const UpgradeReport& r, OutputFormat f, const Style& s, std::ostream& out);
void RenderCompare(const CompareReport& r, OutputFormat f, const Style& s, std::ostream& out);
void RenderEstimate(const EstimateReport& r, OutputFormat f, const Style& s, std::ostream& out);

// The picks table shared by recommend and the GPU page; `grades` names their grade_index.
TextTable PicksTable(const std::vector<Pick>& picks, const GradeScale* grades, const Style& s);
// "Why" lines of each pick (reasons, run command), indented; in markdown a subsection each.
void PrintPickDetails(const std::vector<Pick>& picks, Doc& doc);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RENDER_REPORTS_H_
