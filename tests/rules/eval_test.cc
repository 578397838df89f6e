// The evaluator: numbers, strings, lists, regexes, functions and numeric faults.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/rules/rules_test_util.h"

namespace fitrank::rules {
namespace {

using testing::CompileExpr;
using testing::TestFacts;

class EvalTest : public ::testing::Test {
 protected:
  EvalTest() : f(*t.schema) {
    f.Set(t.headroom, 20);
    f.Set(t.kind, "native");
    f.Set(t.offload, 0);
    f.Set(t.decode, 42.5);
    f.Set(t.params, 32);
    f.Set(t.name, "Qwen2.5-Coder-32B-Instruct");
    f.Set(t.caps, absl::Span<const absl::string_view>(caps_));
    f.Set(t.thinking, false);
  }

  double Num(const std::string& text, uint8_t* faults = nullptr) {
    auto e = CompileExpr(*t.schema, text, Type::kNumber);
    EXPECT_TRUE(e->ok()) << text << ": " << e->FirstError();
    if (!e->ok()) return -12345;
    return e->Num(f, faults);
  }
  bool Bool(const std::string& text, int workload = -1, int mode = -1) {
    auto e = CompileExpr(*t.schema, text, Type::kBool);
    EXPECT_TRUE(e->ok()) << text << ": " << e->FirstError();
    if (!e->ok()) return false;
    return e->Bool(f, workload, mode);
  }

