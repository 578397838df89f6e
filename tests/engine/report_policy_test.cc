// engine/report/reports.yaml: the shipped policy loads; mistakes are reported with locations.
#include "engine/report/policy.h"

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace fitrank {
namespace {

std::string ShippedPolicy() {
  std::ifstream in(FITRANK_SOURCE_DIR "/engine/report/reports.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ReportPolicy, ShippedFileLoads) {
  Diagnostics diags;
  auto p = ParseReportPolicy(ShippedPolicy(), "engine/report/reports.yaml", &diags);
  ASSERT_TRUE(p.has_value()) << diags.Render();
  EXPECT_EQ(p->top_models_count, 50);
  EXPECT_EQ(p->capability_rows.size(), 8u);
  EXPECT_EQ(p->reference_models.size(), 4u);
  EXPECT_EQ(p->scale_out_counts, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(p->VerdictFor(41, 50).id, "excellent");
  EXPECT_EQ(p->VerdictFor(0, 50).id, "not-recommended");
  EXPECT_EQ(p->VerdictFor(0, 0).id, "not-recommended");
}

TEST(ReportPolicy, ReportsEveryProblem) {
  std::string text = ShippedPolicy();
  text.replace(text.find("count: 50"), 9, "count: -5");
  text.replace(text.find("source: product"), 15, "source: prodct");
  Diagnostics diags;
  EXPECT_FALSE(ParseReportPolicy(text, "engine/report/reports.yaml", &diags).has_value());
  std::string rendered = diags.Render();
  EXPECT_NE(rendered.find("engine/report/reports.yaml:"), std::string::npos);
  EXPECT_NE(rendered.find("out-of-range"), std::string::npos);
  EXPECT_NE(rendered.find("did you mean `product`?"), std::string::npos);
}

TEST(ReportPolicy, NotesFillTheirValues) {
  Diagnostics diags;
  auto p = ParseReportPolicy(ShippedPolicy(), "engine/report/reports.yaml", &diags);
  ASSERT_TRUE(p.has_value()) << diags.Render();
  EXPECT_EQ(p->Note("grade.capped", {{"grade", "C"}, {"rule", "fit.offload"}}),
            "(Grade capped at C by fit.offload.)");
  EXPECT_EQ(p->Note("upgrade.no-gain", {{"count", 8}, {"phrase", "agentic coding"}}),
            "8 purchases that unlock nothing for agentic coding are not listed.");
  EXPECT_EQ(p->Note("upgrade.unpriced.one", {{"count", 1.0}, {"names", "Tesla T4"}}),
            "1 part with price unknown (Tesla T4): not ranked without a price.");
  EXPECT_EQ(p->NoteFor("upgrade.unpriced")->max_names, 6);
  EXPECT_EQ(p->Note("fit.usable-share", {{"runtime", "vLLM"},
                                         {"share_pct", 90.0},
                                         {"usable", "21.3 GB"},
                                         {"setup_usable", "23.5 GB"}}),
            "vLLM takes 90% of device memory by default: 21.3 GB of the setup's 23.5 GB usable");
  EXPECT_DOUBLE_EQ(p->NoteFor("fit.usable-share")->min_gap_gb, 0.05);
  EXPECT_EQ(p->Note("no.such-note", {}), "");
}

TEST(ReportPolicy, NoteMistakesAreReported) {
  auto errors = [](const std::string& from, const std::string& to) {
    std::string text = ShippedPolicy();
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    Diagnostics diags;
    EXPECT_FALSE(ParseReportPolicy(text, "engine/report/reports.yaml", &diags).has_value());
    return diags.Render();
  };
  // A value the report does not pass, with the closest one it does.
  std::string r = errors("{usable} of the", "{usable_gb} of the");
  EXPECT_NE(r.find("note `fit.usable-share` has no value `usable_gb`"), std::string::npos) << r;
  EXPECT_NE(r.find("did you mean `usable`?"), std::string::npos) << r;
  // A malformed placeholder.
  r = errors("{rule}.)", "{rule:.9x}.)");
  EXPECT_NE(r.find("malformed placeholder"), std::string::npos) << r;
  // A note a report writes is missing; an id no report writes.
  r = errors("id: grade.capped", "id: grade.caped");
  EXPECT_NE(r.find("no report writes a note `grade.caped`"), std::string::npos) << r;
  EXPECT_NE(r.find("did you mean `grade.capped`?"), std::string::npos) << r;
  EXPECT_NE(r.find("no note `grade.capped`"), std::string::npos) << r;
}

}  // namespace
}  // namespace fitrank
