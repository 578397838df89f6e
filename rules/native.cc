// Phase keys and the C++ emitter for rules/native.h. The emitted code mirrors
// CompiledRules::RunPhase step for step: change one, change the other (the equivalence tests in
// tests/rules/native_test.cc compare them on every shipped phase).
#include "rules/native.h"

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/compiled_rules.h"

namespace fitrank::rules {
namespace {

using internal::Instr;
using internal::OpCode;

// Keys are binary: the bytes of each field in turn (a key is worked out for every phase of
// every book compiled, so it must be cheap), texts after their length.
template <typename T>
void AppendRaw(T x, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  out->append(bytes, sizeof(T));
}

void AppendText(absl::string_view text, std::string* out) {
  AppendRaw(static_cast<uint64_t>(text.size()), out);
  out->append(text.data(), text.size());
}

// The constants `i` reads from the program, spelled out.
void AppendOperands(const internal::Program& p, const Instr& i, std::string* out) {
  auto list = [&](const std::vector<std::string>& items) {
    AppendRaw(static_cast<uint64_t>(items.size()), out);
    for (const std::string& s : items) AppendText(s, out);
  };
  switch (i.op) {
    case OpCode::kStr:
      AppendText(p.strings[i.a], out);
      break;
    case OpCode::kFactStrEqK:
    case OpCode::kFactStrNeK:
    case OpCode::kFactListHasK:
    case OpCode::kEqStrK:
    case OpCode::kNeStrK:
      AppendText(p.strings[i.b], out);
      break;
    case OpCode::kFactMatch:
      AppendText(p.regexes[i.b]->pattern(), out);
      break;
    case OpCode::kMatch:
      AppendText(p.regexes[i.a]->pattern(), out);
      break;
    case OpCode::kFactInStrK:
      list(p.string_lists[i.b]);
      break;
    case OpCode::kInStrK:
      list(p.string_lists[i.a]);
      break;
    case OpCode::kInNumK:
      AppendRaw(static_cast<uint64_t>(p.number_lists[i.a].size()), out);
      for (double x : p.number_lists[i.a]) AppendRaw(x, out);
      break;
    default:
      break;
  }
}

void AppendInstr(const internal::Program& p, const Instr& i, std::string* out) {
  AppendRaw(i.op, out);
  AppendRaw(i.a, out);
  AppendRaw(i.b, out);
  AppendRaw(i.k, out);
  AppendOperands(p, i, out);
}

// The expression at `entry`: every instruction up to its kEnd.
void AppendCode(const internal::Program& p, int32_t entry, std::string* out) {
  AppendRaw(entry, out);
  for (size_t pc = entry; pc < p.code.size(); ++pc) {
    AppendInstr(p, p.code[pc], out);
    if (p.code[pc].op == OpCode::kEnd) break;
  }
}

std::string DoubleLiteral(double x) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "std::bit_cast<double>(uint64_t{0x%016" PRIx64 "}) /* %.17g */",
                std::bit_cast<uint64_t>(x), x);
  return buf;
}

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

}  // namespace

std::string CompiledRules::NativeKey(const Phase& phase) const {
  std::string key;
  key.reserve(64 * (phase.tests.size() + phase.steps.size()));
  // The rules first: keys of different phases then differ in their first bytes, which is
  // what a lookup compares first.
  AppendRaw(static_cast<uint64_t>(phase.steps.size()), &key);
  for (const Step& st : phase.steps) AppendRaw(st.rule, &key);
  AppendRaw(static_cast<uint64_t>(phase.tests.size()), &key);
  for (const Instr& t : phase.tests) AppendInstr(program_, t, &key);
  for (const Step& st : phase.steps) {
    AppendRaw(st.rule, &key);
    AppendRaw(st.set, &key);
    AppendRaw(st.when_kind, &key);
    AppendRaw(st.score_kind, &key);
    AppendRaw(st.score_ops, &key);
    AppendRaw(st.need, &key);
    AppendRaw(st.want, &key);
    AppendRaw(rules_[st.rule].effect, &key);
    AppendRaw(st.score, &key);
    AppendRaw(st.constant, &key);
    if (st.when_kind == Step::When::kCode) AppendCode(program_, st.when, &key);
    if (st.score_kind == Step::Score::kCode) AppendCode(program_, st.score, &key);
    if (st.score_kind == Step::Score::kLeaf) {
      for (int k = 0; k < st.score_ops; ++k) AppendInstr(program_, st.ops[k], &key);
    }
  }
  return key;
}

