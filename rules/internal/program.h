// The compiled form of rule expressions: a typed stack bytecode and its interpreter.
//
// All expressions of a rule book share one Program; an expression is an entry offset into
// `code` and runs until kEnd, leaving its value on top of the stack. Types were checked by the
// compiler, so instructions trust their operands. Running an expression does no allocation
// and no name lookup: facts are read by slot, constants by index.
//
// Numeric faults never produce NaN or infinity: division by zero, log2 of a number <= 0 and
// an arithmetic result that overflows all yield 0 and set a bit in RunContext::faults.
#ifndef FITRANK_RULES_INTERNAL_PROGRAM_H_
#define FITRANK_RULES_INTERNAL_PROGRAM_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/string_view.h"
#include "re2/re2.h"
#include "rules/facts.h"

namespace fitrank::rules::internal {

enum class OpCode : uint8_t {
  kEnd,
  // Push a constant or a fact. a: slot / constant index.
  kNum,       // k
  kBool,      // a != 0
  kStr,       // strings[a]
  kLoadNum,   // numbers[a]
  kLoadBool,  // bools[a]
  kLoadStr,   // strings[a] of the facts
  kLoadList,  // lists[a] of the facts
  kWorkload,  // canonical id of the workload being evaluated ("" if none)
  kMode,      // canonical id of the mode being evaluated ("" if none)
  kKnown,     // IsSet(fact index a)
  kScore,     // RunContext::score (sentence templates: the rule's contribution)
  // Fused: number fact `a` compared with constant k.
  kFactLtK,
  kFactLeK,
  kFactGtK,
  kFactGeK,
  kFactEqK,
  kFactNeK,
  // Fused: string fact `a` ==/!= strings[b].
  kFactStrEqK,
  kFactStrNeK,
  // Fused: string list fact `a` contains strings[b].
  kFactListHasK,
  // Fused: string fact `a` =~ regexes[b].
  kFactMatch,
  // Fused: string fact `a` in string_lists[b].
  kFactInStrK,
  // Fused: number fact `a` compared with number fact `b`.
  kFactLtF,
  kFactLeF,
  kFactGtF,
  kFactGeF,
  kFactEqF,
  kFactNeF,
  // Unary on the top of the stack.
  kNeg,
  kNot,
  kAbs,
  kLog2,
  kRound,   // b: digits (0..6)
  kLenList, // length of a string list
  // Binary on numbers: pop rhs, pop lhs, push result.
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMin,
  kMax,
  kLt,
  kLe,
  kGt,
  kGe,
  kEq,
  kNe,
  // Same with the right operand the constant k.
  kAddK,
  kSubK,
  kMulK,
  kDivK,
  kMinK,
  kMaxK,
  kLtK,
  kLeK,
  kGtK,
  kGeK,
  kEqK,
  kNeK,
  // k - top, k / top (constant on the left).
  kKSub,
  kKDiv,
  kClamp,  // pop hi, lo, x; push min(max(x, lo), hi)
  kEqBool,
  kNeBool,
  kEqStr,
  kNeStr,
  kEqStrK,  // top == strings[b]
  kNeStrK,
  kInNumK,   // top (number) in number_lists[a]
  kInStrK,   // top (string) in string_lists[a]
  kInList,   // pop list, pop string: string in list
  kMatch,    // top (string) =~ regexes[a]
  // Short circuit: if the top is false (true), jump to a keeping it; else pop and go on.
  kJumpIfFalse,
  kJumpIfTrue,
};

struct Instr {
  OpCode op = OpCode::kEnd;
  int32_t a = 0;
  int32_t b = 0;
  double k = 0;
};

// A runtime value. The compiler knows which member is live.
struct Str {
  const char* data;
  size_t size;
  absl::string_view view() const { return absl::string_view(data, size); }
};
struct List {
  const void* data;
  uint32_t size;
  bool std_strings;
  StringListRef ref() const { return StringListRef{data, size, std_strings}; }
};
union Value {
  double num;
  bool b;
  Str str;
  List list;
};

enum FaultBits : uint8_t {
  kFaultDivideByZero = 1,
  kFaultLog2 = 2,
  kFaultOverflow = 4,
};
// "division by zero", "log2 of a number <= 0", "overflow", joined with ", ".
std::string FaultText(uint8_t faults);

// Memo of regex results. Each regex has kWays entries, picked by the subject's address and
// length (cheap; catalog strings keep their address across candidates) and checked against a
// copy of the subject's content, so a hit is always exact whatever the caller does with its
// strings. Subjects longer than kMaxLen are not memoised. kWays is sized so that every model
// name of a catalog (428 today) can stay memoised while a sweep goes from GPU to GPU: a
// scratch record meets each model once per GPU (~57 KB per regex and evaluation record).
struct RegexMemo {
  static constexpr int kWays = 1024;
  static constexpr int kMaxLen = 54;
  uint8_t len = 0;
  bool valid = false;
  bool result = false;
  char text[kMaxLen];
};

struct Program {
  static constexpr int kMaxStack = 256;

