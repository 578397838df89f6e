// A compiled rule book and its evaluation (the "compile" and "evaluate" stages of the rules
// pipeline).
//
// Compile once, evaluate millions:
//
//   auto schema = std::make_shared<rules::FactSchema>();
//   rules::NumberFact headroom = schema->Number("fit.headroom_pct", "...", "%");
//   ...                                            // every fact the engine provides
//   rules::CompileOptions opts;
//   opts.vocab.workloads = {{"chat", {}}, {"coding", {}}, {"agentic", {"agentic-coding"}}, ...};
//   opts.vocab.modes = {{"balanced", {}}, {"interactive", {}}, ...};
//   opts.vocab.sets = {"fit", "speed", ...};       // the sets profiles weight, in that order
//   rules::RuleSources src{data.get(), "rules", local_dir_source.get(), ""};
//   absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> book =
//       rules::LoadRules(src, schema, opts, &diags);   // read + merge + compile
//
//   // Per thread:
//   rules::FactValues facts(*schema);
//   rules::EvalResult result;
//   // Per candidate (no allocation after the first call):
//   facts.Clear();
//   facts.Set(headroom, 23.5); ...
//   (*book)->Evaluate(facts, workload_index, mode_index, &result);
//   double score = 0;
//   for (int s = 0; s < (*book)->set_count(); ++s) score += weight[s] * result.set_total[s];
//   if (result.gated) ...; if (result.cap >= 0) grade = max(grade, result.cap);
//
// Semantics of one rule for one candidate: it is *applicable* when the workload is in its
// `workloads` (or it has none) and the mode in its `modes` (or none). An applicable rule
// *fires* when `when` is true (no `when`: always). A fired rule contributes its `score`
// to its set's total, caps the grade at `cap` and, with `gate: true`, excludes the candidate.
// Numeric faults (division by zero, log2 of a number <= 0, overflow) yield 0, never NaN or
// infinity; they are counted in EvalResult::faults and explained by Explain().
//
// Thread safety: a CompiledRules is immutable; Evaluate() and Explain() may run concurrently
// from any number of threads, each with its own FactValues and EvalResult.
#ifndef FITRANK_RULES_COMPILED_RULES_H_
#define FITRANK_RULES_COMPILED_RULES_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "rules/facts.h"
#include "rules/internal/program.h"
#include "rules/internal/template.h"
#include "rules/native.h"
#include "rules/parser.h"
#include "rules/rule_book.h"
#include "rules/vocabulary.h"

namespace fitrank::rules {

struct CompileOptions {
  Vocabulary vocab;
  // Also report warnings (what `rules lint` shows): unknown set, missing `say` or `desc`,
  // unreachable rules, rules without effect, constant division by zero. Loading for a
  // normal run leaves this off, so only errors are reported.
  bool warnings = false;
  ParseLimits limits;
  // Phases compiled to C++ (rules/native.h): a phase whose key is in the table runs its
  // function instead of the interpreter. Null: every phase is interpreted.
  const NativePhases* native = nullptr;
};

// What explain, lint and `rules test` need to know about a compiled rule.
struct RuleInfo {
  std::string id;
  std::string set;
  int set_index = 0;
  std::string desc;
  std::string file;
  Location where;
  bool local = false;
  bool overridden = false;
  std::string when_text;   // as written ("" if none)
  std::string score_text;  // as written ("" if none)
  std::string say_text;    // as written ("" if none)
  int cap = -1;            // index into Vocabulary::grades, -1 for none
  bool gate = false;
  std::string gate_reason;
  std::string advice;
  std::vector<std::string> tags;
  std::vector<int> workloads;  // indexes; empty = every workload
  std::vector<int> modes;      // indexes; empty = every mode
};

// Caller-provided storage for one evaluation. Evaluate() sizes it on first use for a rule
// book and then reuses it: no allocation per candidate. One per thread.
struct EvalResult {
  std::vector<uint8_t> fired;         // per rule: 1 if applicable and `when` held
  std::vector<double> contribution;   // per rule: its score if fired, else 0
  std::vector<uint8_t> faults_of;     // per rule: numeric fault bits (0 = none)
  std::vector<double> set_total;      // per set: sum of contributions of its fired rules
  int cap = -1;        // the worst grade cap among fired rules (index into grades), -1 none
  int cap_rule = -1;   // the first rule (index) that imposed `cap`
  bool gated = false;  // a fired rule has `gate: true`: exclude the candidate
  int gate_rule = -1;  // the first such rule
  int faults = 0;      // number of rules whose evaluation hit a numeric fault

