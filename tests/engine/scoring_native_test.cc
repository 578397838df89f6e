// The shipped rules' phases compiled to C++ (rules/native.h) against the interpreter: every
// phase of the shipped book has its function, and on random facts (numbers at and around the
// rules' thresholds, the strings the rules compare with, unset facts) Evaluate, Score (with and
// without an ItemMemo) and Bound give the same results bit for bit in every workload and mode.
#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "re2/re2.h"
#include "rules/native.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::Shipped;

ScoringRules Load(const rules::NativePhases* native, const FileSource* local = nullptr) {
  EmbeddedSource source;
  Diagnostics diags;
  absl::StatusOr<ScoringRules> r = LoadScoringRules(source, local, *Shipped().profiles,
                                                    /*warnings=*/false, &diags, "rules", native);
  EXPECT_TRUE(r.ok()) << diags.Render();
  return *std::move(r);
}

bool SameBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// Random facts for two schemas declared alike (the same facts in the same order).
class RandomFacts {
 public:
  RandomFacts() {
    // Every quoted string of the shipped rules, and a few others.
    EmbeddedSource source;
    for (const std::string& path : source.List("rules", ".yaml")) {
      std::string text = *source.Read(path);
      re2::StringPiece in(text);
      std::string s;
      while (RE2::FindAndConsume(&in, "\"([^\"\\n]*)\"", &s)) strings_.push_back(s);
    }
    for (const char* s : {"", "f16", "q8_0", "Qwen3 Coder 30B", "DeepSeek R1 Distill",
                          "Llama 3.1 8B Instruct", "gemma-3-27b-it"}) {
      strings_.push_back(s);
    }
  }

  void Fill(std::mt19937_64* rng, const rules::FactSchema& schema,
            std::vector<rules::FactValues*> values) {
    static constexpr double kNumbers[] = {0,    -0.0, 1,     -1,   0.5,  0.999, 1.001, 2,
                                          3.9,  4,    8,     15,   25,   25.5,  60,    97,
                                          100,  128,  4096,  8192, 32768, 131072, 1e9, -40,
                                          1e300, -1e300, 1e-300};
    lists_.clear();
    lists_.reserve(schema.facts().size());
    for (size_t i = 0; i < schema.facts().size(); ++i) {
      const rules::FactDecl& f = schema.facts()[i];
      if (f.builtin) continue;
      const int32_t index = static_cast<int32_t>(i);
      const bool unset = (*rng)() % 8 == 0;
      const double number = (*rng)() % 4 == 0
                                ? std::uniform_real_distribution<double>(-200, 200000)(*rng)
                                : kNumbers[(*rng)() % std::size(kNumbers)];
      const bool flag = (*rng)() % 2 == 0;
      const std::string& text = strings_[(*rng)() % strings_.size()];
      lists_.emplace_back();
      for (int k = static_cast<int>((*rng)() % 4); k > 0; --k) {
        lists_.back().push_back(strings_[(*rng)() % strings_.size()]);
      }
      for (rules::FactValues* v : values) {
        if (unset) {
          v->Unset(index);
          continue;
        }
        switch (f.type) {
          case rules::Type::kNumber:
            v->Set(rules::NumberFact{f.slot, index}, number);
            break;
          case rules::Type::kBool:
            v->Set(rules::BoolFact{f.slot, index}, flag);
            break;
          case rules::Type::kString:
            v->Set(rules::StringFact{f.slot, index}, text);
            break;
          case rules::Type::kStringList:
            v->Set(rules::StringListFact{f.slot, index}, absl::MakeConstSpan(lists_.back()));
            break;
          default:
            break;
        }
      }
    }
  }

 private:
  std::vector<std::string> strings_;
  std::vector<std::vector<std::string>> lists_;
};

void ExpectSameResult(const rules::EvalResult& a, const rules::EvalResult& b,
                      const std::string& where, bool per_rule) {
  ASSERT_EQ(a.set_total.size(), b.set_total.size());
  for (size_t s = 0; s < a.set_total.size(); ++s) {
    ASSERT_TRUE(SameBits(a.set_total[s], b.set_total[s]))
        << where << " set " << s << ": " << a.set_total[s] << " vs " << b.set_total[s];
  }
  ASSERT_EQ(a.cap, b.cap) << where;
  ASSERT_EQ(a.cap_rule, b.cap_rule) << where;
  ASSERT_EQ(a.gated, b.gated) << where;
  ASSERT_EQ(a.gate_rule, b.gate_rule) << where;
  ASSERT_EQ(a.faults, b.faults) << where;
  if (!per_rule) return;
  for (size_t r = 0; r < a.fired.size(); ++r) {
    ASSERT_EQ(a.fired[r], b.fired[r]) << where << " rule " << r;
    ASSERT_TRUE(SameBits(a.contribution[r], b.contribution[r])) << where << " rule " << r;
    ASSERT_EQ(a.faults_of[r], b.faults_of[r]) << where << " rule " << r;
  }
}

TEST(NativeRules, EveryShippedPhaseRunsCompiled) {
  ScoringRules native = Load(&rules::ShippedNativePhases());
  ScoringRules plain = Load(nullptr);
  EXPECT_GT(native.rules->phases_with_rules(), 20);
  EXPECT_EQ(native.rules->native_phases(), native.rules->phases_with_rules());
  EXPECT_EQ(plain.rules->native_phases(), 0);
  EXPECT_EQ(plain.rules->phases_with_rules(), native.rules->phases_with_rules());
  // And every plan's set totals.
  EXPECT_GT(native.rules->plan_count(), 20);
  EXPECT_EQ(native.rules->native_totals(), native.rules->plan_count());
  EXPECT_EQ(plain.rules->native_totals(), 0);
}

