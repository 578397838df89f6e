// Load order, merge and overrides, and evaluation of a whole rule book.
#include "rules/compiled_rules.h"

#include <string>
#include <thread>
#include <vector>

#include "base/file_source.h"
#include "gtest/gtest.h"
#include "rules/lint.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

using testing::TestFacts;

constexpr char kFit[] = R"(schema: fitrank.rules/v1
set: fit
rules:
  - id: fit.native-comfortable
    desc: Whole model in memory with room to spare.
    when: fit.kind == "native" and fit.headroom_pct >= 15
    score: +30
    say: "It fits natively with {fit.headroom_pct:.0f}% headroom."
  - id: fit.offload
    desc: Spills to host memory.
    when: fit.kind == "offload"
    score: -4 * fit.offload_pct
    cap: C
    say: "About {fit.offload_pct:.0f}% of the working set spills to host memory."
    advice: remove-offload
  - id: fit.none
    desc: Does not fit at all.
    when: fit.kind == "none"
    gate: true
    gate_reason: does not fit
    say: "It does not fit."
)";

constexpr char kSpec[] = R"(schema: fitrank.rules/v1
set: specialization
rules:
  - id: specialization.coder
    desc: Coding models for coding work.
    when: model.name =~ "(?i)coder|devstral|codestral"
    workloads: [coding, agentic-coding]
    score: 12
    say: "{model.name} is a coding model."
  - id: specialization.thinking
    desc: Thinking models for reasoning.
    when: model.thinking
    workloads: [reasoning]
    modes: [background]
    score: 10 / fit.offload_pct
    say: "Thinks ({score:+.0f})."
)";

class BookTest : public ::testing::Test {
 protected:
  BookTest() : facts(*t.schema) {
    opts.vocab = testing::TestVocabulary();
    shipped.Set("rules/fit.yaml", kFit);
    shipped.Set("rules/specialization.yaml", kSpec);
    shipped.Set("rules/fit.test.yaml", "not: rules");  // rule tests are skipped
  }

  std::shared_ptr<const CompiledRules> Load(bool expect_ok = true) {
    RuleSources src;
    src.shipped = &shipped;
    src.local = &local;
    src.local_dir = "mine";
    diags = Diagnostics();
    auto r = LoadRules(src, t.schema, opts, &diags);
    EXPECT_EQ(r.ok(), expect_ok) << diags.Render();
    return r.ok() ? *r : nullptr;
  }

  TestFacts t;
  CompileOptions opts;
  MemorySource shipped, local;
  Diagnostics diags;
  FactValues facts;
};

TEST_F(BookTest, LoadOrderAndSets) {
  local.Set("mine/b.yaml", "schema: fitrank.rules/v1\nset: cost\nrules:\n  - id: cost.b\n    score: 1\n    say: b\n");
  local.Set("mine/a.yaml", "schema: fitrank.rules/v1\nset: vibes\nrules:\n  - id: vibes.a\n    score: 1\n    say: a\n");
  auto book = Load();
  ASSERT_TRUE(book);
  std::vector<std::string> ids;
  for (const RuleInfo& r : book->rules()) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"fit.native-comfortable", "fit.offload", "fit.none",
                                           "specialization.coder", "specialization.thinking",
                                           "vibes.a", "cost.b"}));
  // Known sets keep the vocabulary's order; new sets follow in load order.
  EXPECT_EQ(book->FindSet("fit"), 0);
  EXPECT_EQ(book->FindSet("cost"), 9);
  EXPECT_EQ(book->FindSet("vibes"), 10);
  EXPECT_EQ(book->rules()[5].set_index, 10);
  EXPECT_TRUE(book->rules()[5].local);
}

