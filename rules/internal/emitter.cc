#include "rules/internal/emitter.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace fitrank::rules::internal {
namespace {

// Emits code for a checked tree.
class Emitter {
 public:
  Emitter(const Ast& ast, const CheckedTree& checker, Program* program)
      : ast_(ast), c_(checker), p_(program) {}

  void Emit(int32_t i) {
    const CheckedNode& in = c_.info(i);
    if (in.is_const) return EmitConst(in);
    const Node& n = ast_.at(i);
    switch (n.kind) {
      case NodeKind::kFact:
        return EmitFact(in);
      case NodeKind::kUnary:
        Emit(n.args[0]);
        if (n.op == Op::kNeg) Op0(OpCode::kNeg, 0);
        if (n.op == Op::kNot) Op0(OpCode::kNot, 0);
        return;
      case NodeKind::kBinary:
        return EmitBinary(i);
      case NodeKind::kCall:
        return EmitCall(i);
      default:
        return;  // constants and lists were handled above
    }
  }

  int max_depth() const { return max_depth_; }

 private:
  // Appends an instruction whose net stack effect is `effect`.
  int32_t Op0(OpCode op, int effect, int32_t a = 0, int32_t b = 0, double k = 0) {
    Instr ins;
    ins.op = op;
    ins.a = a;
    ins.b = b;
    ins.k = k;
    p_->code.push_back(ins);
    depth_ += effect;
    if (depth_ > max_depth_) max_depth_ = depth_;
    return static_cast<int32_t>(p_->code.size() - 1);
  }

  void EmitConst(const CheckedNode& in) {
    switch (in.type) {
      case Type::kNumber:
        Op0(OpCode::kNum, 1, 0, 0, in.value.num);
        return;
      case Type::kBool:
        Op0(OpCode::kBool, 1, in.value.b ? 1 : 0);
        return;
      case Type::kString:
        Op0(OpCode::kStr, 1, p_->Intern(in.value.str));
        return;
      default:
        return;  // constant lists are operands of `in`/`len` and never pushed
    }
  }

  void EmitFact(const CheckedNode& in) {
    if (in.is_score) {
      Op0(OpCode::kScore, 1);
      return;
    }
    const FactDecl& d = *in.fact;
    if (d.builtin) {
      Op0(d.name == FactSchema::kWorkloadId ? OpCode::kWorkload : OpCode::kMode, 1);
      return;
    }
    switch (d.type) {
      case Type::kNumber:
        Op0(OpCode::kLoadNum, 1, d.slot);
        return;
      case Type::kBool:
        Op0(OpCode::kLoadBool, 1, d.slot);
        return;
      case Type::kString:
        Op0(OpCode::kLoadStr, 1, d.slot);
        return;
      case Type::kStringList:
        Op0(OpCode::kLoadList, 1, d.slot);
        return;
      case Type::kNumberList:
        return;
    }
  }

  bool IsPlainFact(int32_t i, Type t) const {
    const CheckedNode& in = c_.info(i);
    return !in.is_const && in.fact != nullptr && !in.fact->builtin && in.type == t &&
           ast_.at(i).kind == NodeKind::kFact;
  }

  static OpCode Mirror(Op op) {  // k OP x  ==  x Mirror(OP) k
    switch (op) {
      case Op::kLt:
        return OpCode::kGtK;
      case Op::kLe:
        return OpCode::kGeK;
      case Op::kGt:
        return OpCode::kLtK;
      case Op::kGe:
        return OpCode::kLeK;
      case Op::kEq:
        return OpCode::kEqK;
      default:
        return OpCode::kNeK;
    }
  }

