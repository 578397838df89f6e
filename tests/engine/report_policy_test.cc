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

TEST(ReportPolicy, GradeOrder) {
  EXPECT_TRUE(ReportPolicy::GradeAtLeast("A", "B"));
  EXPECT_TRUE(ReportPolicy::GradeAtLeast("B", "B"));
  EXPECT_FALSE(ReportPolicy::GradeAtLeast("C", "B"));
  EXPECT_FALSE(ReportPolicy::GradeAtLeast("", "B"));
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

}  // namespace
}  // namespace fitrank