  // Scratch owned by the evaluator.
  uint64_t book_id_ = 0;
  uint64_t context_key_ = 0;  // of the evaluation whose results these are
  int list_ = -1;             // its applicable-rules list (workload x mode)
  bool bounded_ = false;      // Bound() was the last call: its early rules' results are held
  bool partial_ = false;      // the context rules' results held are only those with an effect
  // Bound(): per set, the sum of the context rules' contributions held and of their
  // magnitudes; valid while the context rules' results are (same context and list).
  bool context_sums_ = false;
  std::vector<double> context_total_, context_magnitude_;
  // Faults of the context rules' results held (all of them, and those with an effect), and of
  // the early rules' results Bound() left.
  int context_faults_ = 0, context_effect_faults_ = 0, early_faults_ = 0;
  std::vector<internal::RegexMemo> memo_;
};

// One rule, evaluated for explain.
struct RuleTrace {
  int rule = 0;             // index into CompiledRules::rules()
  bool applicable = false;  // workload and mode match
  bool fired = false;
  double contribution = 0;
  std::string fault;        // "division by zero" ... or empty
  std::string sentence;     // the rendered `say`, if fired
};

struct Explanation {
  std::vector<RuleTrace> rules;  // every rule, in book order
  std::vector<double> set_total;
  int cap = -1;
  int cap_rule = -1;
  bool gated = false;
  int gate_rule = -1;
};

// What the rules that read only item facts (FactDecl::item: the model's and the
// quantization's, say) gave for the items evaluated since the last Clear(), by the caller's
// item key. A caller that evaluates one item under many setups, workloads and modes (a sweep
// does 25 per GPU) passes the same memo and key each time (CompiledRules::Bound, Score), and
// those rules run once per item rather than once per evaluation. One per thread; it serves
// several rule books (two at once without evicting one another). Keys are small indexes
// (the memo grows to the largest).
class ItemMemo {
 public:
  // Forgets every result: the keys will name other items.
  void Clear() { ++generation_; }

 private:
  friend class CompiledRules;
  static constexpr int kWays = 2;  // books kept per key
  struct Entry {
    uint64_t book = 0;        // CompiledRules::id_
    uint64_t generation = 0;  // valid while it equals generation_
    EvalResult result;        // fired / contribution / faults_of of the book's item rules
  };
  // The entry of `book` under `key`, or nullptr if it has none.
  Entry* Find(int key, uint64_t book) {
    const size_t first = static_cast<size_t>(key) * kWays;
    if (first + kWays > entries_.size()) return nullptr;
    for (size_t w = first; w < first + kWays; ++w) {
      if (entries_[w].generation == generation_ && entries_[w].book == book) return &entries_[w];
    }
    return nullptr;
  }
  // A way of `key` taken for `book` (a free one, else the first), its per-rule arrays sized
  // for `rules` rules; the caller fills them.
  Entry& Add(int key, uint64_t book, size_t rules);

  std::vector<Entry> entries_;  // [key * kWays + way]
  uint64_t generation_ = 1;
};

class CompiledRules {
 public:
  ~CompiledRules();
  CompiledRules(const CompiledRules&) = delete;
  CompiledRules& operator=(const CompiledRules&) = delete;

  const std::vector<RuleInfo>& rules() const { return info_; }
  int rule_count() const { return static_cast<int>(info_.size()); }
  // Set names by index (see Vocabulary::sets for the order).
  const std::vector<std::string>& sets() const { return sets_; }
  int set_count() const { return static_cast<int>(sets_.size()); }
  int FindSet(absl::string_view name) const;
  int FindRule(absl::string_view id) const;
  const Vocabulary& vocabulary() const { return vocab_; }
  const FactSchema& schema() const { return *schema_; }
  // The ids disabled by overrides (for explain and lint).
  const std::vector<RuleBook::Disabled>& disabled() const { return disabled_; }
  // How many of the book's phases run as compiled C++ (CompileOptions::native), and of how
  // many with a rule in them. (These make every plan first: for tests and tools.)
  int native_phases() const;
  int phases_with_rules() const;
  // How many of the book's plans add up their set totals in compiled C++, and of how many.
  int native_totals() const;
  int plan_count() const { return static_cast<int>(plan_rules_.size()); }

