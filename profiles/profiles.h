// Workload profiles, operating modes and the grade scale: the analyst-tunable numbers that turn
// rule-set totals into a score and a letter (profiles/{workloads,modes,grades}.yaml).
//
// Load() reads the three files from a FileSource, validates every entry (required keys, types,
// ranges, unknown keys with did-you-mean, duplicate ids and aliases, grade order, the default
// mode) and reports every problem to `diags`. If any error was found it returns nullptr:
// nothing half-loaded is used. Set names in weights and multipliers are not checked here (this
// module knows nothing about rules); the engine checks them against the loaded rule sets.
//
// A loaded Profiles is immutable; pointers into it stay valid for its lifetime; all methods
// are thread-safe.
#ifndef FITRANK_PROFILES_PROFILES_H_
#define FITRANK_PROFILES_PROFILES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/file_source.h"

namespace fitrank {

// One rule set's weight (in a workload) or multiplier (in a mode), with where it was written.
struct SetWeight {
  std::string set;  // "fit", "quality", ... : a rule file's `set:`
  double value = 0;
  Location where;
};

struct Workload {
  std::string id;                    // "chat" | "coding" | "agentic" | "rag" | "reasoning" (an interface)
  std::string name;                  // "Agentic coding" (titles)
  std::string phrase;                // "agentic coding" (mid-sentence in reasons)
  std::vector<std::string> aliases;  // "agentic-coding"
  std::string description;
  int context_tokens = 0;            // context the runtime allocates (KV sized for this)
  int prompt_tokens = 0;             // prompt prefilled before the first token (TTFT)
  int output_tokens = 0;             // tokens generated per answer
  double decode_target_tok_s = 0;    // comfortable single-user decode speed
  double decode_min_tok_s = 0;       // below this the workload is frustrating (< target)
  double ttft_target_ms = 0;         // comfortable time to first token at prompt_tokens
  double ttft_max_ms = 0;            // beyond this the workload is frustrating (> target)
  int min_context_tokens = 0;        // smallest usable context (<= context_tokens)
  std::vector<std::string> required_caps;   // YAML `requires`: a model must have these ("tools")
  std::vector<std::string> preferred_caps;  // YAML `prefers`: these make a model a better fit
  std::vector<SetWeight> weights;    // per rule set; a set not listed weighs 0
  Location where;

  // Weight of `set`, 0 if not listed.
  double WeightOf(absl::string_view set) const;
};

struct Mode {
  std::string id;                    // "balanced" | "interactive" | "background" | "light-api" | "scale-out"
  std::string name;
  std::vector<std::string> aliases;
  std::string description;
  std::vector<SetWeight> multipliers;  // a set not listed keeps its weight (x1)
  int concurrency = 1;                 // concurrent sequences served
  std::vector<int> gpu_counts;         // scale-out: try these counts of the GPU (empty: as given)
  std::string parallelism;             // "" (the setup's default) | "layer" | "tensor"
  bool serving_runtime = false;        // needs a serving runtime (continuous batching)
  double decode_target_scale = 1;      // x workload.decode_target_tok_s and decode_min_tok_s
  double ttft_target_scale = 1;        // x workload.ttft_target_ms and ttft_max_ms
  double context_scale = 1;            // x workload.context_tokens (capped by the model)
  Location where;

  // Multiplier of `set`, 1 if not listed.
  double MultiplierOf(absl::string_view set) const;
};

struct Grade {
  std::string letter;       // "A"
  double min_score = 0;     // this grade from min_score up to the next better grade's
  std::string label;        // "Excellent"
  std::string description;
};

struct GradeScale {
  std::vector<Grade> grades;       // best first, min_score strictly decreasing, last one 0
  double set_score_min = 0;        // each set's total is clamped to [min, max]
  double set_score_max = 100;
  double cap_margin = 0.1;         // a capped score sits this far under the next better grade
  // Standard errors every quality figure is ranked below its score, once (EffectiveQuality).
  double quality_ranking_z = 1.0;
  // Rule sets in the order their reasons are told (sets not listed follow, in rule order).
  std::vector<std::string> reason_order;
  // Quantization ids a ranked pick may use; empty: all (engine/evaluate.h).
  std::vector<std::string> pick_quants;

  // Index into `grades` of the grade for `score` (the last grade if below every threshold).
  int IndexFor(double score) const;
  // Index of `letter`, or -1.
  int IndexOf(absl::string_view letter) const;
  // The highest score a candidate capped at grades[index] may keep.
  double CeilingFor(int index) const;
};

// The outcome of a lookup by id or alias (exact after NormalizeName).
template <class T>
struct ProfileLookup {
  const T* found = nullptr;
  std::vector<std::string> suggestions;  // nothing matched: closest ids
  explicit operator bool() const { return found != nullptr; }
};

class Profiles {
 public:
  // Reads profiles/workloads.yaml, profiles/modes.yaml and profiles/grades.yaml.
  static std::unique_ptr<Profiles> Load(const FileSource& source, Diagnostics* diags);
  // The same from texts, for tests and fuzzers: `(content, display_name)` per file.
  static std::unique_ptr<Profiles> Parse(absl::string_view workloads, absl::string_view modes,
                                         absl::string_view grades, Diagnostics* diags,
                                         absl::string_view workloads_name = "profiles/workloads.yaml",
                                         absl::string_view modes_name = "profiles/modes.yaml",
                                         absl::string_view grades_name = "profiles/grades.yaml");

  const std::vector<Workload>& workloads() const { return workloads_; }
  const std::vector<Mode>& modes() const { return modes_; }
  const GradeScale& grades() const { return grades_; }
  const Mode& default_mode() const { return modes_[default_mode_]; }
  // How reasons name `capability` mid-sentence ("tools" -> "tool calling"); the id itself if
  // the file gives no phrase.
  absl::string_view CapabilityPhrase(absl::string_view capability) const;

  ProfileLookup<Workload> FindWorkload(absl::string_view name) const;
  ProfileLookup<Mode> FindMode(absl::string_view name) const;

  // Every set name used by a weight or multiplier, sorted, unique.
  std::vector<std::string> SetNames() const;

 private:
  std::vector<Workload> workloads_;
  std::vector<Mode> modes_;
  GradeScale grades_;
  size_t default_mode_ = 0;
  std::vector<std::pair<std::string, std::string>> capability_phrases_;
};

}  // namespace fitrank

#endif  // FITRANK_PROFILES_PROFILES_H_