TEST_F(BookTest, EvaluateSumsSetsCapsAndGates) {
  auto book = Load();
  ASSERT_TRUE(book);
  EvalResult r;
  facts.Set(t.kind, "offload");
  facts.Set(t.offload, 5);
  facts.Set(t.name, "Qwen2.5-Coder-32B");
  book->Evaluate(facts, /*coding*/ 1, /*balanced*/ 0, &r);
  EXPECT_EQ(r.fired, (std::vector<uint8_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(r.contribution[1], -20);
  EXPECT_EQ(r.set_total[book->FindSet("fit")], -20);
  EXPECT_EQ(r.set_total[book->FindSet("specialization")], 12);
  EXPECT_EQ(r.cap, 2);  // C
  EXPECT_EQ(r.cap_rule, 1);
  EXPECT_FALSE(r.gated);

  // Chat: the coder rule does not apply.
  book->Evaluate(facts, /*chat*/ 0, 0, &r);
  EXPECT_EQ(r.fired[3], 0);
  EXPECT_EQ(r.set_total[book->FindSet("specialization")], 0);

  facts.Set(t.kind, "none");
  book->Evaluate(facts, 0, 0, &r);
  EXPECT_TRUE(r.gated);
  EXPECT_EQ(r.gate_rule, 2);
  EXPECT_EQ(r.cap, -1);
}

TEST_F(BookTest, ModesAndFaults) {
  auto book = Load();
  ASSERT_TRUE(book);
  EvalResult r;
  facts.Set(t.thinking, true);
  facts.Set(t.offload, 0);
  book->Evaluate(facts, /*reasoning*/ 4, /*interactive*/ 1, &r);
  EXPECT_EQ(r.fired[4], 0);
  book->Evaluate(facts, 4, /*background*/ 2, &r);
  EXPECT_EQ(r.fired[4], 1);
  EXPECT_EQ(r.contribution[4], 0);  // 10 / 0 -> 0
  EXPECT_EQ(r.faults, 1);
  EXPECT_EQ(r.faults_of[4], internal::kFaultDivideByZero);
  // No workload: only rules without a workloads list apply.
  book->Evaluate(facts, -1, -1, &r);
  EXPECT_EQ(r.fired[4], 0);
}

TEST_F(BookTest, ExplainAgreesWithEvaluate) {
  auto book = Load();
  ASSERT_TRUE(book);
  facts.Set(t.kind, "offload");
  facts.Set(t.offload, 12.4);
  facts.Set(t.name, "Devstral-24B");
  facts.Set(t.thinking, true);
  EvalResult r;
  book->Evaluate(facts, 1, 2, &r);
  Explanation ex = book->Explain(facts, 1, 2);
  ASSERT_EQ(ex.rules.size(), 5u);
  for (size_t i = 0; i < ex.rules.size(); ++i) {
    EXPECT_EQ(ex.rules[i].fired, r.fired[i] != 0) << i;
    EXPECT_EQ(ex.rules[i].contribution, r.contribution[i]) << i;
  }
  EXPECT_EQ(ex.set_total, r.set_total);
  EXPECT_EQ(ex.cap, r.cap);
  EXPECT_EQ(ex.rules[1].sentence,
            "About 12% of the working set spills to host memory.");
  EXPECT_EQ(ex.rules[3].sentence, "Devstral-24B is a coding model.");
  EXPECT_FALSE(ex.rules[4].applicable);  // reasoning only
  EXPECT_EQ(ex.rules[0].sentence, "");   // did not fire
}

TEST_F(BookTest, ExplainReportsFaults) {
  auto book = Load();
  facts.Set(t.thinking, true);
  Explanation ex = book->Explain(facts, 4, 2);
  EXPECT_TRUE(ex.rules[4].fired);
  EXPECT_EQ(ex.rules[4].fault, "division by zero");
  EXPECT_EQ(ex.rules[4].sentence, "Thinks (+0).");
}

TEST_F(BookTest, OverridesReplaceExactlyTheKeysNamed) {
  local.Set("mine/tune.yaml", R"(schema: fitrank.rules/v1
overrides:
  - id: fit.offload
    set:
      score: -10 * fit.offload_pct
      cap: none
  - id: fit.none
    disable: true
)");
  auto book = Load();
  ASSERT_TRUE(book);
  EXPECT_EQ(book->FindRule("fit.none"), -1);
  ASSERT_EQ(book->disabled().size(), 1u);
  EXPECT_EQ(book->disabled()[0].id, "fit.none");
  int i = book->FindRule("fit.offload");
  const RuleInfo& info = book->rules()[i];
  EXPECT_TRUE(info.overridden);
  EXPECT_EQ(info.cap, -1);
  EXPECT_EQ(info.when_text, "fit.kind == \"offload\"");  // untouched
  EXPECT_EQ(info.advice, "remove-offload");              // untouched
  facts.Set(t.kind, "offload");
  facts.Set(t.offload, 2);
  EvalResult r;
  book->Evaluate(facts, 0, 0, &r);
  EXPECT_EQ(r.contribution[i], -20);
  EXPECT_EQ(r.cap, -1);
}

TEST_F(BookTest, OverrideErrors) {
  local.Set("mine/tune.yaml", R"(schema: fitrank.rules/v1
overrides:
  - id: fit.ofload
    disable: true
  - id: fit.none
    disable: true
  - id: fit.none
    set: {score: 1}
  - id: fit.offload
    set: {score: 1}
  - id: fit.offload
    set: {score: 2}
)");
  Load(false);
  std::vector<std::string> codes;
  for (const Diagnostic& d : diags.all()) codes.push_back(d.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"unknown-rule", "override-of-disabled",
                                             "overridden-twice", "overridden-twice"}))
      << diags.Render();
  EXPECT_EQ(diags.all()[0].hint, "did you mean `fit.offload`?");
  EXPECT_EQ(diags.all()[0].where.file, "mine/tune.yaml");
  EXPECT_EQ(diags.all()[0].where.line, 3);
}

