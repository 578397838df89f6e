#include "profiles/profiles.h"

#include <string>

#include "base/file_source.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Shipped(absl::string_view path) {
  absl::StatusOr<std::string> text = EmbeddedSource().Read(path);
  EXPECT_TRUE(text.ok()) << path;
  return text.ok() ? *text : "";
}

// The shipped profiles, with `replace` swapped for `with` in the file named `which`.
std::unique_ptr<Profiles> ParseEdited(absl::string_view which, absl::string_view replace,
                                      absl::string_view with, Diagnostics* d) {
  std::string texts[3] = {Shipped("profiles/workloads.yaml"), Shipped("profiles/modes.yaml"),
                          Shipped("profiles/grades.yaml")};
  int i = which == "workloads" ? 0 : which == "modes" ? 1 : 2;
  size_t at = texts[i].find(std::string(replace));
  EXPECT_NE(at, std::string::npos) << replace;
  if (at != std::string::npos) texts[i].replace(at, replace.size(), std::string(with));
  return Profiles::Parse(texts[0], texts[1], texts[2], d);
}

TEST(Profiles, ShippedFilesLoadCleanly) {
  Diagnostics d;
  auto p = Profiles::Load(EmbeddedSource(), &d);
  ASSERT_NE(p, nullptr) << d.Render();
  EXPECT_TRUE(d.empty()) << d.Render();
  std::vector<std::string> ids;
  for (const Workload& w : p->workloads()) ids.push_back(w.id);
  EXPECT_THAT(ids, ElementsAre("chat", "coding", "agentic", "rag", "reasoning"));
  ids.clear();
  for (const Mode& m : p->modes()) ids.push_back(m.id);
  EXPECT_THAT(ids, ElementsAre("balanced", "interactive", "background", "light-api", "scale-out"));
  EXPECT_EQ(p->default_mode().id, "balanced");
}

TEST(Profiles, WorkloadsCarryTheirCapabilities) {
  Diagnostics d;
  auto p = Profiles::Load(EmbeddedSource(), &d);
  ASSERT_NE(p, nullptr) << d.Render();
  EXPECT_THAT(p->FindWorkload("agentic").found->required_caps, ElementsAre("tools"));
  EXPECT_THAT(p->FindWorkload("coding").found->preferred_caps, ElementsAre("code"));
  EXPECT_THAT(p->FindWorkload("rag").found->preferred_caps, ElementsAre("long-context"));
  EXPECT_THAT(p->FindWorkload("reasoning").found->preferred_caps, ElementsAre("reasoning"));
  // Quality carries the most weight in every workload: the ranking premise of rules/.
  for (const Workload& w : p->workloads()) {
    for (const SetWeight& sw : w.weights) {
      if (sw.set != "quality") EXPECT_LT(sw.value, w.WeightOf("quality")) << w.id << " " << sw.set;
    }
  }
}

TEST(Profiles, LookupByIdAndAliasIgnoresCaseAndDashes) {
  Diagnostics d;
  auto p = Profiles::Load(EmbeddedSource(), &d);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->FindWorkload("agentic-coding").found->id, "agentic");
  EXPECT_EQ(p->FindWorkload("Agentic_Coding").found->id, "agentic");
  EXPECT_EQ(p->FindMode("LIGHT API").found->id, "light-api");
  ProfileLookup<Workload> miss = p->FindWorkload("codin");
  EXPECT_FALSE(miss);
  EXPECT_THAT(miss.suggestions, ElementsAre("coding"));
}

TEST(Profiles, ModesMultiplyAndDefaultToOne) {
  Diagnostics d;
  auto p = Profiles::Load(EmbeddedSource(), &d);
  ASSERT_NE(p, nullptr);
  const Mode& scale = *p->FindMode("scale-out").found;
  EXPECT_THAT(scale.gpu_counts, ElementsAre(2, 4, 8));
  EXPECT_EQ(scale.parallelism, "tensor");
  EXPECT_DOUBLE_EQ(scale.MultiplierOf("fit"), 1.0);
  EXPECT_GT(p->FindMode("interactive").found->MultiplierOf("responsiveness"), 1.0);
  EXPECT_GT(p->FindMode("light-api").found->concurrency, 1);
}

TEST(GradeScale, ThresholdsAndCaps) {
  Diagnostics d;
  auto p = Profiles::Load(EmbeddedSource(), &d);
  ASSERT_NE(p, nullptr);
  const GradeScale& g = p->grades();
  ASSERT_EQ(g.grades.size(), 5u);
  EXPECT_EQ(g.grades[g.IndexFor(100)].letter, "A");
  EXPECT_EQ(g.grades[g.IndexFor(g.grades[0].min_score)].letter, "A");
  EXPECT_EQ(g.grades[g.IndexFor(g.grades[0].min_score - 0.01)].letter, "B");
  EXPECT_EQ(g.grades[g.IndexFor(0)].letter, "F");
  int c = g.IndexOf("C");
  ASSERT_EQ(c, 2);
  // A candidate capped at C keeps a score that still grades C.
  EXPECT_EQ(g.IndexFor(g.CeilingFor(c)), c);
  EXPECT_LT(g.CeilingFor(c), g.grades[1].min_score);
  EXPECT_EQ(g.IndexOf("Z"), -1);
}

TEST(ProfilesErrors, UnknownKeyGetsDidYouMeanAtItsLine) {
  Diagnostics d;
  auto p = ParseEdited("workloads", "    decode_target_tok_s: 20 ", "    decode_taget_tok_s: 20 ", &d);
  EXPECT_EQ(p, nullptr);
  std::string out = d.Render();
  EXPECT_THAT(out, HasSubstr("unknown key `decode_taget_tok_s` in workload `chat`"));
  EXPECT_THAT(out, HasSubstr("did you mean `decode_target_tok_s`?"));
  EXPECT_THAT(out, HasSubstr("profiles/workloads.yaml:"));
}

