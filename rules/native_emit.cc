// The C++ emitter of rules/native.h (run at build time by fitrank_gen_native_rules).
//
// A phase becomes one function that mirrors CompiledRules::RunPhase step for step: its tests
// worked out once into named bools, then each rule's `when` and `score` with the same results,
// fault bits and per-set sums. Expressions the plan interprets (Step kCode) are translated from
// their stack code into C++ statements, one named value per instruction, with `and`/`or` jumps
// as nested ifs (the same short circuit); the few instructions without a translation leave
// their expression to the interpreter (internal::Run). Change RunPhase or internal::Run, change
// this too: tests/engine/scoring_native_test.cc compares them on random facts.
#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/compiled_rules.h"
#include "rules/native.h"

namespace fitrank::rules {
namespace {

using internal::Instr;
using internal::OpCode;

std::string DoubleLiteral(double x) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "std::bit_cast<double>(uint64_t{0x%016" PRIx64 "}) /* %.17g */",
                std::bit_cast<uint64_t>(x), x);
  return buf;
}

// A C++ string literal of `s` (octal escapes: they never swallow a following digit).
std::string StringLiteral(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == ' ') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);
      out.append(buf);
    }
  }
  return out + "\"";
}

std::string StrEqCall(const std::string& view, absl::string_view literal) {
  return absl::StrCat("internal::StrEq(", view, ".data(), ", view, ".size(), ",
                      StringLiteral(literal), ", ", literal.size(), ")");
}

class Emitter {
 public:
  explicit Emitter(const internal::Program& program) : p_(program) {}

  // The Instr constants the functions pass to the interpreter's helpers.
  const std::string& constants() const { return consts_; }

  // A bool expression for a one-instruction condition (internal::IsLeafCondition).
  std::string Test(const Instr& i) {
    const std::string n = absl::StrCat("n[", i.a, "]");
    const std::string k = DoubleLiteral(i.k);
    const std::string f = absl::StrCat("n[", i.b, "]");
    switch (i.op) {
      case OpCode::kFactLtK: return absl::StrCat(n, " < ", k);
      case OpCode::kFactLeK: return absl::StrCat(n, " <= ", k);
      case OpCode::kFactGtK: return absl::StrCat(n, " > ", k);
      case OpCode::kFactGeK: return absl::StrCat(n, " >= ", k);
      case OpCode::kFactEqK: return absl::StrCat(n, " == ", k);
      case OpCode::kFactNeK: return absl::StrCat(n, " != ", k);
      case OpCode::kFactLtF: return absl::StrCat(n, " < ", f);
      case OpCode::kFactLeF: return absl::StrCat(n, " <= ", f);
      case OpCode::kFactGtF: return absl::StrCat(n, " > ", f);
      case OpCode::kFactGeF: return absl::StrCat(n, " >= ", f);
      case OpCode::kFactEqF: return absl::StrCat(n, " == ", f);
      case OpCode::kFactNeF: return absl::StrCat(n, " != ", f);
      case OpCode::kLoadBool: return absl::StrCat("b[", i.a, "] != 0");
      case OpCode::kKnown: return absl::StrCat("ctx->facts->IsSet(", i.a, ")");
      case OpCode::kFactStrEqK:
        return StrEqCall(absl::StrCat("s[", i.a, "]"), p_.strings[i.b]);
      case OpCode::kFactStrNeK:
        return absl::StrCat("!", StrEqCall(absl::StrCat("s[", i.a, "]"), p_.strings[i.b]));
      default:
        return absl::StrCat("internal::RunLeafCondition(program, ", Constant(i), ", ctx)");
    }
  }