TEST_F(BookTest, OverriddenExpressionErrorsPointAtTheOverride) {
  local.Set("mine/tune.yaml", "schema: fitrank.rules/v1\noverrides:\n  - id: fit.offload\n"
                              "    set: {when: fit.knd == \"x\"}\n");
  Load(false);
  ASSERT_EQ(diags.error_count(), 1);
  EXPECT_EQ(diags.all()[0].where.file, "mine/tune.yaml");
  EXPECT_EQ(diags.all()[0].where.line, 4);
  EXPECT_EQ(diags.all()[0].where.col, 17);
}

TEST_F(BookTest, DuplicateIdAcrossFilesPointsAtBoth) {
  local.Set("mine/dup.yaml", "schema: fitrank.rules/v1\nset: fit\nrules:\n  - id: fit.offload\n"
                             "    score: 1\n");
  Load(false);
  ASSERT_EQ(diags.all().size(), 2u) << diags.Render();
  EXPECT_EQ(diags.all()[0].code, "duplicate-id");
  EXPECT_EQ(diags.all()[0].where.file, "mine/dup.yaml");
  EXPECT_EQ(diags.all()[0].message, "rule `fit.offload` is already defined at rules/fit.yaml:9");
  EXPECT_EQ(diags.all()[1].severity, Severity::kNote);
  EXPECT_EQ(diags.all()[1].where.file, "rules/fit.yaml");
}

TEST_F(BookTest, NothingHalfLoaded) {
  local.Set("mine/bad.yaml", "schema: fitrank.rules/v1\nset: fit\nrules:\n  - id: fit.x\n"
                             "    when: fit.kind ==\n");
  EXPECT_EQ(Load(false), nullptr);
}

TEST_F(BookTest, UnreadableFileIsAStatus) {
  class Broken : public MemorySource {
   public:
    absl::StatusOr<std::string> Read(absl::string_view) const override {
      return absl::PermissionDeniedError("no");
    }
  } broken;
  broken.Set("rules/a.yaml", "");
  RuleSources src;
  src.shipped = &broken;
  auto r = LoadRules(src, t.schema, opts, &diags);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied);
}

TEST_F(BookTest, EvalResultIsReusedAcrossBooks) {
  auto a = Load();
  local.Set("mine/x.yaml", "schema: fitrank.rules/v1\nset: fit\nrules:\n"
                           "  - id: fit.x\n    when: model.name =~ \"Llama\"\n    score: 1\n");
  auto b = Load();
  ASSERT_TRUE(a && b);
  EvalResult r;
  facts.Set(t.name, "Llama");
  a->Evaluate(facts, 1, 0, &r);
  EXPECT_EQ(r.fired.size(), 5u);
  b->Evaluate(facts, 1, 0, &r);
  EXPECT_EQ(r.fired.size(), 6u);
  EXPECT_EQ(r.fired[5], 1);
}

// A rule that reads only context facts keeps its result while the caller passes the same
// context key (and the same workload and mode); rules that read candidate facts never do.
TEST_F(BookTest, ContextRulesKeepTheirResultsUnderOneContextKey) {
  t.schema->MarkContext("model");
  EXPECT_TRUE(t.schema->Find("model.name")->context);
  EXPECT_TRUE(t.schema->Find("workload.id")->context);
  EXPECT_FALSE(t.schema->Find("fit.kind")->context);
  EXPECT_FALSE(t.schema->Find("price.usd")->context);
  auto book = Load();
  ASSERT_TRUE(book);
  EvalResult keyed, plain;
  facts.Set(t.kind, "offload");
  facts.Set(t.offload, 5);
  facts.Set(t.thinking, true);
  facts.Set(t.name, "Qwen2.5-Coder-32B");
  book->Evaluate(facts, /*coding*/ 1, 0, &keyed, /*context_key=*/7);
  // Only candidate facts change: the same results as a full evaluation.
  facts.Set(t.offload, 10);
  book->Evaluate(facts, 1, 0, &keyed, 7);
  book->Evaluate(facts, 1, 0, &plain);
  EXPECT_EQ(keyed.fired, plain.fired);
  EXPECT_EQ(keyed.contribution, plain.contribution);
  EXPECT_EQ(keyed.set_total, plain.set_total);
  EXPECT_EQ(keyed.cap, plain.cap);
  EXPECT_EQ(keyed.contribution[1], -40);
  // A context fact changed under the same key breaks the caller's promise: the coder rule
  // keeps its result (which is what makes the key cheap). A new key evaluates it again.
  facts.Set(t.name, "Llama-3");
  book->Evaluate(facts, 1, 0, &keyed, 7);
  EXPECT_EQ(keyed.fired[3], 1);
  book->Evaluate(facts, 1, 0, &keyed, 8);
  EXPECT_EQ(keyed.fired[3], 0);
  // Another workload and mode under the same key: every applicable rule runs.
  facts.Set(t.name, "Qwen2.5-Coder-32B");
  book->Evaluate(facts, 1, 0, &keyed, 9);
  book->Evaluate(facts, /*reasoning*/ 4, /*background*/ 2, &keyed, 9);
  EXPECT_EQ(keyed.fired[3], 0);
  EXPECT_EQ(keyed.fired[4], 1);
  EXPECT_EQ(keyed.contribution[4], 1);  // 10 / fit.offload_pct: a candidate rule
  facts.Set(t.offload, 5);
  book->Evaluate(facts, 4, 2, &keyed, 9);
  EXPECT_EQ(keyed.contribution[4], 2);
}