TEST(ProfilesErrors, EveryProblemIsReportedNotJustTheFirst) {
  Diagnostics d;
  std::string workloads = Shipped("profiles/workloads.yaml");
  // Two independent problems in two entries.
  workloads.replace(workloads.find("decode_min_tok_s: 8 "), 20, "decode_min_tok_s: 80");
  workloads.replace(workloads.find("aliases: [retrieval]"), 20, "aliases: [Coding]");
  auto p = Profiles::Parse(workloads, Shipped("profiles/modes.yaml"),
                           Shipped("profiles/grades.yaml"), &d);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(d.error_count(), 2) << d.Render();
  EXPECT_THAT(d.Render(), HasSubstr("decode_min_tok_s (80) is above decode_target_tok_s (20)"));
  EXPECT_THAT(d.Render(), HasSubstr("workload name `Coding` is already used by `coding`"));
}

TEST(ProfilesErrors, UnknownDefaultMode) {
  Diagnostics d;
  auto p = ParseEdited("modes", "default: balanced", "default: balance", &d);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(d.error_count(), 1) << d.Render();
  EXPECT_EQ(d.all()[0].code, "unknown-mode");
  EXPECT_EQ(d.all()[0].hint, "did you mean `balanced`?");
}

TEST(ProfilesErrors, GradesMustDescend) {
  Diagnostics d;
  auto p = ParseEdited("grades", "{letter: C, min_score: 55", "{letter: C, min_score: 75", &d);
  EXPECT_EQ(p, nullptr);
  EXPECT_THAT(d.Render(), HasSubstr("grade `C` must start below grade `B`"));
}

// The score range is two plain decimals (base/numbers.h): SimpleAtod once took `-inf`, `nan`
// and hex here.
TEST(ProfilesErrors, ScoreRangeIsDecimal) {
  for (const char* bad : {"[-inf, 100]", "[0, inf]", "[nan, 100]", "[0x0, 100]", "[0, 0x1p6]",
                          "[0, 1e999]", "[100, 0]", "[0]"}) {
    Diagnostics d;
    auto p = ParseEdited("grades", "set_score_range: [0, 100]",
                         std::string("set_score_range: ") + bad, &d);
    EXPECT_EQ(p, nullptr) << bad;
    EXPECT_THAT(d.Render(), HasSubstr("`set_score_range` must be two increasing numbers")) << bad;
  }
  Diagnostics d;
  auto p = ParseEdited("grades", "set_score_range: [0, 100]", "set_score_range: [-10, 1e2]", &d);
  ASSERT_NE(p, nullptr) << d.Render();
  EXPECT_EQ(p->grades().set_score_min, -10);
  EXPECT_EQ(p->grades().set_score_max, 100);
}

// quality_ranking_z is data (grades.yaml): read, and refused outside [0, 5] at its line.
TEST(ProfilesErrors, QualityRankingZIsReadAndChecked) {
  Diagnostics ok;
  auto p = ParseEdited("grades", "quality_ranking_z: 1.0", "quality_ranking_z: 0.5", &ok);
  ASSERT_NE(p, nullptr) << ok.Render();
  EXPECT_EQ(p->grades().quality_ranking_z, 0.5);
  for (const char* bad : {"-1", "9", "lots"}) {
    Diagnostics d;
    EXPECT_EQ(ParseEdited("grades", "quality_ranking_z: 1.0",
                          std::string("quality_ranking_z: ") + bad, &d),
              nullptr)
        << bad;
    EXPECT_THAT(d.Render(), HasSubstr("profiles/grades.yaml:")) << bad;
    EXPECT_THAT(d.Render(), HasSubstr("quality_ranking_z")) << bad;
  }
}

TEST(ProfilesErrors, BadWeightTypeAndNegativeWeight) {
  Diagnostics d;
  auto p = ParseEdited("workloads", "weights: {fit: 0.17,", "weights: {fit: -1, speed: lots,", &d);
  EXPECT_EQ(p, nullptr);
  EXPECT_THAT(d.Render(), HasSubstr("outside the plausible range"));
  EXPECT_THAT(d.Render(), HasSubstr("must be a number"));
}

TEST(ProfilesErrors, MalformedYamlIsADiagnosticNotACrash) {
  Diagnostics d;
  auto p = Profiles::Parse("workloads: [", "modes: {", "grades: - a", &d);
  EXPECT_EQ(p, nullptr);
  EXPECT_GE(d.error_count(), 2);
  for (const Diagnostic& x : d.all()) EXPECT_FALSE(x.message.empty());
}

TEST(ProfilesErrors, WrongShapesAreReported) {
  Diagnostics d;
  auto p = Profiles::Parse("schema: fitrank.profiles/v1\nkind: modes\nworkloads: 3\n",
                           "schema: x\nkind: modes\ndefault: a\nmodes: [1, 2]\n",
                           "schema: fitrank.profiles/v1\nkind: grades\ngrades: []\n", &d);
  EXPECT_EQ(p, nullptr);
  std::string out = d.Render();
  EXPECT_THAT(out, HasSubstr("this file must have `kind: workloads`"));
  EXPECT_THAT(out, HasSubstr("`workloads` must be a list"));
  EXPECT_THAT(out, HasSubstr("unknown schema `x`"));
  EXPECT_THAT(out, HasSubstr("mode must be a map"));
  EXPECT_THAT(out, HasSubstr("the grade scale has no grades"));
}

}  // namespace
}  // namespace fitrank