  // Statements applying a score's constant operation `i` (internal::IsLeafScoreOp) to the
  // double `x`, fault bits into `faults` (a uint8_t lvalue): what internal::RunLeafScore does.
  std::string LeafOp(const Instr& i, const std::string& x, const std::string& faults,
                     const std::string& ind) {
    const std::string k = DoubleLiteral(i.k);
    auto finite = [&](const std::string& e) {
      return absl::StrCat(ind, x, " = internal::Finite(", e, ", &", faults, ");\n");
    };
    switch (i.op) {
      case OpCode::kAddK: return finite(absl::StrCat(x, " + ", k));
      case OpCode::kSubK: return finite(absl::StrCat(x, " - ", k));
      case OpCode::kMulK: return finite(absl::StrCat(x, " * ", k));
      case OpCode::kKSub: return finite(absl::StrCat(k, " - ", x));
      case OpCode::kDivK:
        return absl::StrCat(ind, x, " = internal::Divide(", x, ", ", k, ", &", faults, ");\n");
      case OpCode::kKDiv:
        return absl::StrCat(ind, x, " = internal::Divide(", k, ", ", x, ", &", faults, ");\n");
      case OpCode::kMinK:
        return absl::StrCat(ind, x, " = ", k, " < ", x, " ? ", k, " : ", x, ";\n");
      case OpCode::kMaxK:
        return absl::StrCat(ind, x, " = ", k, " > ", x, " ? ", k, " : ", x, ";\n");
      case OpCode::kNeg: return absl::StrCat(ind, x, " = -", x, ";\n");
      case OpCode::kAbs: return absl::StrCat(ind, x, " = std::fabs(", x, ");\n");
      case OpCode::kLog2:
        return absl::StrCat(ind, "if (", x, " <= 0) {\n", ind, "  ", faults,
                            " |= internal::kFaultLog2;\n", ind, "  ", x, " = 0;\n", ind,
                            "} else {\n", ind, "  ", x, " = std::log2(", x, ");\n", ind, "}\n");
      default:  // kEnd
        return "";
    }
  }

  // Statements that compute the expression at `entry` into the variable `result` (declared by
  // the caller; `member` names its internal::Value member, "b" or "num"), fault bits into
  // `faults`.
  std::string Expr(int32_t entry, const std::string& result, const char* member,
                   const std::string& faults, const std::string& ind) {
    std::vector<Val> stack;
    std::string code;
    faults_ = faults;
    if (Block(entry, -1, &stack, &code, ind + "  ") && stack.size() == 1) {
      return absl::StrCat(ind, "{\n", code, ind, "  ", result, " = ", stack[0].name, ";\n", ind,
                          "}\n");
    }
    return absl::StrCat(ind, "ctx->faults = 0;\n", ind, result, " = internal::Run(program, ",
                        entry, ", ctx).", member, ";\n", ind, faults, " |= ctx->faults;\n");
  }

 private:
  struct Val {
    std::string name;
    char type;  // 'n' double, 'b' bool, 's' string, 'l' string list
  };

  std::string Constant(const Instr& i) {
    const std::string name = absl::StrCat("kI", next_const_++);
    absl::StrAppend(&consts_, "constexpr internal::Instr ", name,
                    "{static_cast<internal::OpCode>(", static_cast<int>(i.op), "), ", i.a, ", ",
                    i.b, ", ", DoubleLiteral(i.k), "};\n");
    return name;
  }

  // How many values `op` takes from the stack.
  static size_t Pops(OpCode op) {
    switch (op) {
      case OpCode::kClamp:
        return 3;
      case OpCode::kAdd: case OpCode::kSub: case OpCode::kMul: case OpCode::kDiv:
      case OpCode::kMin: case OpCode::kMax: case OpCode::kLt: case OpCode::kLe:
      case OpCode::kGt: case OpCode::kGe: case OpCode::kEq: case OpCode::kNe:
      case OpCode::kEqBool: case OpCode::kNeBool: case OpCode::kEqStr: case OpCode::kNeStr:
      case OpCode::kInList:
        return 2;
      case OpCode::kEnd: case OpCode::kNum: case OpCode::kBool: case OpCode::kStr:
      case OpCode::kLoadNum: case OpCode::kLoadStr: case OpCode::kLoadList:
      case OpCode::kWorkload: case OpCode::kMode: case OpCode::kScore:
        return 0;
      default:
        return 1;
    }
  }