// ContextGated() answers from the gates that read only context facts, whatever the rest of
// the record holds from candidates scored under the same key.
TEST_F(BookTest, ContextGatedSeesOnlyGatesOnContextFacts) {
  t.schema->MarkContext("model");
  local.Set("mine/gate.yaml", R"(schema: fitrank.rules/v1
set: specialization
rules:
  - {id: specialization.no-thinking, when: 'model.thinking', gate: true, gate_reason: thinks}
)");
  auto book = Load();
  ASSERT_TRUE(book);
  EvalResult r;
  facts.Set(t.kind, "none");  // fit.none gates this candidate, not its context
  facts.Set(t.thinking, false);
  book->Score(facts, 1, 0, &r, /*context_key=*/3);
  EXPECT_TRUE(r.gated);
  EXPECT_FALSE(book->ContextGated(facts, 1, 0, &r, 3));
  EXPECT_FALSE(book->ContextGated(facts, 1, 0, &r, 0));
  facts.Set(t.thinking, true);
  EXPECT_TRUE(book->ContextGated(facts, 1, 0, &r, 4));
  facts.Set(t.kind, "native");
  book->Score(facts, 1, 0, &r, 4);
  EXPECT_TRUE(r.gated);
  EXPECT_EQ(book->rules()[r.gate_rule].id, "specialization.no-thinking");
}