  // Evaluates every rule for one candidate. `workload_index` / `mode_index` index
  // vocabulary().workloads / .modes; -1 (or any index out of range) means "none": only rules
  // without a `workloads` (`modes`) list apply, and workload.id (mode.id) reads "". `facts`
  // must have been built from schema() (checked: a different schema aborts). Pure: no
  // allocation after `out` is sized, no name lookup, no I/O.
  //
  // `context_key` lets a caller that evaluates many candidates in one context (one GPU,
  // model, workload and mode; only quant.*, fit.* and the like change) skip the rules that
  // read only context facts (FactSchema::MarkContext): when it is not 0 and equals the key of
  // the evaluation `out` holds, for the same workload and mode, their results in `out` are
  // kept. The caller promises that no context fact has changed while it passes the same key;
  // 0 evaluates every rule. Results are identical either way.
  void Evaluate(const FactValues& facts, int workload_index, int mode_index, EvalResult* out,
                uint64_t context_key = 0) const;

  // What ranking reads of an evaluation: Evaluate's set_total, cap, cap_rule, gated and
  // gate_rule, bit for bit, from only the rules that can change them (HasEffect: a rule with
  // no score or a constant 0 one, no cap and no gate changes none, and is not evaluated).
  // fired / contribution / faults_of of the rules it skips are left as they were and `faults`
  // counts only the rules it evaluated: use Evaluate or Explain for those. `context_key`
  // works as for Evaluate.
  //
  // `after_bound`: `out` was last used by Bound() for the same candidate (same early facts,
  // workload, mode and context key): the early rules' results it holds are kept and only the
  // other rules are evaluated. Results are identical either way.
  //
  // `items` (not null, with `item_key` >= 0): the caller promises that every item fact
  // (FactDecl::item) had the same value each time it passed this memo and key since the
  // memo's last Clear(). The rules that read only item facts then take their results from
  // the memo (worked out into it once). Results are identical either way.
  void Score(const FactValues& facts, int workload_index, int mode_index, EvalResult* out,
             uint64_t context_key = 0, bool after_bound = false, ItemMemo* items = nullptr,
             int item_key = -1) const;

  // True if rule `rule` can change a score: it has a score that is not a constant 0, a cap or
  // a gate.
  bool HasEffect(int rule) const;

  // True if some rule's `when` or `score` reads the fact at `fact_index` (into
  // schema().facts()): Evaluate, Score and Bound read no other fact (Explain and Say also
  // read the facts of the `say` sentences).
  bool ReadsToScore(int32_t fact_index) const {
    return fact_index >= 0 && fact_index < static_cast<int32_t>(reads_to_score_.size()) &&
           reads_to_score_[fact_index];
  }

  // True if a rule that Bound evaluates (one with an effect that reads only context and early
  // facts) reads the fact at `fact_index` (workload.id and mode.id included).
  bool ReadsBeforeLate(int32_t fact_index) const {
    return fact_index >= 0 && fact_index < static_cast<int32_t>(reads_before_late_.size()) &&
           reads_before_late_[fact_index];
  }
  // True if Bound evaluates the same rules for `workload_index` in modes `mode_a` and `mode_b`
  // (one plan of scored rules): it then gives both the same set bounds for facts whose values
  // are the same in every fact ReadsBeforeLate (mode.id among them, if a rule reads it).
  bool SameBoundRules(int workload_index, int mode_a, int mode_b) const;

  // True if a gate that reads only context facts (FactSchema::MarkContext; its `when` and
  // `score`) fires for the context of `facts`: Score() then gates every candidate of that
  // context. Runs the rules that read only context facts into `scratch` as Score() does, kept
  // for it; `scratch` and `context_key` work as for Evaluate.
  bool ContextGated(const FactValues& facts, int workload_index, int mode_index,
                    EvalResult* scratch, uint64_t context_key) const;

