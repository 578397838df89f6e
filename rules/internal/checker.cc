#include "rules/internal/checker.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/numbers.h"
#include "base/text.h"
#include "rules/internal/lexer.h"

namespace fitrank::rules::internal {

std::string Article(Type t) {
  switch (t) {
    case Type::kNumber:
      return "a number";
    case Type::kBool:
      return "true/false";
    case Type::kString:
      return "a string";
    case Type::kStringList:
      return "a string list";
    case Type::kNumberList:
      return "a number list";
  }
  return "?";
}

namespace {

struct FnSpec {
  const char* name;
  Fn fn;
  const char* usage;
};
constexpr FnSpec kFunctions[] = {
    {"min", Fn::kMin, "min(a, b, ...)"},        {"max", Fn::kMax, "max(a, b, ...)"},
    {"clamp", Fn::kClamp, "clamp(x, lo, hi)"},  {"abs", Fn::kAbs, "abs(x)"},
    {"log2", Fn::kLog2, "log2(x)"},             {"round", Fn::kRound, "round(x) or round(x, digits)"},
    {"len", Fn::kLen, "len(list)"},             {"has", Fn::kHas, "has(list, value)"},
    {"known", Fn::kKnown, "known(fact.name)"},
};

const FnSpec* FindFunction(absl::string_view name) {
  for (const FnSpec& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::vector<std::string> FunctionNames() {
  std::vector<std::string> out;
  for (const FnSpec& f : kFunctions) out.emplace_back(f.name);
  return out;
}

bool IsArithmetic(Op op) { return op == Op::kAdd || op == Op::kSub || op == Op::kMul || op == Op::kDiv; }
bool IsOrdering(Op op) { return op == Op::kLt || op == Op::kLe || op == Op::kGt || op == Op::kGe; }

class Checker {
 public:
  Checker(absl::string_view text, const Ast& ast, const FactSchema& schema, const Vocabulary& vocab,
          Program* program, bool allow_score, std::vector<ExprError>* errors)
      : text_(text),
        ast_(ast),
        schema_(schema),
        vocab_(vocab),
        program_(program),
        allow_score_(allow_score),
        errors_(errors),
        info_(ast.nodes.size()) {}

  std::vector<int32_t> TakeReads() { return std::move(reads_); }

  const CheckedNode& Check(int32_t i) {
    const Node& n = ast_.at(i);
    switch (n.kind) {
      case NodeKind::kNumber:
        SetConst(i, Type::kNumber).value.num = n.number;
        break;
      case NodeKind::kString:
        SetConst(i, Type::kString).value.str = n.text;
        break;
      case NodeKind::kBool:
        SetConst(i, Type::kBool).value.b = n.boolean;
        break;
      case NodeKind::kList:
        CheckList(i);
        break;
      case NodeKind::kFact:
        CheckFact(i);
        break;
      case NodeKind::kUnary:
        CheckUnary(i);
        break;
      case NodeKind::kBinary:
        CheckBinary(i);
        break;
      case NodeKind::kCall:
        CheckCall(i);
        break;
    }
    return info_[i];
  }

  const CheckedNode& info(int32_t i) const { return info_[i]; }
  std::vector<CheckedNode> TakeNodes() { return std::move(info_); }

 private:
  void Error(int32_t offset, std::string code, std::string message, std::string hint = "") {
    errors_->push_back({offset, std::move(code), std::move(message), std::move(hint), false});
  }
  void Warn(int32_t offset, std::string code, std::string message, std::string hint = "") {
    errors_->push_back({offset, std::move(code), std::move(message), std::move(hint), true});
  }

  CheckedNode& SetConst(int32_t i, Type t) {
    CheckedNode& in = info_[i];
    in.type = t;
    in.is_const = true;
    in.value.type = t;
    return in;
  }

  void Bad(int32_t i) { info_[i].ok = false; }

  // "`fit.kind` (a string)" or "a string" for messages about an operand.
  std::string Describe(int32_t i) const {
    const Node& n = ast_.at(i);
    const CheckedNode& in = info_[i];
    if (n.kind == NodeKind::kFact && in.fact != nullptr) {
      return absl::StrCat("`", n.text, "` (", Article(in.type), ")");
    }
    return Article(in.type);
  }

  void CheckList(int32_t i) {
    const Node& n = ast_.at(i);
    CheckedNode& in = info_[i];
    in.is_const = true;
    if (n.args.empty()) {
      in.type = Type::kStringList;
      in.empty_list = true;
      return;
    }
    bool ok = true;
    std::optional<Type> elem;
    for (int32_t a : n.args) {
      const CheckedNode& e = Check(a);
      if (!e.ok) {
        ok = false;
        continue;
      }
      const Node& en = ast_.at(a);
      if (!e.is_const || (e.type != Type::kNumber && e.type != Type::kString)) {
        Error(en.begin, "not-constant",
              e.is_const ? absl::StrCat("list elements must be numbers or strings, not ",
                                        Article(e.type))
                         : "list elements must be constants",
              "write the values out: [\"chat\", \"coding\"] or [4, 8]");
        ok = false;
        continue;
      }
      if (elem && *elem != e.type) {
        Error(en.begin, "type-mismatch",
              absl::StrCat("list mixes ", *elem == Type::kNumber ? "numbers" : "strings", " and ",
                           e.type == Type::kNumber ? "numbers" : "strings"),
              "a list holds only numbers or only strings");
        ok = false;
        continue;
      }
      elem = e.type;
      if (e.type == Type::kNumber) {
        in.nums.push_back(e.value.num);
      } else {
        in.strs.push_back(e.value.str);
      }
    }
    CheckedNode& out = info_[i];  // Check() of elements does not resize info_
    out.ok = ok;
    out.type = elem == Type::kNumber ? Type::kNumberList : Type::kStringList;
  }

  void CheckFact(int32_t i) {
    const Node& n = ast_.at(i);
    CheckedNode& in = info_[i];
    if (allow_score_ && n.text == "score") {
      in.type = Type::kNumber;
      in.is_score = true;
      return;
    }
    const FactDecl* d = schema_.Find(n.text);
    if (d == nullptr) {
      in.ok = false;
      std::vector<std::string> names = schema_.Names();
      std::string hint = DidYouMean(ClosestMatches(n.text, names, 3));
      if (const std::string* renamed = schema_.RenamedTo(n.text)) {
        hint = absl::StrCat("`", n.text, "` was renamed: ", DidYouMean({*renamed}));
      }
      if (hint.empty() && FindFunction(n.text) != nullptr) {
        hint = absl::StrCat("`", n.text, "` is a function: call it like ",
                            FindFunction(n.text)->usage);
      } else if (hint.empty() && n.text.find('.') == std::string::npos) {
        hint = absl::StrCat("text values need quotes: \"", n.text,
                            "\"; facts are dotted names such as `fit.kind`");
      }
      Error(n.begin, "unknown-fact", absl::StrCat("unknown fact `", n.text, "`"), hint);
      return;
    }
    in.type = d->type;
    in.fact = d;
    in.fact_index = static_cast<int32_t>(d - schema_.facts().data());
    reads_.push_back(in.fact_index);
  }

  void CheckUnary(int32_t i) {
    const Node& n = ast_.at(i);
    const CheckedNode& a = Check(n.args[0]);
    CheckedNode& in = info_[i];
    if (!a.ok) return Bad(i);
    if (n.op == Op::kNot) {
      if (a.type != Type::kBool) {
        Error(n.op_pos, "type-mismatch",
              absl::StrCat("`not` needs true/false, but its operand is ", Describe(n.args[0])),
              a.type == Type::kNumber ? "compare the number first, e.g. `not (x > 0)`" : "");
        return Bad(i);
      }
      in.type = Type::kBool;
      if (a.is_const) {
        in.is_const = true;
        in.value.type = Type::kBool;
        in.value.b = !a.value.b;
      }
      return;
    }
    if (a.type != Type::kNumber) {
      Error(n.op_pos, "type-mismatch",
            absl::StrCat("`", OpSpelling(n.op), "` needs a number, but its operand is ",
                         Describe(n.args[0])));
      return Bad(i);
    }
    in.type = Type::kNumber;
    if (a.is_const) {
      in.is_const = true;
      in.value.type = Type::kNumber;
      in.value.num = n.op == Op::kNeg ? -a.value.num : a.value.num;
    }
  }

  // Checks that `name`/`mode` literals compared with workload.id / mode.id exist, and turns
  // aliases into canonical ids. `lit` is a constant string node (or list of them).
  void CheckIdLiteral(const FactDecl* fact, int32_t lit) {
    if (fact == nullptr || !fact->builtin) return;
    const bool workload = fact->name == FactSchema::kWorkloadId;
    const std::vector<NamedId>& ids = workload ? vocab_.workloads : vocab_.modes;
    if (ids.empty()) return;
    const Node& ln = ast_.at(lit);
    std::vector<int32_t> items;
    if (ln.kind == NodeKind::kList) {
      items = ln.args;
    } else {
      items.push_back(lit);
    }
    CheckedNode& li = info_[lit];
    for (size_t k = 0; k < items.size(); ++k) {
      const Node& item = ast_.at(items[k]);
      if (item.kind != NodeKind::kString || item.text.empty()) continue;  // "" = none
      int idx = Vocabulary::Find(ids, item.text);
      if (idx < 0) {
        Error(item.begin, workload ? "unknown-workload" : "unknown-mode",
              absl::StrCat("unknown ", workload ? "workload" : "mode", " `", item.text, "`"),
              [&] {
                std::string h = DidYouMean(ClosestMatches(item.text, Vocabulary::AllNames(ids), 1));
                return h.empty() ? absl::StrCat("one of ", QuotedList(Vocabulary::AllNames(ids)))
                                 : h;
              }());
        li.ok = false;
        continue;
      }
      const std::string& canonical = ids[idx].id;
      if (ln.kind == NodeKind::kList) {
        if (k < li.strs.size()) li.strs[k] = canonical;
      } else {
        li.value.str = canonical;
      }
    }
  }

  void CheckBinary(int32_t i) {
    const Node& n = ast_.at(i);
    const int32_t l = n.args[0], r = n.args[1];
    Check(l);
    Check(r);
    const CheckedNode& a = info_[l];
    const CheckedNode& b = info_[r];
    if (!a.ok || !b.ok) return Bad(i);
    CheckedNode& in = info_[i];

    if (IsArithmetic(n.op)) {
      for (int32_t side : {l, r}) {
        if (info_[side].type != Type::kNumber) {
          Error(n.op_pos, "type-mismatch",
                absl::StrCat("`", OpSpelling(n.op), "` needs numbers, but its ",
                             side == l ? "left" : "right", " side is ", Describe(side)),
                info_[side].type == Type::kString ? "text cannot be used in arithmetic" : "");
          return Bad(i);
        }
      }
      in.type = Type::kNumber;
      if (a.is_const && b.is_const) {
        double x = a.value.num, y = b.value.num, v = 0;
        switch (n.op) {
          case Op::kAdd:
            v = x + y;
            break;
          case Op::kSub:
            v = x - y;
            break;
          case Op::kMul:
            v = x * y;
            break;
          default:
            if (y == 0) {
              Warn(n.op_pos, "division-by-zero", "division by zero (the result counts as 0)");
              v = 0;
            } else {
              v = x / y;
            }
            break;
        }
        if (!std::isfinite(v)) v = 0;
        in.is_const = true;
        in.value.type = Type::kNumber;
        in.value.num = v;
      } else if (n.op == Op::kDiv && b.is_const && b.value.num == 0) {
        Warn(n.op_pos, "division-by-zero", "division by zero (the result counts as 0)");
      }
      return;
    }

    if (n.op == Op::kAnd || n.op == Op::kOr) {
      for (int32_t side : {l, r}) {
        if (info_[side].type != Type::kBool) {
          Error(ast_.at(side).begin, "type-mismatch",
                absl::StrCat("`", OpSpelling(n.op), "` needs true/false on both sides, but its ",
                             side == l ? "left" : "right", " side is ", Describe(side)),
                info_[side].type == Type::kNumber ? "compare the number, e.g. `x > 0`" : "");
          return Bad(i);
        }
      }
      in.type = Type::kBool;
      const bool absorbing = n.op == Op::kOr;  // true absorbs `or`, false absorbs `and`
      if ((a.is_const && a.value.b == absorbing) || (b.is_const && b.value.b == absorbing)) {
        in.is_const = true;
        in.value.type = Type::kBool;
        in.value.b = absorbing;
      } else if (a.is_const && b.is_const) {
        in.is_const = true;
        in.value.type = Type::kBool;
        in.value.b = !absorbing;
      }
      return;
    }

    if (IsOrdering(n.op)) {
      if (a.type != Type::kNumber || b.type != Type::kNumber) {
        Error(n.op_pos, "type-mismatch",
              absl::StrCat("`", OpSpelling(n.op), "` compares numbers, but the ",
                           a.type != Type::kNumber ? "left" : "right", " side is ",
                           Describe(a.type != Type::kNumber ? l : r)),
              NumberInQuotesHint(a.type != Type::kNumber ? l : r));
        return Bad(i);
      }
      in.type = Type::kBool;
      if (a.is_const && b.is_const) {
        double x = a.value.num, y = b.value.num;
        bool v = n.op == Op::kLt ? x < y : n.op == Op::kLe ? x <= y : n.op == Op::kGt ? x > y : x >= y;
        in.is_const = true;
        in.value.type = Type::kBool;
        in.value.b = v;
      }
      return;
    }

    if (n.op == Op::kEq || n.op == Op::kNe) {
      if (a.type != b.type || a.type == Type::kStringList || a.type == Type::kNumberList) {
        std::string msg =
            a.type == b.type
                ? absl::StrCat("`", OpSpelling(n.op), "` cannot compare lists")
                : absl::StrCat("cannot compare ", Describe(l), " with ", Describe(r));
        std::string hint = NumberInQuotesHint(a.type == Type::kString ? l : r);
        if (hint.empty() && (a.type == Type::kStringList || b.type == Type::kStringList)) {
          hint = "to test membership, write `\"x\" in list`";
        } else if (hint.empty() && a.type == Type::kString && b.type == Type::kNumber) {
          hint = absl::StrCat("`", ast_.at(l).text, "` is text; compare it with a quoted value");
        }
        Error(n.op_pos, "type-mismatch", msg, hint);
        return Bad(i);
      }
      if (a.type == Type::kString) {
        if (b.is_const) CheckIdLiteral(a.fact, r);
        if (a.is_const) CheckIdLiteral(b.fact, l);
        if (!info_[l].ok || !info_[r].ok) return Bad(i);
      }
      in.type = Type::kBool;
      if (a.is_const && b.is_const) {
        bool eq = a.type == Type::kNumber ? a.value.num == b.value.num
                  : a.type == Type::kBool ? a.value.b == b.value.b
                                          : a.value.str == b.value.str;
        in.is_const = true;
        in.value.type = Type::kBool;
        in.value.b = (n.op == Op::kEq) == eq;
      }
      return;
    }

    if (n.op == Op::kIn || n.op == Op::kNotIn) {
      CheckMembership(i, l, r, n.op_pos, n.op == Op::kNotIn);
      return;
    }

    if (n.op == Op::kMatch) {
      CheckMatch(i, l, r);
      return;
    }
  }

  // A hint when a number was written in quotes: "15" compared with a number.
  std::string NumberInQuotesHint(int32_t side) const {
    const Node& n = ast_.at(side);
    double d;
    if (n.kind == NodeKind::kString && ParseDecimal(n.text, &d) == NumberParse::kOk) {
      return absl::StrCat("remove the quotes: ", n.text, " is a number");
    }
    return "";
  }

  // `x in list` / has(list, x); `elem` and `list` are node indexes, `pos` the operator offset.
  void CheckMembership(int32_t i, int32_t elem, int32_t list, int32_t pos, bool negate) {
    const CheckedNode& e = info_[elem];
    const CheckedNode& l = info_[list];
    CheckedNode& in = info_[i];
    const bool list_ok =
        l.type == Type::kStringList || l.type == Type::kNumberList;
    if (!list_ok) {
      std::string hint;
      if (l.type == Type::kString && e.type == Type::kString) {
        hint = "to find text inside a string, use a regex: `model.name =~ \"coder\"`";
      }
      Error(ast_.at(list).begin, "type-mismatch",
            absl::StrCat("`in` needs a list on its right, but found ", Describe(list)), hint);
      return Bad(i);
    }
    const bool fits = l.empty_list ? (e.type == Type::kString || e.type == Type::kNumber)
                      : l.type == Type::kStringList ? e.type == Type::kString
                                                    : e.type == Type::kNumber;
    if (!fits) {
      Error(pos, "type-mismatch",
            absl::StrCat("cannot look for ", Describe(elem), " in ", Describe(list)),
            NumberInQuotesHint(elem));
      return Bad(i);
    }
    if (l.is_const && e.type == Type::kString) CheckIdLiteral(e.fact, list);
    if (!info_[list].ok) return Bad(i);
    in.type = Type::kBool;
    if (l.is_const && (e.is_const || l.empty_list)) {
      bool found = false;
      if (!l.empty_list) {
        if (e.type == Type::kNumber) {
          for (double v : info_[list].nums) found |= v == e.value.num;
        } else {
          for (const std::string& v : info_[list].strs) found |= v == e.value.str;
        }
      }
      in.is_const = true;
      in.value.type = Type::kBool;
      in.value.b = found != negate;
    }
  }

  void CheckMatch(int32_t i, int32_t l, int32_t r) {
    const Node& n = ast_.at(i);
    const CheckedNode& a = info_[l];
    const Node& rn = ast_.at(r);
    CheckedNode& in = info_[i];
    if (a.type != Type::kString) {
      Error(n.op_pos, "type-mismatch",
            absl::StrCat("`=~` matches text, but its left side is ", Describe(l)),
            a.type == Type::kStringList ? "to test membership, write `\"x\" in list`" : "");
      return Bad(i);
    }
    if (rn.kind != NodeKind::kString) {
      Error(rn.begin, "not-constant", "the pattern after `=~` must be a quoted string",
            "write the regex literally: `model.name =~ \"(?i)coder\"`");
      return Bad(i);
    }
    RE2::Options opts;
    opts.set_log_errors(false);
    auto re = std::make_unique<RE2>(re2::StringPiece(rn.text.data(), rn.text.size()), opts);
    if (!re->ok()) {
      int32_t at = rn.begin + 1;
      const std::string& arg = re->error_arg();
      size_t found = arg.empty() ? std::string::npos : rn.text.find(arg);
      if (found != std::string::npos && re->error_code() == RE2::ErrorMissingParen &&
          arg.rfind('(') != std::string::npos) {
        found += arg.rfind('(');  // the `(` that is never closed
      }
      if (found != std::string::npos) {
        at = LiteralOffset(text_, rn.begin, rn.end, static_cast<int32_t>(found));
      }
      Error(at, "bad-regex", absl::StrCat("bad regex: ", re->error()),
            "RE2 syntax: https://github.com/google/re2/wiki/Syntax (no backreferences or "
            "lookaround)");
      return Bad(i);
    }
    in.type = Type::kBool;
    if (a.is_const) {
      in.is_const = true;
      in.value.type = Type::kBool;
      in.value.b = RE2::PartialMatch(re2::StringPiece(a.value.str.data(), a.value.str.size()), *re);
      return;
    }
    program_->regexes.push_back(std::move(re));
    in.regex = static_cast<int32_t>(program_->regexes.size() - 1);
  }

  bool Expect(int32_t arg, Type t, absl::string_view fn) {
    const CheckedNode& a = info_[arg];
    if (a.type == t) return true;
    Error(ast_.at(arg).begin, "type-mismatch",
          absl::StrCat("`", fn, "` needs ", Article(t), " here, but found ", Describe(arg)),
          NumberInQuotesHint(arg));
    return false;
  }

  void CheckCall(int32_t i) {
    const Node& n = ast_.at(i);
    const FnSpec* spec = FindFunction(n.text);
    if (spec == nullptr) {
      std::string hint = DidYouMean(ClosestMatches(n.text, FunctionNames(), 1));
      if (hint.empty()) hint = absl::StrCat("functions: ", QuotedList(FunctionNames(), " and "));
      Error(n.begin, "unknown-function", absl::StrCat("unknown function `", n.text, "`"), hint);
      for (int32_t a : n.args) Check(a);  // still report problems inside
      return Bad(i);
    }
    info_[i].fn = spec->fn;
    const size_t argc = n.args.size();
    const bool arity_ok = spec->fn == Fn::kMin || spec->fn == Fn::kMax ? argc >= 2
                          : spec->fn == Fn::kClamp                      ? argc == 3
                          : spec->fn == Fn::kRound                      ? argc == 1 || argc == 2
                          : spec->fn == Fn::kHas                        ? argc == 2
                                                                        : argc == 1;
    if (!arity_ok) {
      Error(n.begin, "wrong-arity",
            absl::StrCat("`", spec->name, "` takes different arguments: ", spec->usage), "");
      return Bad(i);
    }
    if (spec->fn == Fn::kKnown) {
      const Node& a = ast_.at(n.args[0]);
      if (a.kind != NodeKind::kFact) {
        Error(a.begin, "type-mismatch", "`known` takes a fact name, like known(price.gpu_usd)");
        return Bad(i);
      }
      if (!Check(n.args[0]).ok) return Bad(i);
      if (info_[n.args[0]].is_score || info_[n.args[0]].fact->builtin) {
        Error(a.begin, "type-mismatch", absl::StrCat("`", a.text, "` is always known"));
        return Bad(i);
      }
      info_[i].type = Type::kBool;
      return;
    }
    bool ok = true;
    for (int32_t a : n.args) ok &= Check(a).ok;
    if (!ok) return Bad(i);
    CheckedNode& in = info_[i];
    bool all_const = true;
    for (int32_t a : n.args) all_const &= info_[a].is_const;

    switch (spec->fn) {
      case Fn::kMin:
      case Fn::kMax:
      case Fn::kClamp:
      case Fn::kAbs:
      case Fn::kLog2:
      case Fn::kRound: {
        for (int32_t a : n.args) {
          if (!Expect(a, Type::kNumber, spec->name)) return Bad(i);
        }
        in.type = Type::kNumber;
        if (spec->fn == Fn::kRound && argc == 2) {
          const CheckedNode& d = info_[n.args[1]];
          if (!d.is_const || d.value.num < 0 || d.value.num > 6 ||
              d.value.num != std::floor(d.value.num)) {
            Error(ast_.at(n.args[1]).begin, "not-constant",
                  "the digits of `round` must be a whole number from 0 to 6");
            return Bad(i);
          }
          in.round_digits = static_cast<int>(d.value.num);
        }
        if (spec->fn == Fn::kLog2 && all_const && info_[n.args[0]].value.num <= 0) {
          Warn(ast_.at(n.args[0]).begin, "log2-domain", "log2 of a number <= 0 (counts as 0)");
        }
        if (all_const) {
          in.is_const = true;
          in.value.type = Type::kNumber;
          in.value.num = FoldNumeric(spec->fn, n.args, in.round_digits);
        }
        return;
      }
      case Fn::kLen: {
        const CheckedNode& a = info_[n.args[0]];
        if (a.type != Type::kStringList && a.type != Type::kNumberList) {
          Error(ast_.at(n.args[0]).begin, "type-mismatch",
                absl::StrCat("`len` needs a list, but found ", Describe(n.args[0])));
          return Bad(i);
        }
        in.type = Type::kNumber;
        if (a.is_const) {
          in.is_const = true;
          in.value.type = Type::kNumber;
          in.value.num = static_cast<double>(a.nums.size() + a.strs.size());
        }
        return;
      }
      case Fn::kHas:
        CheckMembership(i, n.args[1], n.args[0], n.begin, false);
        return;
      default:
        return;
    }
  }

  double FoldNumeric(Fn fn, const std::vector<int32_t>& args, int digits) const {
    auto v = [&](size_t k) { return info_[args[k]].value.num; };
    double r = 0;
    switch (fn) {
      case Fn::kMin:
      case Fn::kMax:
        r = v(0);
        for (size_t k = 1; k < args.size(); ++k) {
          r = fn == Fn::kMin ? std::min(r, v(k)) : std::max(r, v(k));
        }
        break;
      case Fn::kClamp:
        r = std::min(std::max(v(0), v(1)), v(2));
        break;
      case Fn::kAbs:
        r = std::fabs(v(0));
        break;
      case Fn::kLog2:
        r = v(0) <= 0 ? 0 : std::log2(v(0));
        break;
      case Fn::kRound: {
        double scale = std::pow(10.0, digits);
        r = std::round(v(0) * scale) / scale;
        break;
      }
      default:
        break;
    }
    return std::isfinite(r) ? r : 0;
  }

  absl::string_view text_;
  const Ast& ast_;
  const FactSchema& schema_;
  const Vocabulary& vocab_;
  Program* program_;
  bool allow_score_;
  std::vector<ExprError>* errors_;
  std::vector<CheckedNode> info_;
  std::vector<int32_t> reads_;
};

}  // namespace

CheckedTree CheckedTree::Check(absl::string_view text, const Ast& ast, const FactSchema& schema,
                               const Vocabulary& vocab, Program* program, bool allow_score,
                               std::vector<ExprError>* errors) {
  Checker checker(text, ast, schema, vocab, program, allow_score, errors);
  checker.Check(ast.root);
  CheckedTree t;
  t.root_ = ast.root;
  t.reads_ = checker.TakeReads();
  t.nodes_ = checker.TakeNodes();
  return t;
}

}  // namespace fitrank::rules::internal