// Evaluate() takes inline fast paths (single tests, conjunctions of tests, `fact OP k`
// scores); Explain() always runs the interpreter. Over random candidates they must agree.
TEST_F(BookTest, FastPathsAgreeWithTheInterpreter) {
  local.Set("mine/more.yaml", R"(schema: fitrank.rules/v1
set: quality
rules:
  - {id: quality.a, when: 'fit.kind == "native" and fit.headroom_pct >= 15 and not model.thinking', score: 'fit.headroom_pct / 3'}
  - {id: quality.b, when: 'known(price.usd) and price.usd < 1000 and "tools" in model.capabilities', score: '100 - price.usd'}
  - {id: quality.c, when: 'model.name =~ "(?i)coder" or fit.offload_pct > 10', score: '20 / fit.offload_pct'}
  - {id: quality.d, when: 'model.thinking', score: 'model.params_b'}
  - {id: quality.e, when: 'fit.headroom_pct != 0 and fit.headroom_pct <= 10 and fit.kind != "none" and model.params_b > 3', score: 'min(fit.headroom_pct, 4)'}
  - {id: quality.f, when: '"vision" not in model.capabilities', score: '5 - fit.offload_pct'}
  - {id: quality.g, when: 'fit.headroom_pct < fit.offload_pct and not model.thinking and fit.kind not in ["none"]', score: 'max(0, 40 - 2 * fit.offload_pct)'}
  - {id: quality.h, when: 'not (model.params_b >= fit.headroom_pct) and fit.kind in ["native", "offload"]', score: '1.5 * (model.params_b - 30) / 0'}
  - {id: quality.i, score: '100 - 30 * log2(max(1, fit.offload_pct))'}
  - {id: quality.j, score: 'log2(fit.headroom_pct - 3)'}
  - {id: quality.k, score: '-abs(fit.headroom_pct - 12) * 3'}
  - {id: quality.l, score: '90 + 10 * min(1, fit.offload_pct / 7 - 1)'}
  - {id: quality.m, when: 'not (fit.headroom_pct >= 10 and fit.offload_pct < 20)', score: 3}
  - {id: quality.n, when: 'fit.headroom_pct > 5 and not (fit.headroom_pct > 5)', score: 4}
  - {id: quality.o, when: 'fit.kind == "native" and not model.thinking and fit.kind == "native"', score: 5}
  - {id: quality.p, when: 'not fit.kind == "native" and (fit.headroom_pct > 5 or fit.offload_pct > 3)', score: 6}
  - {id: quality.q, when: 'not (not (fit.headroom_pct > 12))', score: 7}
  - {id: quality.r, when: '(fit.kind == "native" and fit.headroom_pct > 5) or (model.thinking and not (fit.offload_pct < 3))', score: 8}
  - {id: quality.s, when: 'fit.headroom_pct * model.params_b >= 300 or fit.offload_pct / (fit.headroom_pct - 10) > 1', score: 9}
  - {id: quality.t, when: 'fit.headroom_pct * model.params_b < 300 and fit.kind != "none"', score: 10}
  - {id: quality.u, when: 'fit.kind == "native" or fit.kind == "offload" or fit.headroom_pct > 20 or model.thinking or model.params_b > 70 or fit.offload_pct > 30 or "tools" in model.capabilities', score: 11}
)");
  auto book = Load();
  ASSERT_TRUE(book);
  std::vector<std::string> names = {"Qwen-Coder-7B", "Llama-3", "coder", ""};
  std::vector<std::vector<std::string>> caps = {{}, {"tools"}, {"vision", "tools"}};
  const char* kinds[] = {"native", "offload", "none"};
  EvalResult r;
  uint32_t seed = 7;
  auto next = [&](uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
  };
  for (int iter = 0; iter < 2000; ++iter) {
    facts.Clear();
    facts.Set(t.kind, kinds[next(3)]);
    facts.Set(t.headroom, next(30));
    facts.Set(t.offload, next(3) == 0 ? 0 : next(40));
    facts.Set(t.params, next(80));
    facts.Set(t.thinking, next(2) == 1);
    if (next(2)) facts.Set(t.price, next(2000));
    facts.Set(t.name, names[next(4)]);
    facts.Set(t.caps, absl::Span<const std::string>(caps[next(3)]));
    const int w = static_cast<int>(next(6)) - 1, m = static_cast<int>(next(6)) - 1;
    book->Evaluate(facts, w, m, &r);
    Explanation ex = book->Explain(facts, w, m);
    for (int i = 0; i < book->rule_count(); ++i) {
      ASSERT_EQ(ex.rules[i].fired, r.fired[i] != 0) << book->rules()[i].id << " iter " << iter;
      ASSERT_EQ(ex.rules[i].contribution, r.contribution[i]) << book->rules()[i].id;
      ASSERT_EQ(ex.rules[i].fault, internal::FaultText(r.faults_of[i])) << book->rules()[i].id;
    }
    ASSERT_EQ(ex.set_total, r.set_total);
    ASSERT_EQ(ex.cap, r.cap);
    ASSERT_EQ(ex.gated, r.gated);
  }
}