  // Bounds of each set's total (set_count() each, into set_least / set_most) over every
  // candidate whose context and early facts (FactDecl::context, FactDecl::early) are those of
  // `facts`, whatever its other facts: a rule that reads only context and early facts is
  // evaluated; any other counts between the least and the most it may contribute (0 if it
  // does not fire and its score if it does: a constant, else unbounded, -inf / +inf). Each
  // bound is widened by 1e-12 of the sum of its terms' magnitudes, so that it holds for the
  // total Score() adds up in book order whatever order Bound() adds in (the rules that read
  // only context facts are summed once per context, the constants once per book; a sum of
  // at most kMaxRules = 2000 terms rounds by less than 2.3e-13 of that magnitude). Only
  // the context and early facts of `facts` are read. `scratch` and `context_key` work as for
  // Evaluate (the same record); the early rules' results stay in `scratch` for a
  // Score(after_bound) of the same candidate once its other facts are set. Caps and gates are
  // ignored: they can only lower a score. Only the rules with an effect (HasEffect) are
  // evaluated or counted. `items` and `item_key` work as for Score. No allocation after
  // `scratch` (and the memo's entry) is sized.
  void Bound(const FactValues& facts, int workload_index, int mode_index, EvalResult* scratch,
             uint64_t context_key, double* set_least, double* set_most,
             ItemMemo* items = nullptr, int item_key = -1) const;

  // The slow path for `rules explain`: every rule, fired or not, its contribution, faults
  // and rendered sentence. Agrees with Evaluate() on every number.
  Explanation Explain(const FactValues& facts, int workload_index, int mode_index) const;

  // The rule's `say` rendered for these facts, with `score` as its contribution.
  std::string Say(int rule, const FactValues& facts, int workload_index, int mode_index,
                  double score) const;

 private:
  friend class RulesCompiler;
  CompiledRules();

  struct Rule {
    int32_t when = -1;   // entry into program_; -1: constant `when_constant`
    int32_t score = -1;  // entry; -1: constant `score_constant`
    bool when_constant = true;
    // If not empty, `when` is the conjunction of these one-instruction tests, each negated if
    // `negated` (tests never fault, so they may be worked out in any order).
    struct Test {
      internal::Instr instr;
      bool negated = false;
    };
    std::vector<Test> when_tests;
    // `score` is number fact `score_slot` then the constant operations score_op[0..score_ops).
    static constexpr int kMaxScoreOps = 5;
    bool score_is_leaf = false;
    uint8_t score_ops = 0;
    double score_constant = 0;
    internal::Instr score_op[kMaxScoreOps];
    int32_t score_slot = -1;
    uint64_t workload_mask = ~uint64_t{0};
    uint64_t mode_mask = ~uint64_t{0};
    int32_t set = 0;
    int32_t cap = -1;
    bool gate = false;
    bool context_only = true;  // `when` and `score` read only context facts
    bool early_only = true;    // `when` and `score` read only context and early facts
    bool item_only = true;     // `when` and `score` read only item facts
    bool effect = true;        // can change a score (HasEffect)
    // Unless early_only: the least and the most it may contribute (0 when it does not fire; a
    // score computed from facts is unbounded).
    double least = 0, most = 0;
  };