  TestFacts t;
  FactValues f;
  std::vector<absl::string_view> caps_ = {"tools", "long-context"};
};

TEST_F(EvalTest, Arithmetic) {
  EXPECT_EQ(Num("fit.headroom_pct * 2 + 1"), 41);
  EXPECT_EQ(Num("100 - fit.headroom_pct"), 80);
  EXPECT_EQ(Num("100 / fit.headroom_pct"), 5);
  EXPECT_EQ(Num("fit.headroom_pct / 4"), 5);
  EXPECT_EQ(Num("-fit.headroom_pct"), -20);
  EXPECT_EQ(Num("fit.headroom_pct - model.params_b - 2"), -14);
  EXPECT_EQ(Num("(fit.headroom_pct - model.params_b) * (1 + 1)"), -24);
  EXPECT_EQ(Num("-4 * fit.offload_pct"), 0);
}

TEST_F(EvalTest, Comparisons) {
  EXPECT_TRUE(Bool("fit.headroom_pct >= 20"));
  EXPECT_FALSE(Bool("fit.headroom_pct > 20"));
  EXPECT_TRUE(Bool("fit.headroom_pct <= 20 and fit.headroom_pct < 21"));
  EXPECT_TRUE(Bool("fit.headroom_pct == 20 and fit.headroom_pct != 19"));
  EXPECT_TRUE(Bool("fit.headroom_pct * 2 > model.params_b"));
  EXPECT_TRUE(Bool("30 > fit.headroom_pct"));
  EXPECT_TRUE(Bool("model.thinking == false"));
  EXPECT_TRUE(Bool("not model.thinking"));
}

TEST_F(EvalTest, Strings) {
  EXPECT_TRUE(Bool("fit.kind == \"native\""));
  EXPECT_FALSE(Bool("fit.kind != \"native\""));
  EXPECT_TRUE(Bool("\"native\" == fit.kind"));
  EXPECT_FALSE(Bool("fit.kind == \"nativ\""));
  EXPECT_TRUE(Bool("fit.kind == fit.kind"));
  EXPECT_FALSE(Bool("fit.kind == model.name"));
}

TEST_F(EvalTest, ListsAndMembership) {
  EXPECT_TRUE(Bool("\"tools\" in model.capabilities"));
  EXPECT_FALSE(Bool("\"vision\" in model.capabilities"));
  EXPECT_TRUE(Bool("\"vision\" not in model.capabilities"));
  EXPECT_TRUE(Bool("fit.kind in [\"native\", \"offload\"]"));
  EXPECT_FALSE(Bool("fit.kind in []"));
  EXPECT_TRUE(Bool("model.params_b in [7, 32, 70]"));
  EXPECT_TRUE(Bool("has(model.capabilities, \"long-context\")"));
  EXPECT_TRUE(Bool("fit.kind in model.capabilities or true"));
  EXPECT_FALSE(Bool("fit.kind in model.capabilities"));
  EXPECT_EQ(Num("len(model.capabilities)"), 2);
}

TEST_F(EvalTest, StdStringListsWork) {
  std::vector<std::string> owned = {"thinking", "tools"};
  f.Set(t.caps, absl::Span<const std::string>(owned));
  EXPECT_TRUE(Bool("\"thinking\" in model.capabilities"));
  EXPECT_FALSE(Bool("\"long-context\" in model.capabilities"));
}

TEST_F(EvalTest, Regex) {
  EXPECT_TRUE(Bool("model.name =~ \"(?i)coder|devstral|codestral\""));
  EXPECT_FALSE(Bool("model.name =~ \"^coder\""));
  EXPECT_TRUE(Bool("model.name =~ \"\\d+B\""));
  EXPECT_TRUE(Bool("not (model.name =~ \"Llama\")"));
}

TEST_F(EvalTest, RegexMemoIsKeyedByContent) {
  auto e = CompileExpr(*t.schema, "model.name =~ \"Coder\"", Type::kBool);
  ASSERT_TRUE(e->ok());
  std::vector<internal::RegexMemo> memo(e->program.regexes.size() * internal::RegexMemo::kWays);
  char buf[32] = "Qwen-Coder";
  f.Set(t.name, absl::string_view(buf));
  internal::RunContext ctx;
  ctx.facts = &f;
  ctx.memo = memo.data();
  EXPECT_TRUE(internal::Run(e->program, e->compiled.entry, &ctx).b);
  // Same memory, new content: the memo must not answer from the old text.
  std::snprintf(buf, sizeof buf, "Llama-Chat");
  EXPECT_FALSE(internal::Run(e->program, e->compiled.entry, &ctx).b);
  std::snprintf(buf, sizeof buf, "Qwen-Coder");
  EXPECT_TRUE(internal::Run(e->program, e->compiled.entry, &ctx).b);
}

TEST_F(EvalTest, Functions) {
  EXPECT_EQ(Num("min(fit.headroom_pct, 5, model.params_b)"), 5);
  EXPECT_EQ(Num("max(fit.headroom_pct, model.params_b)"), 32);
  EXPECT_EQ(Num("max(1, fit.headroom_pct, 3)"), 20);
  EXPECT_EQ(Num("clamp(fit.headroom_pct, 0, 10)"), 10);
  EXPECT_EQ(Num("clamp(fit.headroom_pct, 25, 30)"), 25);
  EXPECT_EQ(Num("clamp(fit.headroom_pct, model.params_b, 40)"), 32);
  EXPECT_EQ(Num("abs(fit.headroom_pct - 50)"), 30);
  EXPECT_EQ(Num("log2(model.params_b)"), 5);
  EXPECT_EQ(Num("round(perf.decode_tok_s)"), 43);
  EXPECT_DOUBLE_EQ(Num("round(perf.decode_tok_s / 3, 2)"), 14.17);
}

TEST_F(EvalTest, DivisionByZeroAndLogOfZeroGiveZeroAndAFault) {
  f.Set(t.offload, 0);
  uint8_t faults = 0;
  EXPECT_EQ(Num("10 / fit.offload_pct", &faults), 0);
  EXPECT_EQ(faults, internal::kFaultDivideByZero);
  EXPECT_EQ(Num("fit.headroom_pct / fit.offload_pct", &faults), 0);
  EXPECT_EQ(faults, internal::kFaultDivideByZero);
  EXPECT_EQ(Num("log2(fit.offload_pct)", &faults), 0);
  EXPECT_EQ(faults, internal::kFaultLog2);
  EXPECT_EQ(Num("log2(-fit.headroom_pct) + 1", &faults), 1);
  EXPECT_EQ(faults, internal::kFaultLog2);
  f.Set(t.price, 1e15);
  EXPECT_EQ(Num("price.usd * price.usd * price.usd * price.usd * price.usd * price.usd * "
                "price.usd * price.usd * price.usd * price.usd * price.usd * price.usd * "
                "price.usd * price.usd * price.usd * price.usd * price.usd * price.usd * "
                "price.usd * price.usd * price.usd * price.usd",
                &faults),
            0);
  EXPECT_EQ(faults, internal::kFaultOverflow);
  EXPECT_EQ(Num("fit.headroom_pct / 2", &faults), 10);
  EXPECT_EQ(faults, 0);
}

TEST_F(EvalTest, NonFiniteFactsAreUnset) {
  f.Set(t.price, std::numeric_limits<double>::quiet_NaN());
  EXPECT_FALSE(f.IsSet(t.price.index));
  EXPECT_EQ(Num("price.usd + 1"), 1);
  EXPECT_FALSE(Bool("known(price.usd)"));
  f.Set(t.price, 1500);
  EXPECT_TRUE(Bool("known(price.usd) and price.usd < 2000"));
  f.Set(t.price, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(Bool("known(price.usd)"));
  EXPECT_EQ(Num("price.usd"), 0);
}

TEST_F(EvalTest, ClearResetsEverything) {
  f.Clear();
  EXPECT_EQ(Num("fit.headroom_pct"), 0);
  EXPECT_TRUE(Bool("fit.kind == \"\""));
  EXPECT_EQ(Num("len(model.capabilities)"), 0);
  EXPECT_FALSE(Bool("known(fit.kind)"));
}

TEST_F(EvalTest, ShortCircuit) {
  // The right side would divide by zero: `and`/`or` must not evaluate it.
  f.Set(t.offload, 0);
  auto e = CompileExpr(*t.schema, "fit.offload_pct > 0 and 10 / fit.offload_pct > 1");
  uint8_t faults = 0;
  EXPECT_FALSE(e->Run(f, -1, -1, &faults).b);
  EXPECT_EQ(faults, 0);
  e = CompileExpr(*t.schema, "fit.offload_pct == 0 or 10 / fit.offload_pct > 1");
  EXPECT_TRUE(e->Run(f, -1, -1, &faults).b);
  EXPECT_EQ(faults, 0);
  e = CompileExpr(*t.schema, "fit.offload_pct == 0 and fit.kind == \"native\" and "
                             "(model.params_b > 100 or \"tools\" in model.capabilities)");
  EXPECT_TRUE(e->Run(f).b);
}

TEST_F(EvalTest, WorkloadAndModeIds) {
  EXPECT_TRUE(Bool("workload.id == \"coding\"", 1, 0));
  EXPECT_FALSE(Bool("workload.id == \"coding\"", 0, 0));
  EXPECT_TRUE(Bool("workload.id == \"agentic-coding\"", 2, 0));  // alias -> canonical id
  EXPECT_TRUE(Bool("workload.id in [\"chat\", \"agentic-coding\"]", 2, 0));
  EXPECT_TRUE(Bool("mode.id != \"interactive\"", 0, 0));
  EXPECT_TRUE(Bool("workload.id == \"\""));
}

}  // namespace
}  // namespace fitrank::rules