// Score() evaluates only the rules that can change a score; with or without a context key,
// and after Bound() (which also bounds each set's total), its totals, cap and gate are
// Evaluate()'s bit for bit. The book interleaves, within one set, rules without effect, context
// rules (model.*), early ones (fit.*) and late ones (perf.*), in every order; a `-0` score and
// sums that round differently in another order.
TEST_F(BookTest, ScoreAgreesWithEvaluateBitForBit) {
  t.schema->MarkContext("model");
  ASSERT_TRUE(t.schema->MarkEarly("fit.kind"));
  ASSERT_TRUE(t.schema->MarkEarly("fit.headroom_pct"));
  ASSERT_TRUE(t.schema->MarkEarly("fit.offload_pct"));
  local.Set("mine/more.yaml", R"(schema: fitrank.rules/v1
set: quality
rules:
  - {id: quality.say-only, when: 'fit.headroom_pct * 3 > 10', say: x}
  - {id: quality.early, when: 'fit.headroom_pct > 3', score: '0.1 * fit.headroom_pct'}
  - {id: quality.context, when: 'model.params_b > 7', score: '0.7 / model.params_b'}
  - {id: quality.zero, score: '-0', say: y}
  - {id: quality.late, when: 'perf.decode_tok_s > 5', score: '0.3 / perf.decode_tok_s', cap: B}
  - {id: quality.context-2, score: '1e15 * 3 + model.params_b'}
  - {id: quality.early-2, when: 'fit.kind == "offload"', score: '-1e15 * 3 + 0.1 * fit.offload_pct'}
  - {id: quality.gate-late, when: 'perf.ttft_ms > 900', gate: true}
  - {id: quality.gate-early, when: 'fit.offload_pct > 35', gate: true}
  - {id: quality.zero-2, when: 'perf.ttft_ms > 10', score: 0}
  - {id: quality.cap-context, when: 'model.thinking', cap: B}
)");
  auto book = Load();
  ASSERT_TRUE(book);
  EXPECT_FALSE(book->HasEffect(book->FindRule("quality.say-only")));
  EXPECT_FALSE(book->HasEffect(book->FindRule("quality.zero")));
  EXPECT_FALSE(book->HasEffect(book->FindRule("quality.zero-2")));
  EXPECT_TRUE(book->HasEffect(book->FindRule("quality.cap-context")));
  EXPECT_TRUE(book->HasEffect(book->FindRule("quality.gate-late")));
  const char* kinds[] = {"native", "offload", "none"};
  std::vector<std::string> names = {"Qwen-Coder-7B", "Llama-3"};
  uint32_t seed = 11;
  auto next = [&](uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
  };
  EvalResult full, plain, keyed, bounded, mixed;
  std::vector<double> least(book->set_count()), most(book->set_count());
  uint64_t key = 0;
  int w = 0, m = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    if (iter % 6 == 0) {  // a new context: model facts, workload and mode
      ++key;
      facts.Set(t.params, 0.5 * next(60));
      facts.Set(t.thinking, next(2) == 1);
      facts.Set(t.name, names[next(2)]);
      w = static_cast<int>(next(6)) - 1;
      m = static_cast<int>(next(6)) - 1;
    }
    facts.Set(t.kind, kinds[next(3)]);
    facts.Set(t.headroom, 0.37 * next(30));
    facts.Set(t.offload, next(3) == 0 ? 0 : 1.1 * next(40));
    facts.Set(t.decode, 0.9 * next(40));
    facts.Set(t.ttft, 100.0 * next(12));
    book->Evaluate(facts, w, m, &full);
    book->Score(facts, w, m, &plain);
    book->Score(facts, w, m, &keyed, key);
    book->Bound(facts, w, m, &bounded, key, least.data(), most.data());
    book->Score(facts, w, m, &bounded, key, /*after_bound=*/true);
    // The same record alternately scored and fully evaluated under one key.
    if (iter % 2 == 0) {
      book->Score(facts, w, m, &mixed, key);
    } else {
      book->Evaluate(facts, w, m, &mixed, key);
      ASSERT_EQ(mixed.fired, full.fired) << "iter " << iter;
      ASSERT_EQ(mixed.contribution, full.contribution) << "iter " << iter;
    }
    for (const EvalResult* r : {&plain, &keyed, &bounded, &mixed}) {
      ASSERT_EQ(r->set_total, full.set_total) << "iter " << iter;
      ASSERT_EQ(r->cap, full.cap) << "iter " << iter;
      ASSERT_EQ(r->cap_rule, full.cap_rule) << "iter " << iter;
      ASSERT_EQ(r->gated, full.gated) << "iter " << iter;
      ASSERT_EQ(r->gate_rule, full.gate_rule) << "iter " << iter;
    }
    for (int s = 0; s < book->set_count(); ++s) {
      ASSERT_LE(least[s], full.set_total[s]) << "iter " << iter << " set " << s;
      ASSERT_GE(most[s], full.set_total[s]) << "iter " << iter << " set " << s;
    }
  }
}