  // Translates the code from `pc` up to `end` (exclusive), or up to its kEnd if `end` < 0,
  // pushing and popping named values on `stack`. False if an instruction has no translation.
  bool Block(int32_t pc, int32_t end, std::vector<Val>* stack, std::string* out,
             const std::string& ind) {
    for (;; ++pc) {
      if (pc == end) return true;
      if (pc < 0 || pc >= static_cast<int32_t>(p_.code.size())) return false;
      const Instr& i = p_.code[pc];
      auto push = [&](char type, const std::string& expr) {
        const std::string name = absl::StrCat("v", next_value_++);
        const char* ctype = type == 'n' ? "double"
                            : type == 'b' ? "bool"
                            : type == 's' ? "absl::string_view"
                                          : "StringListRef";
        absl::StrAppend(out, ind, ctype, " ", name, " = ", expr, ";\n");
        stack->push_back({name, type});
        return name;
      };
      auto pop = [&] {
        Val v = stack->back();
        stack->pop_back();
        return v.name;
      };
      if (internal::IsLeafCondition(i.op) || i.op == OpCode::kFactListHasK ||
          i.op == OpCode::kFactMatch || i.op == OpCode::kFactInStrK) {
        push('b', Test(i));
        continue;
      }
      if (stack->size() < Pops(i.op)) return false;
      if (i.op != OpCode::kEnd && internal::IsLeafScoreOp(i.op)) {  // a constant operation
        const std::string x = push('n', pop());
        absl::StrAppend(out, LeafOp(i, x, faults_, ind));
        continue;
      }
      const std::string k = DoubleLiteral(i.k);
      switch (i.op) {
        case OpCode::kEnd:
          return end < 0;
        case OpCode::kNum: push('n', k); break;
        case OpCode::kBool: push('b', i.a != 0 ? "true" : "false"); break;
        case OpCode::kStr:
          push('s', absl::StrCat("absl::string_view(", StringLiteral(p_.strings[i.a]), ", ",
                                 p_.strings[i.a].size(), ")"));
          break;
        case OpCode::kLoadNum: push('n', absl::StrCat("n[", i.a, "]")); break;
        case OpCode::kLoadStr: push('s', absl::StrCat("s[", i.a, "]")); break;
        case OpCode::kLoadList: push('l', absl::StrCat("ctx->facts->lists()[", i.a, "]")); break;
        case OpCode::kWorkload: push('s', "ctx->workload"); break;
        case OpCode::kMode: push('s', "ctx->mode"); break;
        case OpCode::kScore: push('n', "ctx->score"); break;
        case OpCode::kNot: push('b', absl::StrCat("!", pop())); break;
        case OpCode::kLenList:
          push('n', absl::StrCat("static_cast<double>(", pop(), ".size)"));
          break;
        case OpCode::kAdd:
        case OpCode::kSub:
        case OpCode::kMul:
        case OpCode::kDiv:
        case OpCode::kMin:
        case OpCode::kMax:
        case OpCode::kLt:
        case OpCode::kLe:
        case OpCode::kGt:
        case OpCode::kGe:
        case OpCode::kEq:
        case OpCode::kNe:
        case OpCode::kEqBool:
        case OpCode::kNeBool: {
          const std::string rhs = pop(), lhs = pop();
          const std::string fl = absl::StrCat(", &", faults_, ")");
          switch (i.op) {
            case OpCode::kAdd: push('n', absl::StrCat("internal::Finite(", lhs, " + ", rhs, fl)); break;
            case OpCode::kSub: push('n', absl::StrCat("internal::Finite(", lhs, " - ", rhs, fl)); break;
            case OpCode::kMul: push('n', absl::StrCat("internal::Finite(", lhs, " * ", rhs, fl)); break;
            case OpCode::kDiv: push('n', absl::StrCat("internal::Divide(", lhs, ", ", rhs, fl)); break;
            case OpCode::kMin: push('n', absl::StrCat(rhs, " < ", lhs, " ? ", rhs, " : ", lhs)); break;
            case OpCode::kMax: push('n', absl::StrCat(rhs, " > ", lhs, " ? ", rhs, " : ", lhs)); break;
            case OpCode::kLt: push('b', absl::StrCat(lhs, " < ", rhs)); break;
            case OpCode::kLe: push('b', absl::StrCat(lhs, " <= ", rhs)); break;
            case OpCode::kGt: push('b', absl::StrCat(lhs, " > ", rhs)); break;
            case OpCode::kGe: push('b', absl::StrCat(lhs, " >= ", rhs)); break;
            case OpCode::kEq: push('b', absl::StrCat(lhs, " == ", rhs)); break;
            case OpCode::kNe: push('b', absl::StrCat(lhs, " != ", rhs)); break;
            case OpCode::kEqBool: push('b', absl::StrCat(lhs, " == ", rhs)); break;
            default: push('b', absl::StrCat(lhs, " != ", rhs)); break;  // kNeBool
          }
          break;
        }
        case OpCode::kLtK: push('b', absl::StrCat(pop(), " < ", k)); break;
        case OpCode::kLeK: push('b', absl::StrCat(pop(), " <= ", k)); break;
        case OpCode::kGtK: push('b', absl::StrCat(pop(), " > ", k)); break;
        case OpCode::kGeK: push('b', absl::StrCat(pop(), " >= ", k)); break;
        case OpCode::kEqK: push('b', absl::StrCat(pop(), " == ", k)); break;
        case OpCode::kNeK: push('b', absl::StrCat(pop(), " != ", k)); break;
        case OpCode::kClamp: {
          const std::string hi = pop(), lo = pop(), x = pop();
          const std::string low = push('n', absl::StrCat(x, " < ", lo, " ? ", lo, " : ", x));
          stack->pop_back();
          push('n', absl::StrCat(low, " > ", hi, " ? ", hi, " : ", low));
          break;
        }
        case OpCode::kEqStr:
        case OpCode::kNeStr: {
          const std::string rhs = pop(), lhs = pop();
          push('b', absl::StrCat(i.op == OpCode::kNeStr ? "!" : "", "internal::StrEq(", lhs,
                                 ".data(), ", lhs, ".size(), ", rhs, ".data(), ", rhs,
                                 ".size())"));
          break;
        }
        case OpCode::kEqStrK:
          push('b', StrEqCall(pop(), p_.strings[i.b]));
          break;
        case OpCode::kNeStrK:
          push('b', absl::StrCat("!", StrEqCall(pop(), p_.strings[i.b])));
          break;
        case OpCode::kInNumK: {
          const std::string x = pop();
          std::string any = "false";
          for (double v : p_.number_lists[i.a]) {
            absl::StrAppend(&any, " || ", x, " == ", DoubleLiteral(v));
          }
          push('b', any);
          break;
        }
        case OpCode::kInStrK:
          push('b', absl::StrCat("internal::InList(program.string_lists[", i.a, "], ", pop(),
                                 ")"));
          break;
        case OpCode::kMatch:
          push('b', absl::StrCat("internal::Match(program, ", i.a, ", ", pop(), ", ctx)"));
          break;
        case OpCode::kJumpIfFalse:
        case OpCode::kJumpIfTrue: {
          // The top is the left operand: if it decides (false for `and`, true for `or`) it is
          // the value; else it is dropped and the code up to the target gives the value.
          const std::string left = pop();
          const std::string value = absl::StrCat("v", next_value_++);
          absl::StrAppend(out, ind, "bool ", value, " = ", left, ";\n", ind, "if (",
                          i.op == OpCode::kJumpIfFalse ? "" : "!", value, ") {\n");
          std::vector<Val> inner = *stack;
          if (i.a <= pc || !Block(pc + 1, i.a, &inner, out, ind + "  ")) return false;
          if (inner.size() != stack->size() + 1 || inner.back().type != 'b') return false;
          absl::StrAppend(out, ind, "  ", value, " = ", inner.back().name, ";\n", ind, "}\n");
          stack->push_back({value, 'b'});
          pc = i.a - 1;
          break;
        }
        default:  // kRound, kInList: interpreted
          return false;
      }
    }
  }

