// Hostile input: every file of tests/rules/corpus/ (random bytes, 10k-deep nesting, huge
// numbers, broken UTF-8, regex bombs, ...) must give at least one error diagnostic and never
// crash or hang, as a rule file, as an expression and as a sentence template. New crashing
// inputs found by fuzzing go into the corpus directory and are replayed here.
//
// A deterministic mutation loop then throws thousands of corrupted variants of valid
// expressions at the parser, compiler and evaluator, checking that whatever compiles
// evaluates to finite numbers.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "base/file_source.h"
#include "gtest/gtest.h"
#include "rules/internal/template.h"
#include "rules/lint.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(FITRANK_SOURCE_DIR) / "tests" / "rules" /
                                              "corpus")) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, RuleFileGivesADiagnosticAndNoCrash) {
  const std::string content =
      ReadFile(fs::path(FITRANK_SOURCE_DIR) / "tests" / "rules" / "corpus" / GetParam());
  testing::TestFacts t;
  Diagnostics d;
  ASSERT_TRUE(LintRuleFiles(nullptr, {{GetParam(), content, true}}, t.schema,
                            testing::TestVocabulary(), &d)
                  .ok());
  EXPECT_TRUE(d.HasErrors()) << d.Render();
  // Rendering must cope with whatever bytes the file holds.
  EXPECT_FALSE(d.Render().empty());
  EXPECT_FALSE(DiagnosticsToJson(d).dump(-1, ' ', false,
                                         nlohmann::json::error_handler_t::replace).empty());

  // Loading reports the same content as unusable.
  MemorySource src;
  src.Set("rules/x.yaml", content);
  RuleSources sources;
  sources.shipped = &src;
  Diagnostics d2;
  CompileOptions opts;
  opts.vocab = testing::TestVocabulary();
  EXPECT_FALSE(LoadRules(sources, t.schema, opts, &d2).ok());
}

TEST_P(Corpus, RawBytesAsExpressionAndTemplate) {
  const std::string content =
      ReadFile(fs::path(FITRANK_SOURCE_DIR) / "tests" / "rules" / "corpus" / GetParam());
  testing::TestFacts t;
  ParseLimits limits;
  limits.max_bytes = 1 << 20;  // get past the size cap to stress the parser itself
  ParseResult r = ParseExpression(content, limits);
  if (r.ok()) {
    Vocabulary v = testing::TestVocabulary();
    internal::Program p;
    internal::ExprCompiler c(*t.schema, v, &p);
    std::vector<ExprError> errors;
    c.Compile(content, r.ast, std::nullopt, "x", false, &errors);
  } else {
    EXPECT_GE(r.error->offset, 0);
    EXPECT_LE(r.error->offset, static_cast<int>(content.size()));
  }
  Vocabulary v = testing::TestVocabulary();
  internal::Program p;
  internal::ExprCompiler c(*t.schema, v, &p);
  internal::CompiledTemplate tpl;
  std::vector<ExprError> errors;
  internal::CompileTemplate(content, &c, limits, &tpl, &errors);
  for (const ExprError& e : errors) {
    EXPECT_GE(e.offset, 0);
    EXPECT_LE(e.offset, static_cast<int>(content.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, Corpus, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return n;
                         });

TEST(Mutation, CorruptedExpressionsNeverCrashAndStayFinite) {
  const std::vector<std::string> seeds = {
      "fit.kind == \"native\" and fit.headroom_pct >= 15",
      "-4 * fit.offload_pct / (fit.headroom_pct - 20)",
      "clamp(log2(model.params_b) * 3, 0, 12) + round(perf.decode_tok_s / 7, 1)",
      "model.name =~ \"(?i)coder|devstral\" or \"tools\" in model.capabilities",
      "workload.id in [\"coding\", \"agentic\"] and not model.thinking",
      "max(1, min(perf.ttft_ms, 500), abs(price.usd - 1500)) / len(model.capabilities)",
      "known(price.usd) and price.usd < 2000 and mode.id != \"background\"",
  };
  const std::string alphabet = "()[]+-*/<>=!~\"', .:{}abcdefiklmnoprstuwy_0123456789e\\";
  testing::TestFacts t;
  Vocabulary v = testing::TestVocabulary();
  FactValues f(*t.schema);
  std::vector<absl::string_view> caps = {"tools"};
  f.Set(t.headroom, 20);
  f.Set(t.kind, "native");
  f.Set(t.offload, 0);
  f.Set(t.params, 1e15);
  f.Set(t.decode, 1e-300);
  f.Set(t.name, "Qwen-Coder");
  f.Set(t.caps, absl::Span<const absl::string_view>(caps));
  std::mt19937 rng(20261122);
  int compiled = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string s = seeds[rng() % seeds.size()];
    int edits = 1 + rng() % 4;
    for (int k = 0; k < edits && !s.empty(); ++k) {
      size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          s.erase(at, 1 + rng() % 3);
          break;
        default:
          s.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
    }
    auto e = testing::CompileExpr(*t.schema, s);
    for (const ExprError& err : e->errors) {
      ASSERT_GE(err.offset, 0) << s;
      ASSERT_LE(err.offset, static_cast<int>(s.size())) << s;
      ASSERT_FALSE(err.message.empty()) << s;
    }
    if (!e->ok()) continue;
    ++compiled;
    internal::Value val = e->Run(f, 1, 0);
    if (e->compiled.type == Type::kNumber) ASSERT_TRUE(std::isfinite(val.num)) << s;
  }
  EXPECT_GT(compiled, 100);  // the loop really reaches the evaluator
}

}  // namespace
}  // namespace fitrank::rules
