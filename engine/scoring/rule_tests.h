// Rule tests: analysts' expectations of the rules, as data (rules/*.test.yaml next to the rule
// files), run by `fitrank rules test` and by CTest.
//
//   schema: fitrank.rule-tests/v1
//   tests:
//     - name: a 405B model offloading at 12 tok/s is not an A for coding
//       gpu: Instinct MI325X          # a name, or a list of names, or `all` (every GPU)
//       count: 1                      # optional: N of the GPU (default 1)
//       ram: 256                      # optional: host RAM, GB (default: the GPU class's)
//       model: llama-3.1-405b-instruct  # needed by grade/score/fires/excluded
//       quant: Q4_K_M                 # optional: default the model's best by the rules
//       workload: coding              # a workload, a list, or `all` (default: chat)
//       mode: balanced                # a mode, a list, or `all` (default: the default mode)
//       expect:
//         grade: C..D                 # a letter, or best..worst, inclusive
//         score: 40..70               # min..max, inclusive (either side may be empty)
//         fires: [fit.offload]        # these rules fire
//         not_fires: [fit.native-comfortable]
//         excluded: false             # a gate excludes it (or not)
//         ranks_above: qwen3-32b      # `model` ranks above this one (best quants, by the rules)
//         top_pick: [qwen3-32b, ...]  # the top pick is one of these
//         top_grade: B..A             # the top pick's grade
//         never_recommend:            # no model matching this is among the top K picks
//           models: [llama-3.1-8b-instruct]   # ids
//           params_below_b: 9         # or: total parameters below this
//           match: "(?i)coder"        # or: id/name matching this RE2
//           top: 5                    # K (default 5)
// A test runs every combination of its GPUs, workloads and modes; each must meet every
// expectation. Names resolve like the CLI's (forgiving, did-you-mean).
#ifndef FITRANK_ENGINE_SCORING_RULE_TESTS_H_
#define FITRANK_ENGINE_SCORING_RULE_TESTS_H_

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "engine/scoring/evaluate.h"
#include "nlohmann/json.hpp"

namespace fitrank {

struct RuleTest {
  std::string name;
  Location where;
  std::vector<const Gpu*> gpus;
  int count = 1;
  double ram_gb = 0;  // 0: default
  const Model* model = nullptr;
  const Quant* quant = nullptr;
  std::vector<const Workload*> workloads;
  std::vector<const Mode*> modes;

  // Expectations; each is checked only if given.
  int grade_best = -1, grade_worst = -1;  // indexes into the grade scale
  bool has_score_min = false, has_score_max = false;
  double score_min = 0, score_max = 0;
  std::vector<std::string> fires, not_fires;  // rule ids (checked against the rule book)
  int excluded = -1;                          // -1 unchecked, 0 / 1
  const Model* ranks_above = nullptr;
  std::vector<const Model*> top_pick;
  int top_grade_best = -1, top_grade_worst = -1;
  bool has_never = false;
  std::vector<const Model*> never_models;
  double never_params_below_b = 0;
  std::string never_match;
  int never_top = 5;
};

// Reads a test file. Unknown names (GPUs, models, quants, workloads, modes, rule ids) and
// malformed expectations are diagnostics at their line; the tests that could be read are
// returned (callers use none of them if `diags` has errors).
std::vector<RuleTest> ReadRuleTests(absl::string_view content, absl::string_view file,
                                    const Evaluator& evaluator, Diagnostics* diags);

struct RuleTestResult {
  std::string name;
  Location where;
  int cases = 0;                      // GPU x workload x mode combinations run
  std::vector<std::string> failures;  // one line each: which case, what was expected, what was found
  bool passed() const { return failures.empty(); }
};

struct RuleTestReport {
  std::vector<RuleTestResult> results;
  int passed = 0;
  int failed = 0;
  // Rules that fired for no candidate a test looked at (in book order), with where they are.
  std::vector<std::pair<std::string, Location>> unexercised;
};

// Runs `tests` (thread-compatible: one call at a time per report).
RuleTestReport RunRuleTests(const Evaluator& evaluator, const std::vector<RuleTest>& tests);

// JSON Schema of a rule-test file, for `fitrank rules schema`.
nlohmann::ordered_json RuleTestFileSchema();

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_RULE_TESTS_H_
