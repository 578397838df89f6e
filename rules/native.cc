// Phase keys for rules/native.h: what a phase's compiled function bakes in, as bytes.
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

}  // namespace fitrank::rules