  // How an evaluation runs the rules of a list (one workload x mode; every rule, or only those
  // with an effect), without a dispatch per rule: the rules are split by the facts they read
  // into three phases (context only; context and early; any), so that a phase whose results
  // are kept is skipped as a whole; for a caller with an ItemMemo, the early phase is split
  // into its item rules (results kept in the memo) and the rest. A phase first works out each
  // distinct one-instruction test of its rules' `when` once, into a bit set, then each rule:
  // `when` is a mask compare of those bits (or its code is run), `score` a constant, a fact and
  // constant operations, or code. Totals are then added up in book order, as one rule at a
  // time would. A phase of the shipped book runs as C++ compiled at build time instead, with
  // the same results (Phase::native, rules/native.h).
  struct Step {
    enum class When : uint8_t { kTests, kCode };
    enum class Score : uint8_t { kConstant, kLeaf, kCode };
    int32_t rule = 0;
    int32_t set = 0;
    When when_kind = When::kTests;
    Score score_kind = Score::kConstant;
    uint8_t score_ops = 0;   // kLeaf: the constant operations, at `ops`
    int32_t when = -1;       // kCode: entry
    int32_t score = -1;      // kLeaf: number fact slot; kCode: entry
    uint64_t need = 0;       // kTests: fires if (bits & need) == want
    uint64_t want = 0;
    double constant = 0;     // kConstant
    const internal::Instr* ops = nullptr;  // into rules_[rule].score_op
  };
  struct Phase {
    static constexpr int kMaxTests = 64;
    std::vector<internal::Instr> tests;  // distinct; a rule with more runs its code
    std::vector<Step> steps;             // book order
    NativePhaseFn native = nullptr;      // this phase compiled to C++, if it was
  };
  enum PhaseIndex { kContextPhase, kEarlyPhase, kLatePhase, kPhases };
  struct Plan {
    Phase phases[kPhases];
    // The early phase split (plans of scored rules): the rules that read only item facts, and
    // the others.
    Phase item_phase, early_rest;
    std::vector<std::pair<int32_t, int32_t>> order;  // (rule, set) of the list, book order
    NativeTotalFn native_total = nullptr;  // Total of `order` compiled to C++, if it was
    std::vector<int32_t> limits;  // the list's rules with a cap or a gate, book order
    // For Bound: per set, the least and the most the late phase may add, and the magnitude of
    // those terms that are finite.
    std::vector<double> least, most, magnitude;
  };
  enum PlanKind { kAllRules, kScoredRules };
  using PhaseFaults = NativeFaults;

  // Evaluates the rules of `phase` into out's fired / contribution / faults_of.
  // If `set_sum` is not null, each rule's contribution is also added to set_sum[its set] and
  // its magnitude to set_magnitude[its set], in step order.
  PhaseFaults RunPhase(const Phase& phase, internal::RunContext* ctx, EvalResult* out,
                       double* set_sum = nullptr, double* set_magnitude = nullptr) const;
  // RunPhase of the context phase, keeping its fault counts in `out` with its results.
  void RunContextPhase(const Plan& plan, internal::RunContext* ctx, EvalResult* out) const;
  // RunPhase of the early phase of `plan`; with `items` (and `item_key` >= 0), its item rules'
  // results are copied from the memo's entry for the key, worked out first (item_phase_) if it
  // has none, and the others run (Plan::early_rest).
  PhaseFaults RunEarlyPhase(const Plan& plan, internal::RunContext* ctx, EvalResult* out,
                            ItemMemo* items, int item_key, double* set_sum = nullptr,
                            double* set_magnitude = nullptr) const;
  // RunEarlyPhase from the memo: out of line, so that the plain path inlines as RunPhase.
  PhaseFaults RunSplitEarlyPhase(const Plan& plan, internal::RunContext* ctx, EvalResult* out,
                                 ItemMemo* items, int item_key, double* set_sum,
                                 double* set_magnitude) const;
  // What a phase's compiled C++ function bakes in (rules/native.h): equal keys, equal results.
  std::string NativeKey(const Phase& phase) const;
  // Calls f(const Phase&) for every phase of the book (each plan's, its split early phase, and
  // item_phase_), empty ones too, plans in index order; makes every plan first.
  template <typename F>
  void ForEachPhase(F f) const {
    MakeAllPlans();
    for (const std::unique_ptr<Plan>& plan : made_) {
      for (const Phase& phase : plan->phases) f(phase);
      f(plan->item_phase);
      f(plan->early_rest);
    }
    f(item_phase_);
  }
  friend std::string EmitNativePhases(const CompiledRules* book);
  friend class PlanMaker;  // compiled_rules.cc: makes a plan from its rules

  // The plan of applicable list `list` (ApplicableList) for `kind`, made on first use: a run
  // needs few of the (workloads + 1) x (modes + 1) lists (`fit`, one mode's), and making all
  // of them was ~10% of a start-up. Thread-safe; after the first use, one atomic load.
  const Plan& PlanFor(PlanKind kind, int list) const {
    const int32_t index = plan_of_[kind][list];
    const Plan* plan = plans_[index].load(std::memory_order_acquire);
    return plan != nullptr ? *plan : MakePlan(index);
  }
  const Plan& MakePlan(int32_t index) const;  // out of line: the first use
  void MakeAllPlans() const;

