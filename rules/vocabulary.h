// The names rules may refer to besides facts: workloads, modes, rule sets and grades. The
// engine passes them in (they come from profiles/*.yaml and the grade table); the rules
// library hard-codes none of them.
#ifndef FITRANK_RULES_VOCABULARY_H_
#define FITRANK_RULES_VOCABULARY_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fitrank::rules {

// A workload or mode: its canonical id and the other names that mean the same
// (`agentic` / `agentic-coding`).
struct NamedId {
  std::string id;
  std::vector<std::string> aliases;
};

struct Vocabulary {
  // At most 63 each. CompiledRules::Evaluate()'s workload_index / mode_index index these
  // lists. When a list is empty, ids in rules are not checked (and never match).
  std::vector<NamedId> workloads;
  std::vector<NamedId> modes;
  // Known rule sets, in the order the engine wants their indexes: CompiledRules gives set i
  // the index i for these; sets only the rule files name get the next indexes, in load order.
  // A set not listed here is allowed (analysts may add sets) but lint warns about it.
  std::vector<std::string> sets;
  // Grade letters, best first. A rule's `cap` must be one of them; caps are reported as
  // indexes into this list (0 = best).
  std::vector<std::string> grades = {"A", "B", "C", "D", "E", "F"};

  static constexpr int kMaxIds = 63;

  // Index of the workload (mode) whose id or alias is `name`, or -1.
  int FindWorkload(absl::string_view name) const { return Find(workloads, name); }
  int FindMode(absl::string_view name) const { return Find(modes, name); }
  // Every id and alias, for did-you-mean hints.
  static std::vector<std::string> AllNames(const std::vector<NamedId>& ids);

  static int Find(const std::vector<NamedId>& ids, absl::string_view name);
};

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_VOCABULARY_H_
