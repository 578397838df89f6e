#include "rules/internal/program.h"

#include <cmath>
#include <cstring>

namespace fitrank::rules::internal {
namespace {

inline bool ListContains(const List& l, const char* s, size_t n) {
  return ListHas(l.ref(), absl::string_view(s, n));
}

constexpr double kPow10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};

}  // namespace

bool Match(const Program& p, int32_t index, absl::string_view s, RunContext* ctx) {
  const RE2& re = *p.regexes[index];
  if (ctx->memo == nullptr || s.size() > static_cast<size_t>(RegexMemo::kMaxLen)) {
    return RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), re);
  }
  const size_t way = ((reinterpret_cast<uintptr_t>(s.data()) >> 3) ^ s.size()) &
                    (RegexMemo::kWays - 1);
  RegexMemo& m = ctx->memo[static_cast<size_t>(index) * RegexMemo::kWays + way];
  if (m.valid && m.len == s.size() &&
      (s.empty() || std::memcmp(m.text, s.data(), s.size()) == 0)) {
    return m.result;
  }
  bool r = RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), re);
  m.valid = true;
  m.len = static_cast<uint8_t>(s.size());
  if (!s.empty()) std::memcpy(m.text, s.data(), s.size());
  m.result = r;
  return r;
}

std::string FaultText(uint8_t faults) {
  std::string out;
  auto add = [&](const char* s) {
    if (!out.empty()) out += ", ";
    out += s;
  };
  if (faults & kFaultDivideByZero) add("division by zero");
  if (faults & kFaultLog2) add("log2 of a number <= 0");
  if (faults & kFaultOverflow) add("overflow");
  return out;
}

int32_t Program::Intern(absl::string_view s) {
  for (size_t i = 0; i < strings.size(); ++i) {
    if (strings[i] == s) return static_cast<int32_t>(i);
  }
  strings.emplace_back(s);
  return static_cast<int32_t>(strings.size() - 1);
}