std::string EmitNativePhases(const CompiledRules& book) {
  using Phase = CompiledRules::Phase;
  using Step = CompiledRules::Step;
  const internal::Program& p = book.program_;
  std::vector<const Phase*> all;
  CompiledRules::ForEachPhase(book, [&](const Phase& phase) { all.push_back(&phase); });

  std::string consts;  // the Instr constants the functions pass to the interpreter's helpers
  int next_const = 0;
  auto instr_const = [&](const Instr& i) {
    const std::string name = absl::StrCat("kI", next_const++);
    absl::StrAppend(&consts, "constexpr internal::Instr ", name, "{static_cast<internal::OpCode>(",
                    static_cast<int>(i.op), "), ", i.a, ", ", i.b, ", ", DoubleLiteral(i.k),
                    "};\n");
    return name;
  };
  auto test_expr = [&](const Instr& i) -> std::string {
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
      case OpCode::kFactStrEqK:
      case OpCode::kFactStrNeK: {
        const std::string& lit = p.strings[i.b];
        return absl::StrCat(i.op == OpCode::kFactStrNeK ? "!" : "", "internal::StrEq(s[", i.a,
                            "].data(), s[", i.a, "].size(), ", StringLiteral(lit), ", ",
                            lit.size(), ")");
      }
      default:
        return absl::StrCat("internal::RunLeafCondition(program, ", instr_const(i), ", ctx)");
    }
  };

  std::map<std::string, int> functions;  // key -> index
  std::string bodies, table;
  for (const Phase* phase : all) {
    if (phase->steps.empty()) continue;
    std::string key = book.NativeKey(*phase);
    if (functions.count(key) > 0) continue;
    const int index = static_cast<int>(functions.size());
    functions.emplace(key, index);
    std::string f = absl::StrCat(
        "NativeFaults Phase", index,
        "(const internal::Program& program, internal::RunContext* ctx, const NativeOut& out) {\n"
        "  [[maybe_unused]] const double* n = ctx->facts->numbers();\n"
        "  [[maybe_unused]] const uint8_t* b = ctx->facts->bools();\n"
        "  [[maybe_unused]] const absl::string_view* s = ctx->facts->strings();\n");
    for (size_t t = 0; t < phase->tests.size(); ++t) {
      absl::StrAppend(&f, "  const bool t", t, " = ", test_expr(phase->tests[t]), ";\n");
    }
    f += "  NativeFaults faults;\n";
    for (const Step& st : phase->steps) {
      std::string when;
      if (st.when_kind == Step::When::kCode) {
        when = absl::StrCat("internal::Run(program, ", st.when, ", ctx).b");
      } else if (st.need == 0) {
        when = st.want == 0 ? "true" : "false";
      } else {
        for (size_t t = 0; t < phase->tests.size(); ++t) {
          if (((st.need >> t) & 1) == 0) continue;
          absl::StrAppend(&when, when.empty() ? "" : " && ", ((st.want >> t) & 1) ? "" : "!",
                          "t", t);
        }
      }
      const std::string sums = absl::StrCat(
          "    if (out.set_sum != nullptr) {\n      out.set_sum[", st.set,
          "] += x;\n      out.set_magnitude[", st.set, "] += std::fabs(x);\n    }\n");
      absl::StrAppend(&f, "  {  // ", book.info_[st.rule].id, "\n");
      if (st.when_kind == Step::When::kTests && st.score_kind == Step::Score::kConstant) {
        absl::StrAppend(&f, "    const bool f = ", when, ";\n    const double x = f ? ",
                        DoubleLiteral(st.constant), " : 0.0;\n    out.fired[", st.rule,
                        "] = f;\n    out.contribution[", st.rule, "] = x;\n    out.faults_of[",
                        st.rule, "] = 0;\n", sums, "  }\n");
        continue;
      }
      absl::StrAppend(&f, "    ctx->faults = 0;\n    const bool f = ", when,
                      ";\n    double x = 0;\n    if (f) {\n");
      switch (st.score_kind) {
        case Step::Score::kConstant:
          absl::StrAppend(&f, "      x = ", DoubleLiteral(st.constant), ";\n");
          break;
        case Step::Score::kLeaf:
          absl::StrAppend(&f, "      x = n[", st.score, "];\n");
          for (int k = 0; k < st.score_ops; ++k) {
            absl::StrAppend(&f, "      x = internal::RunLeafScore(x, ", instr_const(st.ops[k]),
                            ", &ctx->faults);\n");
          }
          break;
        case Step::Score::kCode:
          absl::StrAppend(&f, "      x = internal::Run(program, ", st.score, ", ctx).num;\n");
          break;
      }
      absl::StrAppend(&f, "    }\n    out.fired[", st.rule, "] = f;\n    out.contribution[",
                      st.rule, "] = x;\n    out.faults_of[", st.rule, "] = ctx->faults;\n", sums,
                      "    if (ctx->faults != 0) {\n      ++faults.all;\n",
                      book.rules_[st.rule].effect ? "      ++faults.effect;\n" : "",
                      "    }\n  }\n");
    }
    f += "  return faults;\n}\n\n";
    bodies += f;
    absl::StrAppend(&table, "    {kKey", index, ", sizeof(kKey", index, ") - 1, &Phase", index,
                    "},\n");
    absl::StrAppend(&consts, "constexpr char kKey", index, "[] = ", StringLiteral(key), ";\n");
  }
  return absl::StrCat(
      "// Generated at build time by fitrank_gen_native_rules (tools/gen_native_rules.cc) from "
      "the\n// shipped rules: rules/native.h. Do not edit.\n"
      "#include <bit>\n#include <cmath>\n#include <cstdint>\n#include <iterator>\n\n"
      "#include \"rules/facts.h\"\n#include \"rules/internal/program.h\"\n"
      "#include \"rules/native.h\"\n\n"
      "namespace fitrank::rules {\nnamespace {\n\n",
      consts, "\n", bodies,
      table.empty() ? "" : absl::StrCat("const NativePhase kPhases[] = {\n", table, "};\n\n"),
      "}  // namespace\n\nconst NativePhases& ShippedNativePhases() {\n",
      table.empty() ? "  static const NativePhases phases;\n"
                    : "  static const NativePhases phases{kPhases, std::size(kPhases)};\n",
      "  return phases;\n}\n\n}  // namespace fitrank::rules\n");
}

}  // namespace fitrank::rules
