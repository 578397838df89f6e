// Renderers of the user-facing reports, on hand-made reports: formats, colour, no NaN/inf.
#include <cmath>
#include <limits>
#include <sstream>

#include "cli/render_reports.h"
#include "gtest/gtest.h"

namespace fitrank::cli {
namespace {

// The profiles' records a report points at, as a loaded Engine would have them.
const Workload& Coding() {
  static const Workload* w = [] {
    auto* x = new Workload;
    x->id = "coding";
    x->name = "Coding";
    return x;
  }();
  return *w;
}
const Mode& Balanced() {
  static const Mode* m = [] {
    auto* x = new Mode;
    x->id = "balanced";
    x->name = "Balanced";
    return x;
  }();
  return *m;
}
const GradeScale& Grades() {
  static const GradeScale* g = [] {
    auto* x = new GradeScale;
    for (const char* letter : {"A", "B", "C", "D", "E", "F"}) x->grades.push_back({letter});
    return x;
  }();
  return *g;
}

// Catalog records (picks point at them); mutable so a test can give the model an awkward name.
Model& SampleModel() {
  static Model* m = [] {
    auto* x = new Model;
    x->id = "qwen3-coder-30b-a3b-instruct";
    x->name = "Qwen3 Coder 30B A3B Instruct";
    x->params_b = 30.53;
    x->active_params_b = 3.34;
    return x;
  }();
  return *m;
}
const Runtime& LlamaCpp() {
  static const Runtime* r = [] {
    auto* x = new Runtime;
    x->id = "llama.cpp";
    x->name = "llama.cpp";
    return x;
  }();
  return *r;
}
const Quant& Q4KM() {
  static const Quant* q = [] {
    auto* x = new Quant;
    x->id = "Q4_K_M";
    return x;
  }();
  return *q;
}

Pick SamplePick() {
  Pick p;
  p.rank = 1;
  p.workload = &Coding();
  p.model = &SampleModel();
  p.quant = &Q4KM();
  p.grade_index = 0;
  p.score = 88.04;
  p.quality = 71;
  p.decode_tok_s = 145.26;
  p.ttft_ms = 812;
  p.context = 32768;
  p.fit = {FitKind::kNativeComfortable, 21.5, 0, 0};
  p.runtime = &LlamaCpp();
  p.reasons = {"It fits natively with comfortable headroom.", "Built for code."};
  p.run_command = "ollama run qwen3-coder:30b";
  return p;
}

RecommendReport SampleRecommend() {
  RecommendReport r;
  r.setup.label = "GeForce RTX 4090";
  r.setup.gpu_count = 1;
  r.setup.usable_gb = 22.6;
  r.setup.host_ram_gb = 64;
  r.mode = &Balanced();
  r.grades = &Grades();
  r.workloads.push_back({&Coding(), {SamplePick()}});
  r.candidates = 300;
  return r;
}

std::string Render(const RecommendReport& r, OutputFormat f, bool color) {
  std::ostringstream out;
  Style s;
  s.color = color;
  RenderRecommend(r, f, s, out);
  return out.str();
}

TEST(Format, UnitsAndDashes) {
  EXPECT_EQ(FormatTokS(145.26), "145 tok/s");
  EXPECT_EQ(FormatTokS(11.94), "11.9 tok/s");
  EXPECT_EQ(FormatTokS(0), "—");
  EXPECT_EQ(FormatTokS(std::numeric_limits<double>::quiet_NaN()), "—");
  EXPECT_EQ(FormatTokS(std::numeric_limits<double>::infinity()), "—");
  EXPECT_EQ(FormatMs(812), "812 ms");
  EXPECT_EQ(FormatMs(16226), "16.2 s");
  EXPECT_EQ(FormatContext(4096), "4K");
  EXPECT_EQ(FormatContext(131072), "128K");
  EXPECT_EQ(FormatContext(1048576), "1M");
  EXPECT_EQ(FormatGb(281.23), "281 GB");
  EXPECT_EQ(FormatGb(22.24), "22.2 GB");
  // Capacities as sold are GiB: shown in the display unit (GB) with the size as sold beside it.
  EXPECT_EQ(FormatCapacity(24), "25.8 GB (24 GiB)");
  EXPECT_EQ(FormatCapacity(192), "206 GB (192 GiB)");
  EXPECT_EQ(FormatCapacity(0), "—");
  EXPECT_EQ(FormatFactor(1.33), "1.3");
  EXPECT_EQ(FormatFactor(0.75), "0.75");
  EXPECT_EQ(FormatFactor(4), "4");
  EXPECT_EQ(FormatFactor(std::numeric_limits<double>::infinity()), "—");
  EXPECT_EQ(FormatUsd(1599), "$1,599");
  EXPECT_EQ(FormatUsd(2.29), "$2.29");
  EXPECT_EQ(FormatNumber(-0.0001, 1), "0.0");
  EXPECT_EQ(FormatParams(405.85), "406B");
  EXPECT_EQ(FormatParams(1600), "1.6T");
  EXPECT_EQ(FormatFit(FitKind::kOffload, 10, 22.2), "offload 10% (needs ~22.2 GB host RAM)");
}

TEST(Render, TableHasNoColourUnlessAsked) {
  std::string plain = Render(SampleRecommend(), OutputFormat::kTable, false);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  EXPECT_NE(plain.find("Qwen3 Coder 30B A3B Instruct"), std::string::npos);
  EXPECT_NE(plain.find("145 tok/s"), std::string::npos);
  EXPECT_NE(plain.find("$ ollama run qwen3-coder:30b"), std::string::npos);
  std::string colored = Render(SampleRecommend(), OutputFormat::kTable, true);
  EXPECT_NE(colored.find("\x1b[32mA\x1b[0m"), std::string::npos);
}

TEST(Render, JsonKeysAreTheInterface) {
  Json j = Json::parse(Render(SampleRecommend(), OutputFormat::kJson, false));
  ASSERT_EQ(j["picks"].size(), 1u);
  const Json& p = j["picks"][0];
  for (const char* key : {"model", "model_id", "params_b", "active_params_b", "quant", "grade",
                          "score", "quality", "decode_tok_s", "ttft_ms", "context", "fit",
                          "runtime", "tags", "reasons", "run_command"}) {
    EXPECT_TRUE(p.contains(key)) << key;
  }
  EXPECT_EQ(p["fit"]["kind"], "native-comfortable");
  EXPECT_TRUE(p["fit"].contains("offload_pct"));
  EXPECT_EQ(p["decode_tok_s"], 145.3);
}

TEST(Render, JsonNeverPrintsNanOrInf) {
  RecommendReport r = SampleRecommend();
  r.workloads[0].picks[0].decode_tok_s = std::numeric_limits<double>::quiet_NaN();
  r.workloads[0].picks[0].ttft_ms = std::numeric_limits<double>::infinity();
  std::string json = Render(r, OutputFormat::kJson, false);
  EXPECT_EQ(json.find("nan"), std::string::npos);
  EXPECT_EQ(json.find("inf"), std::string::npos);
  Json j = Json::parse(json);
  EXPECT_TRUE(j["picks"][0]["decode_tok_s"].is_null());
  std::string table = Render(r, OutputFormat::kTable, false);
  EXPECT_EQ(table.find("nan"), std::string::npos);
  EXPECT_EQ(table.find("inf"), std::string::npos);
}

TEST(Render, CsvQuotesAndMarkdownEscapes) {
  RecommendReport r = SampleRecommend();
  Model awkward = SampleModel();
  awkward.name = "Model, \"quoted\" | piped";
  r.workloads[0].picks[0].model = &awkward;
  std::string csv = Render(r, OutputFormat::kCsv, false);
  EXPECT_NE(csv.find("\"Model, \"\"quoted\"\" | piped\""), std::string::npos);
  std::string md = Render(r, OutputFormat::kMarkdown, true);
  EXPECT_NE(md.find("Model, \"quoted\" \\| piped"), std::string::npos);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
}

TEST(TextTable, AlignsUtf8) {
  TextTable t({"a", "b"}, {false, true});
  t.Add({"—", "1"});
  t.Add({"xyz", "100"});
  std::ostringstream out;
  t.Print(out, "");
  EXPECT_EQ(out.str(), "a      b\n───  ───\n—      1\nxyz  100\n");
}

TEST(Render, EmptyReportsStillSaySomething) {
  std::ostringstream out;
  Style s;
  RenderGpu(GpuReport{}, OutputFormat::kTable, s, out);
  RenderFit(FitReport{}, OutputFormat::kTable, s, out);
  RenderUpgrade(UpgradeReport{}, OutputFormat::kTable, s, out);
  RenderCompare(CompareReport{}, OutputFormat::kTable, s, out);
  EXPECT_NE(out.str().find("No upgrade option"), std::string::npos);
  for (OutputFormat f : {OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown}) {
    std::ostringstream o;
    RenderGpu(GpuReport{}, f, s, o);
    RenderFit(FitReport{}, f, s, o);
    RenderUpgrade(UpgradeReport{}, f, s, o);
    RenderCompare(CompareReport{}, f, s, o);
    EXPECT_FALSE(o.str().empty());
  }
}

}  // namespace
}  // namespace fitrank::cli