Value Run(const Program& p, int32_t entry, RunContext* ctx) {
  // stack[0] is never used, so that `sp` (which points at the top value) starts inside the
  // array.
  Value stack[Program::kMaxStack + 1];
  Value* sp = stack;
  const Instr* const code = p.code.data();
  const Instr* ip = code + entry;
  const FactValues& f = *ctx->facts;
  const double* nums = f.numbers();

  for (;; ++ip) {
    switch (ip->op) {
      case OpCode::kEnd:
        return *sp;
      case OpCode::kNum:
        (++sp)->num = ip->k;
        break;
      case OpCode::kBool:
        (++sp)->b = ip->a != 0;
        break;
      case OpCode::kStr: {
        const std::string& s = p.strings[ip->a];
        (++sp)->str = Str{s.data(), s.size()};
        break;
      }
      case OpCode::kLoadNum:
        (++sp)->num = nums[ip->a];
        break;
      case OpCode::kLoadBool:
        (++sp)->b = f.bools()[ip->a] != 0;
        break;
      case OpCode::kLoadStr: {
        absl::string_view s = f.strings()[ip->a];
        (++sp)->str = Str{s.data(), s.size()};
        break;
      }
      case OpCode::kLoadList: {
        const StringListRef& l = f.lists()[ip->a];
        (++sp)->list = List{l.data, l.size, l.std_strings};
        break;
      }
      case OpCode::kWorkload:
        (++sp)->str = Str{ctx->workload.data(), ctx->workload.size()};
        break;
      case OpCode::kMode:
        (++sp)->str = Str{ctx->mode.data(), ctx->mode.size()};
        break;
      case OpCode::kKnown:
        (++sp)->b = f.IsSet(ip->a);
        break;
      case OpCode::kScore:
        (++sp)->num = ctx->score;
        break;
      case OpCode::kFactLtK:
        (++sp)->b = nums[ip->a] < ip->k;
        break;
      case OpCode::kFactLeK:
        (++sp)->b = nums[ip->a] <= ip->k;
        break;
      case OpCode::kFactGtK:
        (++sp)->b = nums[ip->a] > ip->k;
        break;
      case OpCode::kFactGeK:
        (++sp)->b = nums[ip->a] >= ip->k;
        break;
      case OpCode::kFactEqK:
        (++sp)->b = nums[ip->a] == ip->k;
        break;
      case OpCode::kFactNeK:
        (++sp)->b = nums[ip->a] != ip->k;
        break;
      case OpCode::kFactStrEqK:
      case OpCode::kFactStrNeK: {
        absl::string_view s = f.strings()[ip->a];
        const std::string& k = p.strings[ip->b];
        bool eq = StrEq(s.data(), s.size(), k.data(), k.size());
        (++sp)->b = (ip->op == OpCode::kFactStrEqK) == eq;
        break;
      }
      case OpCode::kFactListHasK: {
        const StringListRef& l = f.lists()[ip->a];
        const std::string& k = p.strings[ip->b];
        (++sp)->b = ListHas(l, k);
        break;
      }
      case OpCode::kNot:
        sp->b = !sp->b;
        break;
      // Unary, and the right operand the constant k: as a score's constant operations.
      case OpCode::kNeg:
      case OpCode::kAbs:
      case OpCode::kLog2:
      case OpCode::kAddK:
      case OpCode::kSubK:
      case OpCode::kMulK:
      case OpCode::kDivK:
      case OpCode::kMinK:
      case OpCode::kMaxK:
      case OpCode::kKSub:
      case OpCode::kKDiv:
        sp->num = RunLeafScore(sp->num, *ip, &ctx->faults);
        break;
      case OpCode::kRound: {
        double scale = kPow10[ip->b];
        sp->num = Finite(std::round(sp->num * scale) / scale, &ctx->faults);
        break;
      }
      case OpCode::kLenList:
        sp->num = static_cast<double>(sp->list.size);
        break;
      case OpCode::kAdd:
        --sp;
        sp->num = Finite(sp->num + sp[1].num, &ctx->faults);
        break;
      case OpCode::kSub:
        --sp;
        sp->num = Finite(sp->num - sp[1].num, &ctx->faults);
        break;
      case OpCode::kMul:
        --sp;
        sp->num = Finite(sp->num * sp[1].num, &ctx->faults);
        break;
      case OpCode::kDiv:
        --sp;
        sp->num = Divide(sp->num, sp[1].num, &ctx->faults);
        break;
      case OpCode::kMin:
        --sp;
        sp->num = sp[1].num < sp->num ? sp[1].num : sp->num;
        break;
      case OpCode::kMax:
        --sp;
        sp->num = sp[1].num > sp->num ? sp[1].num : sp->num;
        break;
      case OpCode::kLt:
        --sp;
        sp->b = sp->num < sp[1].num;
        break;
      case OpCode::kLe:
        --sp;
        sp->b = sp->num <= sp[1].num;
        break;
      case OpCode::kGt:
        --sp;
        sp->b = sp->num > sp[1].num;
        break;
      case OpCode::kGe:
        --sp;
        sp->b = sp->num >= sp[1].num;
        break;
      case OpCode::kEq:
        --sp;
        sp->b = sp->num == sp[1].num;
        break;
      case OpCode::kNe:
        --sp;
        sp->b = sp->num != sp[1].num;
        break;
      case OpCode::kLtK:
        sp->b = sp->num < ip->k;
        break;
      case OpCode::kLeK:
        sp->b = sp->num <= ip->k;
        break;
      case OpCode::kGtK:
        sp->b = sp->num > ip->k;
        break;
      case OpCode::kGeK:
        sp->b = sp->num >= ip->k;
        break;
      case OpCode::kEqK:
        sp->b = sp->num == ip->k;
        break;
      case OpCode::kNeK:
        sp->b = sp->num != ip->k;
        break;
      case OpCode::kClamp: {
        sp -= 2;
        double x = sp->num, lo = sp[1].num, hi = sp[2].num;
        x = x < lo ? lo : x;
        sp->num = x > hi ? hi : x;
        break;
      }
      case OpCode::kEqBool:
        --sp;
        sp->b = sp->b == sp[1].b;
        break;
      case OpCode::kNeBool:
        --sp;
        sp->b = sp->b != sp[1].b;
        break;
      case OpCode::kEqStr:
      case OpCode::kNeStr: {
        --sp;
        bool eq = StrEq(sp->str.data, sp->str.size, sp[1].str.data, sp[1].str.size);
        sp->b = (ip->op == OpCode::kEqStr) == eq;
        break;
      }
      case OpCode::kEqStrK:
      case OpCode::kNeStrK: {
        const std::string& k = p.strings[ip->b];
        bool eq = StrEq(sp->str.data, sp->str.size, k.data(), k.size());
        sp->b = (ip->op == OpCode::kEqStrK) == eq;
        break;
      }
      case OpCode::kInNumK: {
        const std::vector<double>& l = p.number_lists[ip->a];
        double x = sp->num;
        bool in = false;
        for (double v : l) in |= (v == x);
        sp->b = in;
        break;
      }
      case OpCode::kInStrK:
        sp->b = InList(p.string_lists[ip->a], sp->str.view());
        break;
      case OpCode::kInList: {
        --sp;
        sp->b = ListContains(sp[1].list, sp->str.data, sp->str.size);
        break;
      }
      case OpCode::kMatch:
        sp->b = Match(p, ip->a, sp->str.view(), ctx);
        break;
      case OpCode::kFactMatch:
      case OpCode::kFactInStrK:
      case OpCode::kFactLtF:
      case OpCode::kFactLeF:
      case OpCode::kFactGtF:
      case OpCode::kFactGeF:
      case OpCode::kFactEqF:
      case OpCode::kFactNeF:
        (++sp)->b = RunLeafCondition(p, *ip, ctx);
        break;
      case OpCode::kJumpIfFalse:
        if (!sp->b) {
          ip = code + ip->a - 1;
        } else {
          --sp;
        }
        break;
      case OpCode::kJumpIfTrue:
        if (sp->b) {
          ip = code + ip->a - 1;
        } else {
          --sp;
        }
        break;
    }
  }
}

}  // namespace fitrank::rules::internal