// The rules that read only item facts (here the model's params and name, its fit kind and
// offload) give the same results from an ItemMemo as evaluated: one memo shared by two books,
// keys revisited in any order, workloads and modes (the rules' filters) changing between
// evaluations, cleared when the model changes; a fault (division by zero), a cap, a gate, and a
// `when` that runs as code among them.
TEST_F(BookTest, ItemRulesFromTheMemoAgreeWithEvaluate) {
  t.schema->MarkContext("model");
  for (const char* early : {"fit.kind", "fit.headroom_pct", "fit.offload_pct"}) {
    ASSERT_TRUE(t.schema->MarkEarly(early));
  }
  for (const char* item : {"model.params_b", "model.name", "fit.kind", "fit.offload_pct"}) {
    ASSERT_TRUE(t.schema->MarkItem(item));
  }
  local.Set("mine/item.yaml", R"(schema: fitrank.rules/v1
set: quality
rules:
  - id: quality.item
    when: 'fit.kind == "offload" and model.params_b > 7'
    score: '10 / (fit.offload_pct - 5)'
    workloads: [coding, rag]
  - {id: quality.item-code, when: 'model.name =~ "(?i)coder" or fit.offload_pct > 20', score: 3, modes: [background]}
  - {id: quality.item-cap, when: 'fit.offload_pct > 30', cap: D}
  - {id: quality.early, when: 'fit.headroom_pct > 3', score: '0.1 * fit.headroom_pct'}
  - {id: quality.late, when: 'perf.decode_tok_s > 5', score: '0.3 / perf.decode_tok_s'}
)");
  auto book = Load();
  ASSERT_TRUE(book);
  local.Set("mine/item.yaml", R"(schema: fitrank.rules/v1
set: quality
rules:
  - {id: quality.other-item, when: 'fit.offload_pct < 10', score: '2 * fit.offload_pct'}
)");
  auto other = Load();
  ASSERT_TRUE(other);
  const char* kinds[] = {"native", "offload", "none"};
  const char* names[] = {"Qwen-Coder-7B", "Llama-3"};
  uint32_t seed = 5;
  auto next = [&](uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
  };
  ItemMemo memo;
  uint64_t context_key = 0;
  for (int model = 0; model < 60; ++model) {
    memo.Clear();
    ++context_key;
    facts.Set(t.params, 2.0 * next(8));
    facts.Set(t.name, names[next(2)]);
    facts.Set(t.thinking, next(2) == 1);
    struct Item {
      const char* kind;
      double offload;
    } items[4];
    for (Item& it : items) it = {kinds[next(3)], next(3) == 0 ? 5.0 : 1.0 * next(40)};
    for (int iter = 0; iter < 40; ++iter) {
      const int key = static_cast<int>(next(4));
      facts.Set(t.kind, items[key].kind);
      facts.Set(t.offload, items[key].offload);
      facts.Set(t.headroom, 0.37 * next(30));
      facts.Set(t.decode, 0.9 * next(40));
      facts.Set(t.ttft, 100.0 * next(12));
      const int w = static_cast<int>(next(6)) - 1, m = static_cast<int>(next(6)) - 1;
      for (const CompiledRules* b : {book.get(), other.get()}) {
        EvalResult full, plain, memoized, bounded;
        std::vector<double> least(b->set_count()), most(b->set_count());
        b->Evaluate(facts, w, m, &full);
        b->Score(facts, w, m, &plain, context_key);
        b->Score(facts, w, m, &memoized, context_key, /*after_bound=*/false, &memo, key);
        b->Bound(facts, w, m, &bounded, context_key, least.data(), most.data(), &memo, key);
        b->Score(facts, w, m, &bounded, context_key, /*after_bound=*/true, &memo, key);
        for (const EvalResult* r : {&memoized, &bounded}) {
          ASSERT_EQ(r->set_total, full.set_total) << "model " << model << " iter " << iter;
          ASSERT_EQ(r->cap_rule, full.cap_rule) << "model " << model << " iter " << iter;
          ASSERT_EQ(r->gate_rule, full.gate_rule) << "model " << model << " iter " << iter;
          ASSERT_EQ(r->faults, plain.faults) << "model " << model << " iter " << iter;
        }
        for (int s = 0; s < b->set_count(); ++s) {
          ASSERT_LE(least[s], full.set_total[s]) << "model " << model << " set " << s;
          ASSERT_GE(most[s], full.set_total[s]) << "model " << model << " set " << s;
        }
      }
    }
  }
}

// Bound() adds the context rules' totals and the early rules in another order than Score()
// adds the book: its bounds must hold for Score()'s total all the same. Here the two early
// ones (1 each) come first in the book, so Score() adds 1 + 1 + 1e16 = 1e16 + 2 exactly, while
// 1e16 + 1 + 1 rounds back to 1e16 twice (ties to even).
TEST_F(BookTest, BoundHoldsForTheTotalAddedInBookOrder) {
  t.schema->MarkContext("model");
  ASSERT_TRUE(t.schema->MarkEarly("fit.headroom_pct"));
  local.Set("mine/order.yaml", R"(schema: fitrank.rules/v1
set: quality
rules:
  - {id: quality.early-a, when: 'fit.headroom_pct > 1', score: 1, say: a}
  - {id: quality.early-b, when: 'fit.headroom_pct > 2', score: 1, say: b}
  - {id: quality.context, when: 'model.params_b > 7', score: '1e15 * 10', say: c}
)");
  auto book = Load();
  ASSERT_TRUE(book);
  facts.Set(t.params, 8);
  facts.Set(t.headroom, 5);
  const int set = book->FindSet("quality");
  ASSERT_GE(set, 0);
  EvalResult full, bounded;
  std::vector<double> least(book->set_count()), most(book->set_count());
  book->Evaluate(facts, -1, -1, &full);
  ASSERT_EQ(full.set_total[set], 1e16 + 2);
  // Twice under one key: the second bound reads the context rules' totals it kept.
  for (int pass = 0; pass < 2; ++pass) {
    book->Bound(facts, -1, -1, &bounded, /*context_key=*/1, least.data(), most.data());
    EXPECT_LE(least[set], full.set_total[set]) << pass;
    EXPECT_GE(most[set], full.set_total[set]) << pass;
    EXPECT_LT(most[set] - least[set], 1e6) << pass;  // widened by rounding, not unbounded
  }
}