  void EmitBinary(int32_t i) {
    const Node& n = ast_.at(i);
    const int32_t l = n.args[0], r = n.args[1];
    const CheckedNode& a = c_.info(l);
    const CheckedNode& b = c_.info(r);

    switch (n.op) {
      case Op::kAnd:
      case Op::kOr: {
        // One side is a constant that does not decide the result: the other side is the value.
        if (a.is_const) return Emit(r);
        if (b.is_const) return Emit(l);
        Emit(l);
        int32_t jump = Op0(n.op == Op::kAnd ? OpCode::kJumpIfFalse : OpCode::kJumpIfTrue, -1);
        Emit(r);
        p_->code[jump].a = static_cast<int32_t>(p_->code.size());
        return;
      }
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv: {
        static constexpr OpCode kPlain[] = {OpCode::kAdd, OpCode::kSub, OpCode::kMul, OpCode::kDiv};
        static constexpr OpCode kWithK[] = {OpCode::kAddK, OpCode::kSubK, OpCode::kMulK,
                                            OpCode::kDivK};
        const int idx = n.op == Op::kAdd ? 0 : n.op == Op::kSub ? 1 : n.op == Op::kMul ? 2 : 3;
        if (b.is_const) {
          Emit(l);
          Op0(kWithK[idx], 0, 0, 0, b.value.num);
        } else if (a.is_const) {
          Emit(r);
          static constexpr OpCode kKLeft[] = {OpCode::kAddK, OpCode::kKSub, OpCode::kMulK,
                                              OpCode::kKDiv};
          Op0(kKLeft[idx], 0, 0, 0, a.value.num);
        } else {
          Emit(l);
          Emit(r);
          Op0(kPlain[idx], -1);
        }
        return;
      }
      case Op::kLt:
      case Op::kLe:
      case Op::kGt:
      case Op::kGe:
      case Op::kEq:
      case Op::kNe:
        if (a.type == Type::kNumber) return EmitNumberCompare(n.op, l, r);
        if (a.type == Type::kBool) {
          Emit(l);
          Emit(r);
          Op0(n.op == Op::kEq ? OpCode::kEqBool : OpCode::kNeBool, -1);
          return;
        }
        return EmitStringCompare(n.op == Op::kEq, l, r);
      case Op::kIn:
      case Op::kNotIn:
        EmitMembership(l, r);
        if (n.op == Op::kNotIn) Op0(OpCode::kNot, 0);
        return;
      case Op::kMatch:
        if (IsPlainFact(l, Type::kString)) {
          Op0(OpCode::kFactMatch, 1, a.fact->slot, c_.info(i).regex);
          return;
        }
        Emit(l);
        Op0(OpCode::kMatch, 0, c_.info(i).regex);
        return;
      default:
        return;
    }
  }

  void EmitNumberCompare(Op op, int32_t l, int32_t r) {
    const CheckedNode& a = c_.info(l);
    const CheckedNode& b = c_.info(r);
    auto index = [](Op o) {
      return o == Op::kLt ? 0 : o == Op::kLe ? 1 : o == Op::kGt ? 2 : o == Op::kGe ? 3 : o == Op::kEq ? 4 : 5;
    };
    static constexpr OpCode kFactK[] = {OpCode::kFactLtK, OpCode::kFactLeK, OpCode::kFactGtK,
                                        OpCode::kFactGeK, OpCode::kFactEqK, OpCode::kFactNeK};
    static constexpr OpCode kWithK[] = {OpCode::kLtK, OpCode::kLeK, OpCode::kGtK,
                                        OpCode::kGeK, OpCode::kEqK, OpCode::kNeK};
    static constexpr OpCode kPlain[] = {OpCode::kLt, OpCode::kLe, OpCode::kGt,
                                        OpCode::kGe, OpCode::kEq, OpCode::kNe};
    if (b.is_const && IsPlainFact(l, Type::kNumber)) {
      Op0(kFactK[index(op)], 1, a.fact->slot, 0, b.value.num);
    } else if (b.is_const) {
      Emit(l);
      Op0(kWithK[index(op)], 0, 0, 0, b.value.num);
    } else if (IsPlainFact(l, Type::kNumber) && IsPlainFact(r, Type::kNumber)) {
      static constexpr OpCode kFactF[] = {OpCode::kFactLtF, OpCode::kFactLeF, OpCode::kFactGtF,
                                          OpCode::kFactGeF, OpCode::kFactEqF, OpCode::kFactNeF};
      Op0(kFactF[index(op)], 1, a.fact->slot, b.fact->slot);
    } else if (a.is_const) {
      OpCode m = Mirror(op);
      if (IsPlainFact(r, Type::kNumber)) {
        // kXK -> kFactXK: the two tables are parallel.
        int k = static_cast<int>(m) - static_cast<int>(OpCode::kLtK);
        Op0(kFactK[k], 1, b.fact->slot, 0, a.value.num);
      } else {
        Emit(r);
        Op0(m, 0, 0, 0, a.value.num);
      }
    } else {
      Emit(l);
      Emit(r);
      Op0(kPlain[index(op)], -1);
    }
  }

