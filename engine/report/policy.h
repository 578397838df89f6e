// Report policy: the product choices the reports make (top-N, verdict thresholds, capability
// matrix models, reference models, cost assumptions, upgrade options), read from
// engine/report/reports.yaml. Nothing here is physics (the estimator's constants) or ranking (rules).
//
// Load() reports every problem to `diags` and returns nullopt if any error was found. The
// workloads, grade and quantizations the file names are then resolved once, by
// ResolveReportPolicy (Engine::Load), so that the reports hold the profiles' and the catalog's
// records and never look a name up again. Model ids in the file are not checked against the
// catalog: a report takes the first id the catalog knows and says so when none is known.
#ifndef FITRANK_ENGINE_REPORT_POLICY_H_
#define FITRANK_ENGINE_REPORT_POLICY_H_

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "profiles/profiles.h"

namespace fitrank {

// A name the file gives for a record of the profiles or the catalog: the name as written, where,
// and the record it resolves to (ResolveReportPolicy; never null in a loaded Engine).
template <class T>
struct PolicyRef {
  std::string id;
  Location where;
  const T* found = nullptr;
  const T& operator*() const { return *found; }
  const T* operator->() const { return found; }
};

struct VerdictLevel {
  std::string id;          // "excellent" | "good" | "limited" | "not-recommended"
  double min_share = 0;    // of the top models that run well
  std::string text;
};

struct QualityLabel {
  double min = 0;          // retention 0-1
  std::string text;
};

// What a capability row runs: a language model, or a diffusion model making images or video.
// YAML: llm | image | video.
enum class CapabilityKind { kLlm, kImage, kVideo };

struct CapabilitySpec {
  std::string id;
  std::string label;
  CapabilityKind kind = CapabilityKind::kLlm;
  PolicyRef<Workload> workload;     // llm rows
  PolicyRef<Quant> quant;           // llm rows
  int frames = 0;                   // video rows: 0 = the model's default
  std::vector<std::string> models;  // candidates, first known wins
};

// Title and fixed detail of an advice id (engine/report/reports.yaml `advice`).
struct AdviceText {
  std::string id;                       // "remove-offload"
  std::string title;
  std::string detail;                   // may be empty when the report writes it with numbers
  std::vector<std::string> covered_by;  // ids that say the same with numbers
};

// A sentence a report writes beside its tables (engine/report/reports.yaml `notes`). The text
// has placeholders for the values the report passes: `{name}` (text) or `{name:.Nf}` (a number
// with N decimals, 0-6). Load checks that every note the reports write is there and names only
// values its report passes (the table in policy.cc).
struct NoteText {
  std::string id;          // "recommend.no-pick"
  std::string text;
  double min_gap_gb = 0;   // fit.usable-share only: the smallest gap worth a note
  int max_names = 0;       // upgrade.unpriced*: at most this many names, then ", ..."
};

// One value passed to a note: text or a number.
struct NoteArg {
  NoteArg(absl::string_view n, absl::string_view t) : name(n), text(t) {}
  NoteArg(absl::string_view n, const char* t) : name(n), text(t) {}
  NoteArg(absl::string_view n, const std::string& t) : name(n), text(t) {}
  // Any number (a count, a price): one constructor, so no int -> double narrowing in a
  // brace-initialised argument list.
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  NoteArg(absl::string_view n, T v) : name(n), number(static_cast<double>(v)), is_number(true) {}
  absl::string_view name;
  absl::string_view text;
  double number = 0;
  bool is_number = false;
};

struct ReferenceModelSpec {
  std::string label;
  std::vector<std::string> models;
};

struct ReportPolicy {
  std::map<std::string, std::string> sources;  // key -> text

  int top_models_count = 50;
  PolicyRef<Workload> top_models_workload;
  PolicyRef<Grade> top_models_min_grade;  // a grade of the profiles' scale
  int top_models_min_grade_index = -1;    // its index in the scale (resolved with it)
  std::vector<VerdictLevel> verdicts;  // best first

  std::vector<QualityLabel> quality_labels;  // best first
  std::vector<CapabilitySpec> capability_rows;

  int picks_per_workload = 3;
  int out_of_reach_count = 5;
  std::vector<int> scale_out_counts = {1, 2, 4, 8};
  PolicyRef<Workload> count_workload;
  PolicyRef<Quant> count_quant;

  std::vector<ReferenceModelSpec> reference_models;
  double cost_lifetime_years = 3;
  double cost_utilization = 0.5;
  double cost_usd_per_kwh = 0.14;
  int cost_concurrency = 8;
  int cost_model_row = 1;
  std::string cost_source;

  std::vector<int> host_ram_steps_gb = {64, 128, 256};
  double host_ram_usd_per_gb = 4.0;
  std::string host_ram_price_source;
  int max_gpus_same = 8;
  int max_upgrade_options = 12;
  int gpu_page_upgrade_options = 5;  // the GPU page's first options; <= max_upgrade_options
  int itinerary_steps = 3;

  std::vector<AdviceText> advice;  // in file order
  std::vector<NoteText> notes;     // in file order

  // The note `id` with `args` filled in; "" if there is no such note (Load makes sure every
  // note a report writes exists). A placeholder without an argument is left as written.
  std::string Note(absl::string_view id, std::initializer_list<NoteArg> args) const;
  // The note `id`, or nullptr.
  const NoteText* NoteFor(absl::string_view id) const;

  // The advice text of `id`, or nullptr.
  const AdviceText* AdviceFor(const std::string& id) const;

  // The verdict for `runs_well` of `count` (count 0 gives the last level).
  const VerdictLevel& VerdictFor(int runs_well, int count) const;
  // The label of a quality retention (0-1), e.g. "High".
  std::string QualityLabelFor(double retention) const;
  // Text of a source key, or the key itself when unknown.
  std::string SourceText(const std::string& key) const;
};

// Parses `content` (the text of engine/report/reports.yaml, shown as `file` in diagnostics).
std::optional<ReportPolicy> ParseReportPolicy(const std::string& content, const std::string& file,
                                              Diagnostics* diags);
// Reads engine/report/reports.yaml from `source`.
std::optional<ReportPolicy> LoadReportPolicy(const FileSource& source, Diagnostics* diags);

// Resolves the workloads, the minimum grade and the quantizations `policy` names against the
// profiles and the catalog, each once; an unknown name is an error at its place in the file
// (with a did-you-mean). False if any was unknown.
bool ResolveReportPolicy(const Profiles& profiles, const Catalog& catalog, ReportPolicy* policy,
                         Diagnostics* diags);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_POLICY_H_
