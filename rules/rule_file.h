// Rule files: YAML -> plain structs with positions (the "read" stage of the rules pipeline).
//
// A rule file (rules/README.md has the analyst's version):
//
//   schema: fitrank.rules/v1        # required, exactly this
//   set: fit                        # required when the file has rules: the rule set they score
//   description: ...                # optional
//   rules:                          # optional list of rules
//     - id: fit.native-comfortable  # required, dotted lowercase, unique across all files
//       desc: ...                   # one line for explain
//       when: <condition>           # default true
//       score: <number expression>  # default 0
//       cap: C                      # optional grade letter: the grade is at most this
//       gate: true                  # optional: exclude the candidate when the rule fires
//       gate_reason: ...            # optional, shown for excluded candidates
//       workloads: [coding, agentic]  # optional: applies only to these (absent: all)
//       modes: [interactive]        # optional, likewise
//       say: "... {fit.headroom_pct:.0f}% ..."  # the sentence explain shows when it fires
//       advice: remove-offload      # optional advice id
//       tags: [fit]                 # optional
//   overrides:                      # optional: change rules defined in any file (see rule_book.h)
//     - id: fit.offload
//       disable: true
//     - id: speed.fast
//       set: {score: 20, say: "..."}  # keys replaced one by one; nothing else changes
//
// The reader checks structure only (keys, value types, id syntax). Expressions and templates
// are kept as text with their origin; facts, types, grades, workloads and modes are checked by
// the compiler (compiled_rules.h), which knows the fact schema and the vocabulary. Every
// problem is reported; what could be read is returned. `workloads: coding` (one word, no
// brackets) is read as a list of one.
#ifndef FITRANK_RULES_RULE_FILE_H_
#define FITRANK_RULES_RULE_FILE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "rules/text_origin.h"

namespace fitrank::rules {

inline constexpr absl::string_view kRulesSchema = "fitrank.rules/v1";

// Rule-count limit (SECURITY.md): a rule file holds at most kMaxRules rules and kMaxRules
// overrides, and the merged book (rule_book.h) at most kMaxRules rules; beyond, a located
// `too-many-rules` error and none of the file's rules (or overrides) are read. Every rule is
// evaluated for every candidate, so this bounds a sweep's work; the shipped book has ~50.
inline constexpr int kMaxRules = 2000;

// A text that is compiled later (expression or sentence template), with its origin.
struct SourceText {
  std::string text;
  TextOrigin origin;
  Location At(int offset) const { return origin.At(text, offset); }
};

// A word from a YAML list (workload or mode id), with its position.
struct Word {
  std::string value;
  Location where;
};

struct RuleDef {
  std::string id;
  Location where;      // the `id:` value
  std::string set;     // the file's set
  Location set_where;  // the file's `set:` value
  std::string file;    // display name of the defining file
  bool local = false;  // defined in a local (analyst) file

  std::string desc;
  std::optional<SourceText> when;   // absent: always
  std::optional<SourceText> score;  // absent: 0
  std::optional<SourceText> say;    // absent: no sentence (lint warns)
  std::string cap;                  // grade letter, empty for none
  Location cap_where;
  bool gate = false;
  std::string gate_reason;
  std::optional<std::vector<Word>> workloads;  // absent: every workload
  Location workloads_where;
  std::optional<std::vector<Word>> modes;      // absent: every mode
  Location modes_where;
  std::string advice;
  std::vector<std::string> tags;

  // Filled by the merge: the overrides that changed this rule, in order.
  std::vector<Location> overridden_at;
};

struct OverrideDef {
  std::string id;
  Location where;  // the `id:` value
  std::string file;
  bool disable = false;
  Location disable_where;
  // Each is set only if the override's `set:` names it. `cap` "none" removes the cap.
  std::optional<std::string> desc;
  std::optional<SourceText> when, score, say;
  std::optional<std::string> cap;
  Location cap_where;
  std::optional<bool> gate;
  std::optional<std::string> gate_reason;
  std::optional<std::vector<Word>> workloads;
  Location workloads_where;
  std::optional<std::vector<Word>> modes;
  Location modes_where;
  std::optional<std::string> advice;
  std::optional<std::vector<std::string>> tags;
  // Every key set, with the position of its value, in file order.
  std::vector<std::pair<std::string, Location>> keys;
};

struct RuleFile {
  std::string file;  // display name
  bool local = false;
  bool parsed = false;  // false if the YAML itself could not be read
  std::string set;
  Location set_where;
  std::string description;
  std::vector<RuleDef> rules;
  std::vector<OverrideDef> overrides;
};

// Reads one rule file. `local` marks files from the analyst's directory (it is recorded on
// each rule, for explain and lint). Problems go to `diags`; the file's content is registered
// with `diags` for caret rendering.
RuleFile ReadRuleFile(absl::string_view content, absl::string_view file, bool local,
                      Diagnostics* diags);

// True if `id` is a valid rule id: two or more dot-separated parts of [a-z0-9_-], each
// starting with a letter or digit ("fit.native-comfortable").
bool IsValidRuleId(absl::string_view id);

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_RULE_FILE_H_
