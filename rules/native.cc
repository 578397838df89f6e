// Phase keys for rules/native.h: what a phase's compiled function bakes in, as bytes.
#include "rules/native.h"

#include <cstring>
#include <string>
#include <vector>

#include "rules/compiled_rules.h"

namespace fitrank::rules {
namespace {

using internal::Instr;
using internal::OpCode;

// Keys are binary: the bytes of each field in turn, texts after their length. A key is worked
// out for every distinct phase of every book compiled, at every start: written into a buffer
// that grows by doubling, not appended field by field.
class KeyWriter {
 public:
  template <typename T>
  void Raw(T x) {
    if (n_ + sizeof(T) > key_.size()) key_.resize(2 * (n_ + sizeof(T)));
    std::memcpy(key_.data() + n_, &x, sizeof(T));
    n_ += sizeof(T);
  }
  void Text(absl::string_view text) {
    Raw(static_cast<uint64_t>(text.size()));
    if (n_ + text.size() > key_.size()) key_.resize(2 * (n_ + text.size()));
    std::memcpy(key_.data() + n_, text.data(), text.size());
    n_ += text.size();
  }
  void List(const std::vector<std::string>& items) {
    Raw(static_cast<uint64_t>(items.size()));
    for (const std::string& s : items) Text(s);
  }
  // `i`, with the constants it reads from the program spelled out.
  void Instruction(const internal::Program& p, const Instr& i) {
    Raw(i.op);
    Raw(i.a);
    Raw(i.b);
    Raw(i.k);
    switch (i.op) {
      case OpCode::kStr:
        Text(p.strings[i.a]);
        break;
      case OpCode::kFactStrEqK:
      case OpCode::kFactStrNeK:
      case OpCode::kFactListHasK:
      case OpCode::kEqStrK:
      case OpCode::kNeStrK:
        Text(p.strings[i.b]);
        break;
      case OpCode::kFactMatch:
        Text(p.regexes[i.b]->pattern());
        break;
      case OpCode::kMatch:
        Text(p.regexes[i.a]->pattern());
        break;
      case OpCode::kFactInStrK:
        List(p.string_lists[i.b]);
        break;
      case OpCode::kInStrK:
        List(p.string_lists[i.a]);
        break;
      case OpCode::kInNumK:
        Raw(static_cast<uint64_t>(p.number_lists[i.a].size()));
        for (double x : p.number_lists[i.a]) Raw(x);
        break;
      default:
        break;
    }
  }
  // The expression at `entry`: every instruction up to its kEnd.
  void Code(const internal::Program& p, int32_t entry) {
    Raw(entry);
    for (size_t pc = entry; pc < p.code.size(); ++pc) {
      Instruction(p, p.code[pc]);
      if (p.code[pc].op == OpCode::kEnd) break;
    }
  }
  std::string Take() && {
    key_.resize(n_);
    return std::move(key_);
  }

 private:
  std::string key_ = std::string(1024, '\0');
  size_t n_ = 0;
};

}  // namespace

std::string CompiledRules::NativeKey(const Phase& phase) const {
  KeyWriter key;
  // The rules first: keys of different phases then differ in their first bytes, which is
  // what a lookup compares first.
  key.Raw(static_cast<uint64_t>(phase.steps.size()));
  for (const Step& st : phase.steps) key.Raw(st.rule);
  key.Raw(static_cast<uint64_t>(phase.tests.size()));
  for (const Instr& t : phase.tests) key.Instruction(program_, t);
  for (const Step& st : phase.steps) {
    key.Raw(st.rule);
    key.Raw(st.set);
    key.Raw(st.when_kind);
    key.Raw(st.score_kind);
    key.Raw(st.score_ops);
    key.Raw(st.need);
    key.Raw(st.want);
    key.Raw(rules_[st.rule].effect);
    key.Raw(st.score);
    key.Raw(st.constant);
    if (st.when_kind == Step::When::kCode) key.Code(program_, st.when);
    if (st.score_kind == Step::Score::kCode) key.Code(program_, st.score);
    if (st.score_kind == Step::Score::kLeaf) {
      for (int k = 0; k < st.score_ops; ++k) key.Instruction(program_, st.ops[k]);
    }
  }
  return std::move(key).Take();
}

}  // namespace fitrank::rules