  void EmitStringCompare(bool eq, int32_t l, int32_t r) {
    const CheckedNode& a = c_.info(l);
    const CheckedNode& b = c_.info(r);
    if (a.is_const) return EmitStringCompare(eq, r, l);
    if (b.is_const) {
      int32_t k = p_->Intern(b.value.str);
      if (IsPlainFact(l, Type::kString)) {
        Op0(eq ? OpCode::kFactStrEqK : OpCode::kFactStrNeK, 1, a.fact->slot, k);
      } else {
        Emit(l);
        Op0(eq ? OpCode::kEqStrK : OpCode::kNeStrK, 0, 0, k);
      }
      return;
    }
    Emit(l);
    Emit(r);
    Op0(eq ? OpCode::kEqStr : OpCode::kNeStr, -1);
  }

  void EmitMembership(int32_t elem, int32_t list) {
    const CheckedNode& e = c_.info(elem);
    const CheckedNode& l = c_.info(list);
    if (l.is_const && l.type == Type::kStringList && IsPlainFact(elem, Type::kString)) {
      p_->string_lists.push_back(l.strs);
      Op0(OpCode::kFactInStrK, 1, e.fact->slot, static_cast<int32_t>(p_->string_lists.size() - 1));
      return;
    }
    if (l.is_const) {
      Emit(elem);
      if (l.type == Type::kNumberList) {
        p_->number_lists.push_back(l.nums);
        Op0(OpCode::kInNumK, 0, static_cast<int32_t>(p_->number_lists.size() - 1));
      } else {
        p_->string_lists.push_back(l.strs);
        Op0(OpCode::kInStrK, 0, static_cast<int32_t>(p_->string_lists.size() - 1));
      }
      return;
    }
    if (e.is_const && IsPlainFact(list, Type::kStringList)) {
      Op0(OpCode::kFactListHasK, 1, l.fact->slot, p_->Intern(e.value.str));
      return;
    }
    Emit(elem);
    Emit(list);
    Op0(OpCode::kInList, -1);
  }

  void EmitCall(int32_t i) {
    const Node& n = ast_.at(i);
    const CheckedNode& in = c_.info(i);
    switch (in.fn) {
      case Fn::kMin:
      case Fn::kMax: {
        const bool is_min = in.fn == Fn::kMin;
        // Non-constant arguments first, then the constant ones folded into one kMinK/kMaxK.
        bool first = true;
        std::optional<double> folded;
        for (int32_t a : n.args) {
          const CheckedNode& ai = c_.info(a);
          if (ai.is_const) {
            double v = ai.value.num;
            folded = !folded ? v : is_min ? std::min(*folded, v) : std::max(*folded, v);
            continue;
          }
          Emit(a);
          if (!first) Op0(is_min ? OpCode::kMin : OpCode::kMax, -1);
          first = false;
        }
        if (folded) Op0(is_min ? OpCode::kMinK : OpCode::kMaxK, 0, 0, 0, *folded);
        return;
      }
      case Fn::kClamp: {
        const CheckedNode& lo = c_.info(n.args[1]);
        const CheckedNode& hi = c_.info(n.args[2]);
        Emit(n.args[0]);
        if (lo.is_const && hi.is_const) {
          Op0(OpCode::kMaxK, 0, 0, 0, lo.value.num);
          Op0(OpCode::kMinK, 0, 0, 0, hi.value.num);
          return;
        }
        Emit(n.args[1]);
        Emit(n.args[2]);
        Op0(OpCode::kClamp, -2);
        return;
      }
      case Fn::kAbs:
        Emit(n.args[0]);
        Op0(OpCode::kAbs, 0);
        return;
      case Fn::kLog2:
        Emit(n.args[0]);
        Op0(OpCode::kLog2, 0);
        return;
      case Fn::kRound:
        Emit(n.args[0]);
        Op0(OpCode::kRound, 0, 0, in.round_digits);
        return;
      case Fn::kLen:
        Emit(n.args[0]);
        Op0(OpCode::kLenList, 0);
        return;
      case Fn::kHas:
        EmitMembership(n.args[1], n.args[0]);
        return;
      case Fn::kKnown:
        Op0(OpCode::kKnown, 1, c_.info(n.args[0]).fact_index);
        return;
      case Fn::kNone:
        return;
    }
  }

  const Ast& ast_;
  const CheckedTree& c_;
  Program* p_;
  int depth_ = 0;
  int max_depth_ = 0;
};

}  // namespace

int EmitExpr(const Ast& ast, const CheckedTree& checked, int32_t root, Program* program) {
  Emitter emitter(ast, checked, program);
  emitter.Emit(root);
  return emitter.max_depth();
}

}  // namespace fitrank::rules::internal