  std::vector<Instr> code;
  std::vector<std::string> strings;
  std::vector<std::vector<double>> number_lists;
  std::vector<std::vector<std::string>> string_lists;
  std::vector<std::unique_ptr<RE2>> regexes;

  // Index of `s` in `strings`, adding it if needed.
  int32_t Intern(absl::string_view s);
};

struct RunContext {
  const FactValues* facts = nullptr;
  absl::string_view workload;  // canonical id, or empty
  absl::string_view mode;
  RegexMemo* memo = nullptr;   // RegexMemo::kWays per regex, or nullptr
  double score = 0;            // what kScore pushes
  uint8_t faults = 0;          // FaultBits, accumulated
};

// Runs the expression starting at `entry`.
Value Run(const Program& program, int32_t entry, RunContext* ctx);

// --- Fast paths for the evaluator -------------------------------------------------------
// Most rule conditions are one fused test (`fit.headroom_pct >= 15`, `fit.kind == "x"`,
// `"tools" in model.capabilities`, a bool fact, `known(x)`), and many scores are one fact
// and one constant (`-4 * fit.offload_pct`). CompiledRules runs those inline, without
// entering Run(); the results are identical.

// Most strings compared differ in length or first byte: test those before calling memcmp.
inline bool StrEq(const char* a, size_t an, const char* b, size_t bn) {
  return an == bn && (an == 0 || (a[0] == b[0] && std::memcmp(a, b, an) == 0));
}

inline bool ListHas(const StringListRef& l, absl::string_view s) {
  if (l.std_strings) {
    const std::string* items = static_cast<const std::string*>(l.data);
    for (uint32_t i = 0; i < l.size; ++i) {
      if (StrEq(items[i].data(), items[i].size(), s.data(), s.size())) return true;
    }
  } else {
    const absl::string_view* items = static_cast<const absl::string_view*>(l.data);
    for (uint32_t i = 0; i < l.size; ++i) {
      if (StrEq(items[i].data(), items[i].size(), s.data(), s.size())) return true;
    }
  }
  return false;
}

inline bool InList(const std::vector<std::string>& list, absl::string_view s) {
  for (const std::string& v : list) {
    if (StrEq(v.data(), v.size(), s.data(), s.size())) return true;
  }
  return false;
}

// True if `op` alone computes a condition from the facts.
inline bool IsLeafCondition(OpCode op) {
  return (op >= OpCode::kFactLtK && op <= OpCode::kFactNeF) || op == OpCode::kLoadBool ||
         op == OpCode::kKnown;
}

// `subject` =~ regexes[index], memoised in ctx->memo when there is one.
bool Match(const Program& p, int32_t index, absl::string_view subject, RunContext* ctx);

ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool RunLeafCondition(const Program& p, const Instr& ins, RunContext* ctx) {
  const FactValues& f = *ctx->facts;
  const double* nums = f.numbers();
  switch (ins.op) {
    case OpCode::kFactLtK:
      return nums[ins.a] < ins.k;
    case OpCode::kFactLeK:
      return nums[ins.a] <= ins.k;
    case OpCode::kFactGtK:
      return nums[ins.a] > ins.k;
    case OpCode::kFactGeK:
      return nums[ins.a] >= ins.k;
    case OpCode::kFactEqK:
      return nums[ins.a] == ins.k;
    case OpCode::kFactNeK:
      return nums[ins.a] != ins.k;
    case OpCode::kFactStrEqK:
    case OpCode::kFactStrNeK: {
      absl::string_view s = f.strings()[ins.a];
      const std::string& k = p.strings[ins.b];
      return (ins.op == OpCode::kFactStrEqK) == StrEq(s.data(), s.size(), k.data(), k.size());
    }
    case OpCode::kFactListHasK:
      return ListHas(f.lists()[ins.a], p.strings[ins.b]);
    case OpCode::kFactMatch:
      return Match(p, ins.b, f.strings()[ins.a], ctx);
    case OpCode::kFactInStrK:
      return InList(p.string_lists[ins.b], f.strings()[ins.a]);
    case OpCode::kFactLtF:
      return nums[ins.a] < nums[ins.b];
    case OpCode::kFactLeF:
      return nums[ins.a] <= nums[ins.b];
    case OpCode::kFactGtF:
      return nums[ins.a] > nums[ins.b];
    case OpCode::kFactGeF:
      return nums[ins.a] >= nums[ins.b];
    case OpCode::kFactEqF:
      return nums[ins.a] == nums[ins.b];
    case OpCode::kFactNeF:
      return nums[ins.a] != nums[ins.b];
    case OpCode::kLoadBool:
      return f.bools()[ins.a] != 0;
    case OpCode::kKnown:
      return f.IsSet(ins.a);
    default:
      return false;
  }
}

// A score of the form `fact OP k` (OP one of the kXxxK / kKSub / kKDiv instructions, or
// kEnd for the bare fact), or a unary operation (kNeg, kAbs, kLog2) on it.
inline bool IsLeafScoreOp(OpCode op) {
  return op == OpCode::kEnd || (op >= OpCode::kAddK && op <= OpCode::kMaxK) ||
         op == OpCode::kKSub || op == OpCode::kKDiv || op == OpCode::kNeg ||
         op == OpCode::kAbs || op == OpCode::kLog2;
}

// Arithmetic that never leaves the finite numbers: an overflow (division by zero) yields 0
// and sets kFaultOverflow (kFaultDivideByZero) in *faults.
inline double Finite(double v, uint8_t* faults) {
  if (std::isfinite(v)) return v;
  *faults |= kFaultOverflow;
  return 0;
}
inline double Divide(double a, double b, uint8_t* faults) {
  if (b == 0) {
    *faults |= kFaultDivideByZero;
    return 0;
  }
  return Finite(a / b, faults);
}

// `op` (IsLeafScoreOp) applied to x: Run does these operations with it too.
inline double RunLeafScore(double x, const Instr& op, uint8_t* faults) {
  switch (op.op) {
    case OpCode::kAddK:
      return Finite(x + op.k, faults);
    case OpCode::kSubK:
      return Finite(x - op.k, faults);
    case OpCode::kMulK:
      return Finite(x * op.k, faults);
    case OpCode::kDivK:
      return Divide(x, op.k, faults);
    case OpCode::kMinK:
      return op.k < x ? op.k : x;
    case OpCode::kMaxK:
      return op.k > x ? op.k : x;
    case OpCode::kKSub:
      return Finite(op.k - x, faults);
    case OpCode::kKDiv:
      return Divide(op.k, x, faults);
    case OpCode::kNeg:
      return -x;
    case OpCode::kAbs:
      return std::fabs(x);
    case OpCode::kLog2:
      if (x <= 0) {
        *faults |= kFaultLog2;
        return 0;
      }
      return std::log2(x);
    default:  // kEnd
      return x;
  }
}

}  // namespace fitrank::rules::internal

#endif  // FITRANK_RULES_INTERNAL_PROGRAM_H_