// A book's plans (one per applicable list) are made on first use, from whichever thread gets
// there first: threads that all start on a fresh book score every workload x mode, "none"
// included, as Explain (rule by rule, no plan) adds up on another book.
TEST_F(BookTest, PlansMadeOnFirstUseFromManyThreadsScoreAsOneThread) {
  facts.Set(t.kind, "offload");
  facts.Set(t.offload, 5);
  facts.Set(t.name, "Qwen2.5-Coder-32B");
  facts.Set(t.thinking, true);
  auto reference = Load();
  auto fresh = Load();
  ASSERT_TRUE(reference && fresh);
  const int workloads = static_cast<int>(opts.vocab.workloads.size());
  const int modes = static_cast<int>(opts.vocab.modes.size());
  // Every list, "none" (-1) included: its totals, cap and gate.
  auto score_all = [&](const CompiledRules& book, bool explain) {
    std::vector<double> out;
    EvalResult r;
    for (int w = -1; w < workloads; ++w) {
      for (int m = -1; m < modes; ++m) {
        if (explain) {
          const Explanation ex = book.Explain(facts, w, m);
          out.insert(out.end(), ex.set_total.begin(), ex.set_total.end());
          out.push_back(ex.cap);
          out.push_back(ex.gated);
        } else {
          book.Score(facts, w, m, &r);
          out.insert(out.end(), r.set_total.begin(), r.set_total.end());
          out.push_back(r.cap);
          out.push_back(r.gated);
        }
      }
    }
    return out;
  };
  const std::vector<double> expected = score_all(*reference, /*explain=*/true);
  {
    // The lists are told apart: the coder rule scores for coding only, the thinking one for
    // reasoning in background mode only.
    EvalResult r;
    const int set = reference->FindSet("specialization");
    reference->Score(facts, /*coding*/ 1, /*balanced*/ 0, &r);
    ASSERT_EQ(r.set_total[set], 12);
    reference->Score(facts, /*reasoning*/ 4, /*background*/ 2, &r);
    ASSERT_EQ(r.set_total[set], 2);
    reference->Score(facts, /*chat*/ 0, 0, &r);
    ASSERT_EQ(r.set_total[set], 0);
  }
  std::vector<std::vector<double>> got(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = score_all(*fresh, /*explain=*/false); });
  }
  for (std::thread& th : threads) th.join();
  for (const std::vector<double>& g : got) EXPECT_EQ(g, expected);
  EXPECT_EQ(fresh->plan_count(), reference->plan_count());
  EXPECT_EQ(fresh->phases_with_rules(), reference->phases_with_rules());
}

TEST_F(BookTest, LintReportsWarningsToo) {
  Diagnostics d;
  std::vector<LintFile> files = {{"mine/x.yaml", R"(schema: fitrank.rules/v1
set: fitt
rules:
  - id: fitt.never
    when: false
    score: 1
  - id: fitt.nobody
    workloads: []
    score: 1
    say: x
    desc: y
)", true}};
  RuleSources base;
  base.shipped = &shipped;
  ASSERT_TRUE(LintRuleFiles(&base, files, t.schema, opts.vocab, &d).ok());
  std::vector<std::string> codes;
  for (const Diagnostic& x : d.all()) codes.push_back(x.code);
  // Sorted by line: the set (2), fitt.never (4, its `when` at 5), fitt.nobody (8).
  EXPECT_EQ(codes, (std::vector<std::string>{"unknown-set", "missing-say", "missing-desc",
                                             "unreachable", "unreachable"}))
      << d.Render();
  EXPECT_EQ(d.all()[0].hint, "did you mean `fit`?");
  EXPECT_FALSE(d.HasErrors());
  nlohmann::json j = DiagnosticsToJson(d);
  EXPECT_EQ(j["warnings"], 5);
  EXPECT_EQ(j["diagnostics"][0]["code"], "unknown-set");
  EXPECT_EQ(j["diagnostics"][0]["line"], 2);
}

}  // namespace
}  // namespace fitrank::rules