  // set_total, cap and gate of `plan` from out's per-rule results.
  void Total(const Plan& plan, EvalResult* out) const;

  bool Applicable(const Rule& r, int workload_index, int mode_index) const;
  // Sizes `out` for this book and starts an evaluation for (`list`, `context_key`): true if
  // the context rules' results in `out` are still right (same context, same applicable list,
  // and every rule's if `all`); if not, every rule's result is zeroed (rules that do not apply
  // stay at zero). `all`: the caller evaluates every rule (Evaluate), not only those with an
  // effect.
  bool Begin(EvalResult* out, int list, uint64_t context_key, bool all) const;
  void Adopt(EvalResult* out) const;             // Begin: `out` was another book's, or new
  void Restart(EvalResult* out, bool all) const;  // Begin: no result is reused
  // Index into plan_of_[kind] for a workload and mode (out of range: "none").
  int ApplicableList(int workload_index, int mode_index) const;
  // The context to run the rules of applicable list `list` on `facts` with.
  internal::RunContext Context(const FactValues& facts, int list,
                               internal::RegexMemo* memo) const;

  uint64_t id_;
  std::shared_ptr<const FactSchema> schema_;
  Vocabulary vocab_;
  std::vector<std::string> sets_;
  std::vector<RuleInfo> info_;
  std::vector<Rule> rules_;
  // The distinct plans: lists with the same rules share one. Per plan, its rules (book order),
  // whether a list of scored rules uses it (its early phase is then split, Plan::item_phase),
  // and once made (PlanFor), the plan, published in plans_ and owned by made_.
  std::vector<std::vector<int32_t>> plan_rules_;
  std::vector<char> plan_split_;
  std::unique_ptr<std::atomic<const Plan*>[]> plans_;
  mutable std::vector<std::unique_ptr<Plan>> made_;   // guarded by plan_mu_
  mutable std::mutex plan_mu_;
  // The native functions (CompileOptions::native) by key, and those found for a phase's rules
  // (a phase is made from its rules alone: one key per rule list). Guarded by plan_mu_.
  const NativePhases* native_ = nullptr;
  mutable std::map<absl::string_view, NativePhaseFn> native_by_key_;
  mutable std::map<std::vector<int32_t>, NativePhaseFn> native_by_rules_;
  std::vector<int32_t> plan_of_[2];  // [PlanKind][ApplicableList(w, m)]: index into plan_rules_
  // [ApplicableList(w, m)]: the workload's and the mode's ids (into vocab_; empty for none).
  struct ListNames {
    absl::string_view workload, mode;
  };
  std::vector<ListNames> list_names_;
  std::vector<bool> reads_to_score_;  // [fact index]: ReadsToScore
  std::vector<bool> reads_before_late_;  // [fact index]: ReadsBeforeLate
  std::vector<internal::CompiledTemplate> says_;
  std::vector<RuleBook::Disabled> disabled_;
  internal::Program program_;
  Phase item_phase_;  // every item rule with an effect: what an ItemMemo entry holds
};

// Compiles a merged rule book against `schema`. Every problem goes to `diags` (with
// warnings too if options.warnings). Returns nullptr if there was any error.
std::shared_ptr<const CompiledRules> CompileRules(const RuleBook& book,
                                                  std::shared_ptr<const FactSchema> schema,
                                                  const CompileOptions& options,
                                                  Diagnostics* diags);

// Read + merge + compile (see rule_book.h for the load order). A rule file that cannot be
// read gives its I/O status; content problems go to `diags` and give InvalidArgument
// ("N errors in rule files"). `check_files`, if given, sees the files once read and may add
// errors of its own (a book that allows only some sets). The result is usable only if the
// status is OK.
absl::StatusOr<std::shared_ptr<const CompiledRules>> LoadRules(
    const RuleSources& sources, std::shared_ptr<const FactSchema> schema,
    const CompileOptions& options, Diagnostics* diags,
    const std::function<void(const std::vector<RuleFile>&)>& check_files = {});

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_COMPILED_RULES_H_