TEST(NativeRules, AgreeWithTheInterpreterOnRandomFacts) {
  ScoringRules native = Load(&rules::ShippedNativePhases());
  ScoringRules plain = Load(nullptr);
  ASSERT_EQ(native.rules->native_phases(), native.rules->phases_with_rules());
  const rules::CompiledRules& a = *native.rules;
  const rules::CompiledRules& b = *plain.rules;
  rules::FactValues va(*native.schema), vb(*plain.schema);
  RandomFacts random;
  std::mt19937_64 rng(20261128);
  const int nw = static_cast<int>(a.vocabulary().workloads.size());
  const int nm = static_cast<int>(a.vocabulary().modes.size());
  const int sets = a.set_count();
  rules::EvalResult ra, rb;
  rules::ItemMemo ma, mb;
  std::vector<double> la(sets), lb(sets), ua(sets), ub(sets);
  int fired = 0, faulted = 0;
  for (int sample = 0; sample < 400; ++sample) {
    random.Fill(&rng, *native.schema, {&va, &vb});
    ma.Clear();
    mb.Clear();
    for (int w = -1; w < nw; ++w) {
      for (int m = -1; m < nm; ++m) {
        const std::string where = absl::StrCat("sample ", sample, " workload ", w, " mode ", m);
        a.Evaluate(va, w, m, &ra);
        b.Evaluate(vb, w, m, &rb);
        ExpectSameResult(ra, rb, "Evaluate, " + where, /*per_rule=*/true);
        for (uint8_t f : ra.fired) fired += f;
        faulted += ra.faults;
        a.Score(va, w, m, &ra);
        b.Score(vb, w, m, &rb);
        ExpectSameResult(ra, rb, "Score, " + where, /*per_rule=*/false);
        a.Score(va, w, m, &ra, 0, false, &ma, 0);
        b.Score(vb, w, m, &rb, 0, false, &mb, 0);
        ExpectSameResult(ra, rb, "Score with a memo, " + where, /*per_rule=*/false);
        a.Bound(va, w, m, &ra, 0, la.data(), ua.data(), &ma, 0);
        b.Bound(vb, w, m, &rb, 0, lb.data(), ub.data(), &mb, 0);
        for (int s = 0; s < sets; ++s) {
          ASSERT_TRUE(SameBits(la[s], lb[s]) && SameBits(ua[s], ub[s])) << "Bound, " << where;
        }
        a.Score(va, w, m, &ra, 0, /*after_bound=*/true);
        b.Score(vb, w, m, &rb, 0, /*after_bound=*/true);
        ExpectSameResult(ra, rb, "Score after Bound, " + where, /*per_rule=*/false);
      }
    }
  }
  // The samples reach the rules: many fire, and some hit numeric faults.
  EXPECT_GT(fired, 10000);
  EXPECT_GT(faulted, 0);
}

TEST(NativeRules, ALocalRuleLeavesItsPhasesToTheInterpreter) {
  MemorySource local;
  local.Set("tune.yaml", R"(schema: fitrank.rules/v1
overrides:
  - id: fit.native-comfortable
    set:
      score: 90
)");
  ScoringRules changed = Load(&rules::ShippedNativePhases(), &local);
  ScoringRules shipped = Load(&rules::ShippedNativePhases());
  EXPECT_LT(changed.rules->native_phases(), changed.rules->phases_with_rules());
  EXPECT_GT(changed.rules->native_phases(), 0);  // the phases without that rule still are
  // Totals bake in the order of the rules alone, which a changed score leaves as it was.
  EXPECT_EQ(changed.rules->native_totals(), changed.rules->plan_count());
  // And the changed rule counts: a comfortable fit scores 90, not the shipped 100.
  rules::FactValues v(*changed.schema);
  const rules::FactDecl* kind = changed.schema->Find("fit.kind");
  ASSERT_NE(kind, nullptr);
  const int32_t index = static_cast<int32_t>(kind - changed.schema->facts().data());
  v.Set(rules::StringFact{kind->slot, index}, "native-comfortable");
  rules::EvalResult r;
  changed.rules->Evaluate(v, -1, -1, &r);
  const int rule = changed.rules->FindRule("fit.native-comfortable");
  ASSERT_GE(rule, 0);
  EXPECT_EQ(r.contribution[rule], 90);
}

// What the emitter cannot translate (round(), here) is left to the interpreter, and the rest of
// the rule's phase is still written out.
TEST(NativeRules, AnExpressionWithoutATranslationIsInterpreted) {
  MemorySource local;
  local.Set("rounded.yaml", R"(schema: fitrank.rules/v1
set: fit
rules:
  - id: fit.rounded-headroom
    desc: Headroom to a tenth of a percent
    when: fit.headroom_pct > 1 or fit.offload_pct > 1
    score: round(fit.headroom_pct, 1)
)");
  const std::string plain = rules::EmitNativePhases(Load(nullptr).rules.get());
  const std::string rounded = rules::EmitNativePhases(Load(nullptr, &local).rules.get());
  // A rule more changes the order of the rules in its plans: their totals are added up by the
  // loop, and the same as the shipped rules' interpreted (checked on random facts above).
  ScoringRules added = Load(&rules::ShippedNativePhases(), &local);
  EXPECT_LT(added.rules->native_totals(), added.rules->plan_count());
  EXPECT_EQ(plain.find("internal::Run(program"), std::string::npos);
  EXPECT_NE(rounded.find("internal::Run(program"), std::string::npos);
  EXPECT_NE(rounded.find("// fit.rounded-headroom"), std::string::npos);
  EXPECT_NE(rounded.find("ShippedNativePhases()"), std::string::npos);
}

}  // namespace
}  // namespace fitrank
