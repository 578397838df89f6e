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
  EXPECT_EQ(p->gpu_page_upgrade_options, 5);
  EXPECT_LE(p->gpu_page_upgrade_options, p->max_upgrade_options);
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

// The GPU page's share of the upgrade options: a whole number 1-100, at most `max_options`,
// and missing it is an error at the `upgrade:` map, each with its place in the file.
TEST(ReportPolicy, GpuPageUpgradeOptionsAreChecked) {
  auto load = [](const std::string& from, const std::string& to, Diagnostics* diags) {
    std::string text = ShippedPolicy();
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return ParseReportPolicy(text, "engine/report/reports.yaml", diags);
  };
  {
    Diagnostics diags;
    auto p = load("gpu_page_options: 5", "gpu_page_options: 3", &diags);
    ASSERT_TRUE(p.has_value()) << diags.Render();
    EXPECT_EQ(p->gpu_page_upgrade_options, 3);
  }
  for (const char* bad : {"gpu_page_options: 0", "gpu_page_options: 101",
                          "gpu_page_options: 13", "gpu_page_options: five"}) {
    Diagnostics diags;
    EXPECT_FALSE(load("gpu_page_options: 5", bad, &diags).has_value()) << bad;
    const std::string r = diags.Render();
    EXPECT_NE(r.find("engine/report/reports.yaml:90:21: error:"), std::string::npos)
        << bad << "\n" << r;
  }
  Diagnostics diags;
  EXPECT_FALSE(load("gpu_page_options: 5", "gpu_page_options: 13", &diags).has_value());
  EXPECT_NE(diags.Render().find("`gpu_page_options` is 13, more than the 12 options "
                                "`max_options` lists [out-of-range]"),
            std::string::npos)
      << diags.Render();
  Diagnostics missing;
  EXPECT_FALSE(load("  gpu_page_options: 5", "", &missing).has_value());
  EXPECT_NE(missing.Render().find("gpu_page_options"), std::string::npos) << missing.Render();
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

// The sentences the report builders used to compose in C++, from reports.yaml now: the
// wording and number formats the builders had (the goldens do not reach these ones).
TEST(ReportPolicy, NotesSayWhatTheBuildersSaid) {
  Diagnostics diags;
  auto p = ParseReportPolicy(ShippedPolicy(), "engine/report/reports.yaml", &diags);
  ASSERT_TRUE(p.has_value()) << diags.Render();
  EXPECT_EQ(p->Note("upgrade.action.host-ram", {{"gb", 128}}), "Host RAM to 128 GB");
  EXPECT_EQ(p->Note("upgrade.price.socket-ram", {{"gb", 64.0}, {"usd_per_gb", 4.0}}),
            " + 64 GB RAM at $4.00/GB");
  EXPECT_EQ(p->Note("upgrade.price.host-ram", {{"usd_per_gb", 4.0}, {"source", "DDR5 kits"}}),
            "$4.00/GB (DDR5 kits)");
  EXPECT_EQ(p->Note("upgrade.action.add-same", {{"count", 1}, {"gpu", "X"}, {"total", 2}}),
            "Add 1 more X (2 in total)");
  EXPECT_EQ(p->Note("upgrade.step-why.one",
                    {{"count", 1},
                     {"best", p->Note("upgrade.step-why.best", {{"model", "Qwen3 32B"}})},
                     {"usd_each", 1599.4}}),
            "Unlocks 1 model, best Qwen3 32B at $1599 each.");
  EXPECT_EQ(p->Note("gpu.capability.llm-offload", {{"decode_tok_s", 4.04}, {"offload_pct", 33.5}}),
            "4.0 tok/s; 34% in host RAM");
  EXPECT_EQ(p->Note("gpu.capability.video", {{"per_frame", "2.5 s"},
                                             {"width", 832},
                                             {"height", 480},
                                             {"frames", 81}}),
            "~2.5 s/frame at 832x480, 81 frames");
  EXPECT_EQ(p->Note("fit.advice.context-limited",
                    {{"safe_context", 4096}, {"workload", "Coding"}, {"context", 32768}}),
            "The safe context is 4096 tokens; the Coding workload asks for 32768.");
  EXPECT_EQ(p->Note("fit.advice.little-headroom", {{"headroom_pct", 7.6}}),
            "Only 8% of usable memory is left: longer contexts, bigger batches or other "
            "applications on the GPU can push it into offload.");
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
