// JSON pieces shared by the report renderers. Keys are an interface (issue 5): add freely,
// rename none. Numbers are rounded for stable output; a value that is not finite is null.
#ifndef FITRANK_CLI_RENDER_JSON_H_
#define FITRANK_CLI_RENDER_JSON_H_

#include <ostream>

#include "engine/report/report.h"
#include "engine/report/gpu.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {

using Json = nlohmann::ordered_json;

// A key of every report's JSON (the first in recommend, gpu, fit, upgrade, compare; estimate
// sorts its keys): raised when a
// key is renamed or removed or its meaning changes; adding keys keeps it.
inline constexpr int kReportSchemaVersion = 1;

// `v` rounded to `decimals`; null when not finite.
Json JNum(double v, int decimals = 2);

// The id / display name of a profiles or catalog record a report points at ("" for none: an
// empty report).
template <class T>
std::string IdOf(const T* record) {
  return record != nullptr ? record->id : std::string();
}
template <class T>
std::string NameOf(const T* record) {
  return record != nullptr ? record->name : std::string();
}

// The letter of grade `index` of `scale` (the profiles' grade scale a report carries): "A"; ""
// when not graded (index -1) or without a scale.
std::string GradeLetter(const GradeScale* scale, int index);

Json SetupJson(const SetupView& s);
Json FitJson(const FitView& f);
// `grades`: the scale p.grade_index points into (the report's).
Json PickJson(const Pick& p, const GradeScale* grades);
Json AdviceJson(const AdviceItem& a);
Json SpecsJson(const SpecsView& s);
Json UpgradeOptionJson(const UpgradeOption& o);

// Pretty-printed with a trailing newline.
void PrintJson(std::ostream& out, const Json& j);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RENDER_JSON_H_