  const internal::Program& p_;
  std::string consts_;
  int next_const_ = 0;
  int next_value_ = 0;
  std::string faults_;
};

}  // namespace

std::string EmitNativePhases(const CompiledRules* rules) {
  using Phase = CompiledRules::Phase;
  using Step = CompiledRules::Step;
  std::vector<const Phase*> all;
  if (rules != nullptr) {
    rules->ForEachPhase([&](const Phase& phase) { all.push_back(&phase); });
  }
  const internal::Program no_program;
  Emitter emit(rules != nullptr ? rules->program_ : no_program);
  std::map<std::string, int> functions;  // key -> index
  std::string bodies, table, keys;
  for (const Phase* phase : all) {
    if (phase->steps.empty()) continue;
    std::string key = rules->NativeKey(*phase);
    if (functions.count(key) > 0) continue;
    const int index = static_cast<int>(functions.size());
    functions.emplace(key, index);
    std::string f = absl::StrCat(
        "NativeFaults Phase", index,
        "(const internal::Program& program, internal::RunContext* ctx, const NativeOut& out) {\n"
        "  [[maybe_unused]] const double* n = ctx->facts->numbers();\n"
        "  [[maybe_unused]] const uint8_t* b = ctx->facts->bools();\n"
        "  [[maybe_unused]] const absl::string_view* s = ctx->facts->strings();\n"
        // Locals: a store through a byte pointer may alias `out`, which GCC would then read
        // again for every rule.
        "  uint8_t* const fired = out.fired;\n"
        "  double* const contribution = out.contribution;\n"
        "  uint8_t* const faults_of = out.faults_of;\n"
        "  double* const set_sum = out.set_sum;\n"
        "  double* const set_magnitude = out.set_magnitude;\n");
    for (size_t t = 0; t < phase->tests.size(); ++t) {
      absl::StrAppend(&f, "  const bool t", t, " = ", emit.Test(phase->tests[t]), ";\n");
    }
    f += "  NativeFaults faults;\n";
    for (const Step& st : phase->steps) {
      std::string when;
      if (st.when_kind == Step::When::kTests) {
        for (size_t t = 0; t < phase->tests.size() && st.need != 0; ++t) {
          if (((st.need >> t) & 1) == 0) continue;
          absl::StrAppend(&when, when.empty() ? "" : " && ", ((st.want >> t) & 1) ? "" : "!",
                          "t", t);
        }
        if (st.need == 0) when = st.want == 0 ? "true" : "false";
      }
      const std::string sums = absl::StrCat(
          "    if (set_sum != nullptr) {\n      set_sum[", st.set,
          "] += x;\n      set_magnitude[", st.set, "] += std::fabs(x);\n    }\n");
      absl::StrAppend(&f, "  {  // ", rules->info_[st.rule].id, "\n");
      if (st.when_kind == Step::When::kTests && st.score_kind == Step::Score::kConstant) {
        absl::StrAppend(&f, "    const bool f = ", when, ";\n    const double x = f ? ",
                        DoubleLiteral(st.constant), " : 0.0;\n    fired[", st.rule,
                        "] = f;\n    contribution[", st.rule, "] = x;\n    faults_of[",
                        st.rule, "] = 0;\n", sums, "  }\n");
        continue;
      }
      f += "    uint8_t fl = 0;\n";
      if (st.when_kind == Step::When::kCode) {
        absl::StrAppend(&f, "    bool f = false;\n", emit.Expr(st.when, "f", "b", "fl", "    "));
      } else {
        absl::StrAppend(&f, "    const bool f = ", when, ";\n");
      }
      f += "    double x = 0;\n    if (f) {\n";
      switch (st.score_kind) {
        case Step::Score::kConstant:
          absl::StrAppend(&f, "      x = ", DoubleLiteral(st.constant), ";\n");
          break;
        case Step::Score::kLeaf:
          absl::StrAppend(&f, "      x = n[", st.score, "];\n");
          for (int k = 0; k < st.score_ops; ++k) {
            absl::StrAppend(&f, emit.LeafOp(st.ops[k], "x", "fl", "      "));
          }
          break;
        case Step::Score::kCode:
          absl::StrAppend(&f, emit.Expr(st.score, "x", "num", "fl", "      "));
          break;
      }
      absl::StrAppend(&f, "    }\n    fired[", st.rule, "] = f;\n    contribution[",
                      st.rule, "] = x;\n    faults_of[", st.rule, "] = fl;\n", sums,
                      "    if (fl != 0) {\n      ++faults.all;\n",
                      rules->rules_[st.rule].effect ? "      ++faults.effect;\n" : "",
                      "    }\n  }\n");
    }
    f += "  return faults;\n}\n\n";
    bodies += f;
    absl::StrAppend(&table, "    {kKey", index, ", sizeof(kKey", index, ") - 1, &Phase", index,
                    "},\n");
    absl::StrAppend(&keys, "constexpr char kKey", index, "[] = ", StringLiteral(key), ";\n");
  }
  // Every distinct plan order: its totals as one local per set, added to in book order.
  std::map<std::vector<std::pair<int32_t, int32_t>>, int> orders;  // order -> index
  std::string total_bodies, total_table, total_orders;
  if (rules != nullptr) {
    rules->MakeAllPlans();
    for (const std::unique_ptr<CompiledRules::Plan>& made : rules->made_) {
      const CompiledRules::Plan& plan = *made;
      if (plan.order.empty() ||
          !orders.emplace(plan.order, static_cast<int>(orders.size())).second) {
        continue;
      }
      const int index = static_cast<int>(orders.size()) - 1;
      std::string f = absl::StrCat("void Total", index, "(const double* c, double* t) {\n");
      std::vector<int32_t> sets;  // in order of first use
      for (const auto& [rule, set] : plan.order) {
        if (std::find(sets.begin(), sets.end(), set) == sets.end()) {
          sets.push_back(set);
          absl::StrAppend(&f, "  double s", set, " = 0.0;\n");
        }
      }
      for (const auto& [rule, set] : plan.order) absl::StrAppend(&f, "  s", set, " += c[", rule, "];\n");
      for (int32_t set : sets) absl::StrAppend(&f, "  t[", set, "] = s", set, ";\n");
      total_bodies += f + "}\n\n";
      absl::StrAppend(&total_orders, "constexpr std::pair<int32_t, int32_t> kOrder", index,
                      "[] = {");
      for (const auto& [rule, set] : plan.order) {
        absl::StrAppend(&total_orders, "{", rule, ", ", set, "}, ");
      }
      total_orders += "};\n";
      absl::StrAppend(&total_table, "    {kOrder", index, ", std::size(kOrder", index,
                      "), &Total", index, "},\n");
    }
  }
  const std::string phases_value =
      table.empty() ? "nullptr, 0" : "kPhases, std::size(kPhases)";
  const std::string totals_value =
      total_table.empty() ? "nullptr, 0" : "kTotals, std::size(kTotals)";
  return absl::StrCat(
      "// Generated at build time by fitrank_gen_native_rules (tools/gen_native_rules.cc) from "
      "the\n// shipped rules: rules/native.h. Do not edit.\n"
      "#include <bit>\n#include <cmath>\n#include <cstdint>\n#include <iterator>\n#include <utility>\n\n"
      "#include \"rules/facts.h\"\n#include \"rules/internal/program.h\"\n"
      "#include \"rules/native.h\"\n\n"
      "namespace fitrank::rules {\nnamespace {\n\n",
      emit.constants(), "\n", keys, "\n", bodies,
      table.empty() ? "" : absl::StrCat("const NativePhase kPhases[] = {\n", table, "};\n\n"),
      total_orders, "\n", total_bodies,
      total_table.empty() ? ""
                          : absl::StrCat("const NativeTotal kTotals[] = {\n", total_table, "};\n\n"),
      "}  // namespace\n\nconst NativePhases& ShippedNativePhases() {\n",
      "  static const NativePhases phases{", phases_value, ", ", totals_value, "};\n",
      "  return phases;\n}\n\n}  // namespace fitrank::rules\n");
}

}  // namespace fitrank::rules
