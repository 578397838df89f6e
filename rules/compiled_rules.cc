#include "rules/compiled_rules.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "rules/internal/expr_compiler.h"

namespace fitrank::rules {
namespace {

std::atomic<uint64_t> next_book_id{1};

[[noreturn]] void SchemaMismatch() {
  std::fprintf(stderr,
               "fitrank: CompiledRules::Evaluate: the FactValues were built from another "
               "FactSchema than the rules were compiled against\n");
  std::abort();
}

// Bound's last step, per set: the late phase's range plus what the context and early rules
// gave, widened by 1e-12 of the magnitudes added (rounding: Score adds in another order).
// The arrays never overlap (restrict), so the loop vectorizes.
void BoundSets(size_t sets, const double* __restrict late_least,
               const double* __restrict late_most, const double* __restrict late_magnitude,
               const double* __restrict context_total, const double* __restrict context_magnitude,
               const double* __restrict early_sum, const double* __restrict early_magnitude,
               double* __restrict set_least, double* __restrict set_most) {
  for (size_t s = 0; s < sets; ++s) {
    const double total = context_total[s] + early_sum[s];
    const double widen = 1e-12 * (late_magnitude[s] + context_magnitude[s] + early_magnitude[s]);
    set_least[s] = late_least[s] + total - widen;
    set_most[s] = late_most[s] + total + widen;
  }
}

inline uint64_t Bit(int index) {
  return index >= 0 && index < Vocabulary::kMaxIds ? uint64_t{1} << index : uint64_t{1} << 63;
}

}  // namespace

CompiledRules::CompiledRules() : id_(next_book_id.fetch_add(1)) {}
CompiledRules::~CompiledRules() = default;

int CompiledRules::FindSet(absl::string_view name) const {
  for (size_t i = 0; i < sets_.size(); ++i) {
    if (sets_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int CompiledRules::FindRule(absl::string_view id) const {
  for (size_t i = 0; i < info_.size(); ++i) {
    if (info_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

bool CompiledRules::Applicable(const Rule& r, int workload_index, int mode_index) const {
  return (r.workload_mask & Bit(workload_index)) && (r.mode_mask & Bit(mode_index));
}

internal::RunContext CompiledRules::Context(const FactValues& facts, int list,
                                            internal::RegexMemo* memo) const {
  if (&facts.schema() != schema_.get()) SchemaMismatch();
  internal::RunContext ctx;
  ctx.facts = &facts;
  ctx.memo = memo;
  ctx.workload = list_names_[list].workload;
  ctx.mode = list_names_[list].mode;
  return ctx;
}

int CompiledRules::ApplicableList(int workload_index, int mode_index) const {
  const int nw = static_cast<int>(vocab_.workloads.size());
  const int nm = static_cast<int>(vocab_.modes.size());
  const int w = workload_index >= 0 && workload_index < nw ? workload_index + 1 : 0;
  const int m = mode_index >= 0 && mode_index < nm ? mode_index + 1 : 0;
  return w * (nm + 1) + m;
}

bool CompiledRules::SameBoundRules(int workload_index, int mode_a, int mode_b) const {
  return plan_of_[kScoredRules][ApplicableList(workload_index, mode_a)] ==
         plan_of_[kScoredRules][ApplicableList(workload_index, mode_b)];
}

void CompiledRules::Adopt(EvalResult* out) const {
  const size_t n = rules_.size();
  out->fired.assign(n, 0);
  out->contribution.assign(n, 0);
  out->faults_of.assign(n, 0);
  out->set_total.assign(sets_.size(), 0);
  out->context_total_.assign(sets_.size(), 0);
  out->context_magnitude_.assign(sets_.size(), 0);
  out->memo_.assign(program_.regexes.size() * internal::RegexMemo::kWays, internal::RegexMemo());
  out->book_id_ = id_;
  out->context_key_ = 0;
}

void CompiledRules::Restart(EvalResult* out, bool all) const {
  const size_t n = rules_.size();
  out->partial_ = !all;
  out->context_sums_ = false;
  if (n > 0) {
    std::memset(out->fired.data(), 0, n);
    std::memset(out->contribution.data(), 0, n * sizeof(double));  // all-zero bits are 0.0
    std::memset(out->faults_of.data(), 0, n);
  }
}

// Inline: every Evaluate, Score, Bound and ContextGated starts here, and most reuse the
// context rules' results.
inline bool CompiledRules::Begin(EvalResult* out, int list, uint64_t context_key,
                                 bool all) const {
  if (out->book_id_ != id_) Adopt(out);
  const bool reuse = context_key != 0 && context_key == out->context_key_ && list == out->list_ &&
                     !(all && out->partial_);
  out->context_key_ = context_key;
  out->list_ = list;
  out->bounded_ = false;
  if (!reuse) Restart(out, all);
  return reuse;
}

bool CompiledRules::HasEffect(int rule) const {
  return rule >= 0 && rule < rule_count() && rules_[rule].effect;
}

inline CompiledRules::PhaseFaults CompiledRules::RunPhase(const Phase& phase,
                                                         internal::RunContext* ctx,
                                                         EvalResult* out, double* set_sum,
                                                         double* set_magnitude) const {
  if (phase.native != nullptr) {
    return phase.native(program_, ctx,
                        {out->fired.data(), out->contribution.data(), out->faults_of.data(),
                         set_sum, set_magnitude});
  }
  uint64_t bits = 0;
  const internal::Instr* tests = phase.tests.data();
  const size_t n = phase.tests.size();
  for (size_t t = 0; t < n; ++t) {
    bits |= uint64_t{internal::RunLeafCondition(program_, tests[t], ctx)} << t;
  }
  uint8_t* fired = out->fired.data();
  double* contribution = out->contribution.data();
  uint8_t* faults_of = out->faults_of.data();
  PhaseFaults faults;
  for (const Step& st : phase.steps) {
    if (st.when_kind == Step::When::kTests && st.score_kind == Step::Score::kConstant) {
      const bool f = (bits & st.need) == st.want;  // nothing to fault
      const double c = f ? st.constant : 0.0;
      fired[st.rule] = f;
      contribution[st.rule] = c;
      faults_of[st.rule] = 0;
      if (set_sum != nullptr) {
        set_sum[st.set] += c;
        set_magnitude[st.set] += std::fabs(c);
      }
      continue;
    }
    ctx->faults = 0;
    const bool f = st.when_kind == Step::When::kTests ? (bits & st.need) == st.want
                                                      : internal::Run(program_, st.when, ctx).b;
    double s = 0;
    if (f) {
      switch (st.score_kind) {
        case Step::Score::kConstant:
          s = st.constant;
          break;
        case Step::Score::kLeaf:
          s = ctx->facts->numbers()[st.score];
          for (int k = 0; k < st.score_ops; ++k) {
            s = internal::RunLeafScore(s, st.ops[k], &ctx->faults);
          }
          break;
        case Step::Score::kCode:
          s = internal::Run(program_, st.score, ctx).num;
          break;
      }
    }
    fired[st.rule] = f;
    contribution[st.rule] = s;
    faults_of[st.rule] = ctx->faults;
    if (set_sum != nullptr) {
      set_sum[st.set] += s;
      set_magnitude[st.set] += std::fabs(s);
    }
    if (ctx->faults != 0) {
      ++faults.all;
      if (rules_[st.rule].effect) ++faults.effect;
    }
  }
  return faults;
}

inline void CompiledRules::RunContextPhase(const Plan& plan, internal::RunContext* ctx,
                                           EvalResult* out) const {
  const PhaseFaults f = RunPhase(plan.phases[kContextPhase], ctx, out);
  out->context_faults_ = f.all;
  out->context_effect_faults_ = f.effect;
}

ItemMemo::Entry& ItemMemo::Add(int key, uint64_t book, size_t rules) {
  const size_t first = static_cast<size_t>(key) * kWays;
  if (entries_.size() < first + kWays) entries_.resize(first + kWays);
  Entry* e = &entries_[first];
  for (size_t w = first; w < first + kWays; ++w) {
    if (entries_[w].generation != generation_) {
      e = &entries_[w];
      break;
    }
  }
  e->book = book;
  e->generation = generation_;
  e->result.fired.resize(rules);
  e->result.contribution.resize(rules);
  e->result.faults_of.resize(rules);
  return *e;
}

inline CompiledRules::PhaseFaults CompiledRules::RunEarlyPhase(
    const Plan& plan, internal::RunContext* ctx, EvalResult* out, ItemMemo* items, int item_key,
    double* set_sum, double* set_magnitude) const {
  if (items == nullptr || item_key < 0 || plan.item_phase.steps.empty()) {
    return RunPhase(plan.phases[kEarlyPhase], ctx, out, set_sum, set_magnitude);
  }
  return RunSplitEarlyPhase(plan, ctx, out, items, item_key, set_sum, set_magnitude);
}

CompiledRules::PhaseFaults CompiledRules::RunSplitEarlyPhase(
    const Plan& plan, internal::RunContext* ctx, EvalResult* out, ItemMemo* items, int item_key,
    double* set_sum, double* set_magnitude) const {
  ItemMemo::Entry* entry = items->Find(item_key, id_);
  if (entry == nullptr) {
    entry = &items->Add(item_key, id_, rules_.size());
    RunPhase(item_phase_, ctx, &entry->result);
  }
  const EvalResult& from = entry->result;
  PhaseFaults faults = RunPhase(plan.early_rest, ctx, out, set_sum, set_magnitude);
  // Pointers read once: a store through a byte pointer may alias anything, so the compiler
  // would read each vector's data again after it.
  const uint8_t* from_fired = from.fired.data();
  const double* from_contribution = from.contribution.data();
  const uint8_t* from_faults = from.faults_of.data();
  uint8_t* fired = out->fired.data();
  double* contribution = out->contribution.data();
  uint8_t* faults_of = out->faults_of.data();
  for (const Step& st : plan.item_phase.steps) {
    const int32_t rule = st.rule;
    const double c = from_contribution[rule];
    const uint8_t fault = from_faults[rule];
    fired[rule] = from_fired[rule];
    contribution[rule] = c;
    faults_of[rule] = fault;
    if (set_sum != nullptr) {
      set_sum[st.set] += c;
      set_magnitude[st.set] += std::fabs(c);
    }
    if (fault != 0) {
      ++faults.all;
      if (rules_[rule].effect) ++faults.effect;
    }
  }
  return faults;
}

// A rule that did not fire holds a contribution of +0.0, which changes no total: a total that
// starts at +0.0 is never -0.0 under round-to-nearest, so x + 0 == x.
inline void CompiledRules::Total(const Plan& plan, EvalResult* out) const {
  double* set_total = out->set_total.data();
  std::fill(set_total, set_total + sets_.size(), 0.0);
  const double* contribution = out->contribution.data();
  if (plan.native_total != nullptr) {
    plan.native_total(contribution, set_total);
  } else {
    for (const auto& [rule, set] : plan.order) set_total[set] += contribution[rule];
  }
  out->cap = -1;
  out->cap_rule = -1;
  out->gated = false;
  out->gate_rule = -1;
  for (int32_t i : plan.limits) {
    if (!out->fired[i]) continue;
    const Rule& r = rules_[i];
    if (r.cap > out->cap) {
      out->cap = r.cap;
      out->cap_rule = i;
    }
    if (r.gate && !out->gated) {
      out->gated = true;
      out->gate_rule = i;
    }
  }
}

void CompiledRules::Evaluate(const FactValues& facts, int workload_index, int mode_index,
                             EvalResult* out, uint64_t context_key) const {
  const int list = ApplicableList(workload_index, mode_index);
  const bool reuse = Begin(out, list, context_key, /*all=*/true);
  const Plan& plan = PlanFor(kAllRules, list);
  internal::RunContext ctx = Context(facts, list, out->memo_.data());
  if (!reuse) RunContextPhase(plan, &ctx, out);
  out->faults = out->context_faults_ + RunPhase(plan.phases[kEarlyPhase], &ctx, out).all +
                RunPhase(plan.phases[kLatePhase], &ctx, out).all;
  Total(plan, out);
}

// Skipping the rules without effect changes no total: each would add +0.0 or -0.0 when it
// fires, and a total that starts at +0.0 is never -0.0 under round-to-nearest, so x + 0 == x.
void CompiledRules::Score(const FactValues& facts, int workload_index, int mode_index,
                          EvalResult* out, uint64_t context_key, bool after_bound,
                          ItemMemo* items, int item_key) const {
  const int list = ApplicableList(workload_index, mode_index);
  // After Bound (same list and context): its early rules' results are this candidate's.
  const bool early_done = after_bound && out->bounded_ && out->book_id_ == id_ &&
                          context_key == out->context_key_ && list == out->list_;
  const bool reuse = early_done || Begin(out, list, context_key, /*all=*/false);
  out->bounded_ = false;
  const Plan& plan = PlanFor(kScoredRules, list);
  internal::RunContext ctx = Context(facts, list, out->memo_.data());
  if (!reuse) RunContextPhase(plan, &ctx, out);
  if (!early_done) out->early_faults_ = RunEarlyPhase(plan, &ctx, out, items, item_key).effect;
  out->faults = out->context_effect_faults_ + out->early_faults_ +
                RunPhase(plan.phases[kLatePhase], &ctx, out).effect;
  Total(plan, out);
}

bool CompiledRules::ContextGated(const FactValues& facts, int workload_index, int mode_index,
                                 EvalResult* out, uint64_t context_key) const {
  const int list = ApplicableList(workload_index, mode_index);
  const Plan& plan = PlanFor(kScoredRules, list);
  if (!Begin(out, list, context_key, /*all=*/false)) {
    internal::RunContext ctx = Context(facts, list, out->memo_.data());
    RunContextPhase(plan, &ctx, out);
  }
  for (const Step& st : plan.phases[kContextPhase].steps) {
    if (rules_[st.rule].gate && out->fired[st.rule]) return true;
  }
  return false;
}

void CompiledRules::Bound(const FactValues& facts, int workload_index, int mode_index,
                          EvalResult* out, uint64_t context_key, double* set_least,
                          double* set_most, ItemMemo* items, int item_key) const {
  const int list = ApplicableList(workload_index, mode_index);
  const bool reuse = Begin(out, list, context_key, /*all=*/false);
  const Plan& plan = PlanFor(kScoredRules, list);
  internal::RunContext ctx = Context(facts, list, out->memo_.data());
  const double* contribution = out->contribution.data();
  double* context_total = out->context_total_.data();
  double* context_magnitude = out->context_magnitude_.data();
  const size_t sets = sets_.size();
  if (!(reuse && out->context_sums_)) {
    const Phase& phase = plan.phases[kContextPhase];
    if (!reuse) RunContextPhase(plan, &ctx, out);
    std::fill(context_total, context_total + sets, 0.0);
    std::fill(context_magnitude, context_magnitude + sets, 0.0);
    for (const Step& st : phase.steps) {
      context_total[st.set] += contribution[st.rule];
      context_magnitude[st.set] += std::fabs(contribution[st.rule]);
    }
    out->context_sums_ = true;
  }
  // The early rules' sums and magnitudes per set, added up as they are evaluated.
  double sums[2 * 64];
  std::vector<double> more;  // a book of more than 64 sets (never shipped)
  double* early_sum = sums;
  if (sets > 64) more.resize(2 * sets), early_sum = more.data();
  double* early_magnitude = early_sum + sets;
  std::fill(early_sum, early_sum + 2 * sets, 0.0);
  out->early_faults_ =
      RunEarlyPhase(plan, &ctx, out, items, item_key, early_sum, early_magnitude).effect;
  BoundSets(sets, plan.least.data(), plan.most.data(), plan.magnitude.data(), context_total,
            context_magnitude, early_sum, early_magnitude, set_least, set_most);
  out->bounded_ = true;
}

Explanation CompiledRules::Explain(const FactValues& facts, int workload_index,
                                   int mode_index) const {
  Explanation ex;
  ex.set_total.assign(sets_.size(), 0);
  internal::RunContext ctx =
      Context(facts, ApplicableList(workload_index, mode_index), nullptr);
  for (size_t i = 0; i < rules_.size(); ++i) {
    const Rule& r = rules_[i];
    RuleTrace t;
    t.rule = static_cast<int>(i);
    t.applicable = Applicable(r, workload_index, mode_index);
    if (t.applicable) {
      ctx.faults = 0;
      t.fired = r.when < 0 ? r.when_constant : internal::Run(program_, r.when, &ctx).b;
      if (t.fired) {
        t.contribution =
            r.score < 0 ? r.score_constant : internal::Run(program_, r.score, &ctx).num;
        ex.set_total[r.set] += t.contribution;
        if (r.cap > ex.cap) {
          ex.cap = r.cap;
          ex.cap_rule = t.rule;
        }
        if (r.gate && !ex.gated) {
          ex.gated = true;
          ex.gate_rule = t.rule;
        }
      }
      t.fault = internal::FaultText(ctx.faults);
      if (t.fired && !says_[i].empty()) {
        ctx.score = t.contribution;
        t.sentence = internal::RenderTemplate(says_[i], program_, &ctx);
      }
    }
    ex.rules.push_back(std::move(t));
  }
  return ex;
}

std::string CompiledRules::Say(int rule, const FactValues& facts, int workload_index,
                               int mode_index, double score) const {
  if (rule < 0 || rule >= rule_count() || says_[rule].empty()) return "";
  internal::RunContext ctx =
      Context(facts, ApplicableList(workload_index, mode_index), nullptr);
  ctx.score = score;
  return internal::RenderTemplate(says_[rule], program_, &ctx);
}

// Makes a plan from its rules (CompiledRules::PlanFor) and the book's item phase (at compile
// time): phases, steps and tests, and the native functions of the shipped book
// (CompileOptions::native) for the phases that have one.
class PlanMaker {
 public:
  explicit PlanMaker(const CompiledRules& book) : book_(book) {}

  // The plan of `index`, into plan_rules_.
  std::unique_ptr<CompiledRules::Plan> Make(int32_t index) const {
    auto plan = std::make_unique<CompiledRules::Plan>(PlanOf(book_.plan_rules_[index]));
    if (book_.plan_split_[index]) SplitEarly(book_.plan_rules_[index], plan.get());
    for (CompiledRules::Phase& phase : plan->phases) AttachNative(&phase);
    AttachNative(&plan->item_phase);
    AttachNative(&plan->early_rest);
    // Its totals: the table's function for the same (rule, set) order, if there is one (a few
    // dozen of each; most differ in their length or first pairs).
    const size_t totals = book_.native_ != nullptr ? book_.native_->total_count : 0;
    for (size_t i = 0; i < totals && plan->native_total == nullptr; ++i) {
      const NativeTotal& t = book_.native_->totals[i];
      if (t.size == plan->order.size() &&
          std::equal(plan->order.begin(), plan->order.end(), t.order)) {
        plan->native_total = t.run;
      }
    }
    return plan;
  }

  // A phase with a rule: its compiled C++ function, if its key is in the native table
  // (rules/native.h). Caller holds plan_mu_ (or is the compiler).
  void AttachNative(CompiledRules::Phase* phase) const {
    if (phase->steps.empty() || book_.native_ == nullptr || book_.native_->count == 0) return;
    if (book_.native_by_key_.empty()) {
      for (size_t i = 0; i < book_.native_->count; ++i) {
        const NativePhase& p = book_.native_->phases[i];
        book_.native_by_key_.emplace(absl::string_view(p.key, p.key_size), p.run);
      }
    }
    // A phase is made from its rules alone (AddStep, in order): phases of the same rules are
    // the same, and are keyed once.
    std::vector<int32_t> rules;
    for (const CompiledRules::Step& st : phase->steps) rules.push_back(st.rule);
    auto [known, added] = book_.native_by_rules_.emplace(std::move(rules), nullptr);
    if (added) {
      auto it = book_.native_by_key_.find(book_.NativeKey(*phase));
      if (it != book_.native_by_key_.end()) known->second = it->second;
    }
    phase->native = known->second;
  }

  // The early phase's rules: not context only, reading only context and early facts; of those,
  // the item rules read only item facts.
  static bool IsEarly(const CompiledRules::Rule& r) { return !r.context_only && r.early_only; }
  static bool IsItem(const CompiledRules::Rule& r) { return IsEarly(r) && r.item_only; }

  // Plan::item_phase and early_rest of `plan`, the plan of `rules`.
  void SplitEarly(const std::vector<int32_t>& rules, CompiledRules::Plan* plan) const {
    for (int32_t i : rules) {
      const CompiledRules::Rule& r = book_.rules_[i];
      if (IsEarly(r)) AddStep(i, IsItem(r) ? &plan->item_phase : &plan->early_rest);
    }
  }

  // The plan of the rules `rules` (book order).
  CompiledRules::Plan PlanOf(const std::vector<int32_t>& rules) const {
    CompiledRules::Plan plan;
    const size_t sets = book_.sets_.size();
    plan.least.assign(sets, 0);
    plan.most.assign(sets, 0);
    plan.magnitude.assign(sets, 0);
    auto phase_of = [](const CompiledRules::Rule& r) {
      return r.context_only ? CompiledRules::kContextPhase
             : IsEarly(r)   ? CompiledRules::kEarlyPhase
                            : CompiledRules::kLatePhase;
    };
    size_t steps[CompiledRules::kPhases] = {0, 0, 0};
    for (int32_t i : rules) ++steps[phase_of(book_.rules_[i])];
    for (int p = 0; p < CompiledRules::kPhases; ++p) plan.phases[p].steps.reserve(steps[p]);
    plan.order.reserve(rules.size());
    for (int32_t i : rules) {
      const CompiledRules::Rule& r = book_.rules_[i];
      plan.order.push_back({i, r.set});
      if (r.cap >= 0 || r.gate) plan.limits.push_back(i);
      const int phase_index = phase_of(r);
      AddStep(i, &plan.phases[phase_index]);
      if (phase_index == CompiledRules::kLatePhase) {
        plan.least[r.set] += r.least;
        plan.most[r.set] += r.most;
        for (double x : {r.least, r.most}) {
          if (std::isfinite(x)) plan.magnitude[r.set] += std::fabs(x);
        }
      }
    }
    return plan;
  }

  // Appends rule `i`'s step to `phase`, its tests to the phase's.
  void AddStep(int32_t i, CompiledRules::Phase* phase) const {
    using Step = CompiledRules::Step;
    const CompiledRules::Rule& r = book_.rules_[i];
    Step st;
    st.rule = i;
    st.set = r.set;
    if (r.when < 0) {  // constant: never (bits & 0) == 1
      st.want = r.when_constant ? 0 : 1;
    } else if (r.when_tests.empty() || !AddTests(r, phase, &st)) {
      st.when_kind = Step::When::kCode;
      st.when = r.when;
    }
    if (r.score < 0) {
      st.constant = r.score_constant;
    } else if (r.score_is_leaf) {
      st.score_kind = Step::Score::kLeaf;
      st.score = r.score_slot;
      st.score_ops = r.score_ops;
      st.ops = r.score_op;
    } else {
      st.score_kind = Step::Score::kCode;
      st.score = r.score;
    }
    phase->steps.push_back(st);
  }

  // Adds the tests of `r`'s `when` to `phase` (those it does not have yet) and sets `st`'s
  // masks. False, changing nothing, if the phase would have more than Phase::kMaxTests.
  static bool AddTests(const CompiledRules::Rule& r, CompiledRules::Phase* phase,
                       CompiledRules::Step* st) {
    auto same = [](const internal::Instr& x, const internal::Instr& y) {
      return x.op == y.op && x.a == y.a && x.b == y.b &&
             std::memcmp(&x.k, &y.k, sizeof(x.k)) == 0;
    };
    std::vector<internal::Instr>& tests = phase->tests;
    const size_t before = tests.size();
    uint64_t need = 0, want = 0;
    bool never = false;
    for (const CompiledRules::Rule::Test& test : r.when_tests) {
      size_t t = 0;
      while (t < tests.size() && !same(tests[t], test.instr)) ++t;
      if (t == tests.size()) {
        if (t == CompiledRules::Phase::kMaxTests) {
          tests.resize(before);
          return false;
        }
        tests.push_back(test.instr);
      }
      const uint64_t bit = uint64_t{1} << t;
      const uint64_t value = test.negated ? 0 : bit;
      if ((need & bit) != 0 && (want & bit) != value) never = true;  // `x and not x`
      need |= bit;
      want |= value;
    }
    st->need = never ? 0 : need;
    st->want = never ? 1 : want;
    return true;
  }

 private:
  const CompiledRules& book_;
};

const CompiledRules::Plan& CompiledRules::MakePlan(int32_t index) const {
  std::lock_guard<std::mutex> lock(plan_mu_);
  if (const Plan* plan = plans_[index].load(std::memory_order_relaxed)) return *plan;
  made_[index] = PlanMaker(*this).Make(index);
  plans_[index].store(made_[index].get(), std::memory_order_release);
  return *made_[index];
}

void CompiledRules::MakeAllPlans() const {
  for (int32_t i = 0; i < plan_count(); ++i) {
    if (plans_[i].load(std::memory_order_acquire) == nullptr) MakePlan(i);
  }
}

int CompiledRules::phases_with_rules() const {
  int n = 0;
  ForEachPhase([&](const Phase& phase) { n += phase.steps.empty() ? 0 : 1; });
  return n;
}

int CompiledRules::native_phases() const {
  int n = 0;
  ForEachPhase([&](const Phase& phase) { n += phase.native != nullptr ? 1 : 0; });
  return n;
}

int CompiledRules::native_totals() const {
  MakeAllPlans();
  int n = 0;
  for (const std::unique_ptr<Plan>& plan : made_) n += plan->native_total != nullptr ? 1 : 0;
  return n;
}

// Compiles a merged book; a friend of CompiledRules.
class RulesCompiler {
 public:
  RulesCompiler(const RuleBook& book, std::shared_ptr<const FactSchema> schema,
           const CompileOptions& options, Diagnostics* diags)
      : book_(book), options_(options), diags_(diags), out_(new CompiledRules()) {
    out_->schema_ = std::move(schema);
    out_->vocab_ = options.vocab;
    out_->sets_ = options.vocab.sets;
    out_->disabled_ = book.disabled;
  }

  std::shared_ptr<const CompiledRules> Run() {
    const int errors_before = diags_->error_count();
    CheckVocabulary();
    internal::ExprCompiler compiler(*out_->schema_, out_->vocab_, &out_->program_);
    for (const RuleDef& d : book_.rules) CompileRule(d, &compiler);
    if (diags_->error_count() > errors_before) return nullptr;
    ListApplicable();
    return std::shared_ptr<const CompiledRules>(out_.release());
  }

 private:
  // The applicable lists: for "no workload" (-1) and every workload, times "no mode" and every
  // mode, the rules that apply (all of them, and only those with an effect); lists with the
  // same rules share one plan, made on first use (CompiledRules::PlanFor). And item_phase_,
  // from every rule with an effect.
  void ListApplicable() {
    const int nw = static_cast<int>(out_->vocab_.workloads.size());
    const int nm = static_cast<int>(out_->vocab_.modes.size());
    std::map<std::vector<int32_t>, int32_t> planned;
    for (auto kind : {CompiledRules::kAllRules, CompiledRules::kScoredRules}) {
      out_->plan_of_[kind].assign((nw + 1) * (nm + 1), 0);
      out_->list_names_.resize((nw + 1) * (nm + 1));
      for (int w = -1; w < nw; ++w) {
        for (int m = -1; m < nm; ++m) {
          std::vector<int32_t> rules;
          rules.reserve(out_->rules_.size());
          for (size_t i = 0; i < out_->rules_.size(); ++i) {
            const CompiledRules::Rule& r = out_->rules_[i];
            if (out_->Applicable(r, w, m) && (kind == CompiledRules::kAllRules || r.effect)) {
              rules.push_back(static_cast<int32_t>(i));
            }
          }
          auto [it, added] =
              planned.emplace(rules, static_cast<int32_t>(out_->plan_rules_.size()));
          if (added) {
            out_->plan_rules_.push_back(std::move(rules));
            out_->plan_split_.push_back(0);
          }
          // Only Score and Bound, which run the scored rules, take an ItemMemo.
          if (kind == CompiledRules::kScoredRules) out_->plan_split_[it->second] = 1;
          const int list = out_->ApplicableList(w, m);
          out_->plan_of_[kind][list] = it->second;
          out_->list_names_[list] = {w >= 0 ? out_->vocab_.workloads[w].id : absl::string_view(),
                                     m >= 0 ? out_->vocab_.modes[m].id : absl::string_view()};
        }
      }
    }
    const size_t plans = out_->plan_rules_.size();
    out_->plans_ = std::make_unique<std::atomic<const CompiledRules::Plan*>[]>(plans);  // null
    out_->made_.resize(plans);
    out_->native_ = options_.native;
    PlanMaker maker(*out_);
    for (size_t i = 0; i < out_->rules_.size(); ++i) {
      const CompiledRules::Rule& r = out_->rules_[i];
      if (r.effect && PlanMaker::IsItem(r)) maker.AddStep(static_cast<int32_t>(i), &out_->item_phase_);
    }
    maker.AttachNative(&out_->item_phase_);
  }

  // `r`'s `when` or `score` reads the facts `reads`: for ReadsToScore, and whether the rule
  // reads only context facts, or only context and early ones.
  void NoteReads(const std::vector<int32_t>& reads, CompiledRules::Rule* r) {
    const std::vector<FactDecl>& facts = out_->schema_->facts();
    std::vector<bool>& marked = out_->reads_to_score_;
    marked.resize(facts.size());
    for (int32_t i : reads) {
      marked[i] = true;
      r->context_only = r->context_only && facts[i].context;
      r->early_only = r->early_only && (facts[i].context || facts[i].early);
      r->item_only = r->item_only && facts[i].item;
    }
  }

  void Warn(std::string code, const Location& where, std::string message, std::string hint = "") {
    if (options_.warnings) diags_->Warning(std::move(code), where, std::move(message), std::move(hint));
  }

  void CheckVocabulary() {
    const Vocabulary& v = options_.vocab;
    if (static_cast<int>(v.workloads.size()) > Vocabulary::kMaxIds ||
        static_cast<int>(v.modes.size()) > Vocabulary::kMaxIds) {
      diags_->Error("too-many-ids", Location{},
                    absl::StrCat("at most ", Vocabulary::kMaxIds, " workloads and modes are supported"));
    }
  }

  void Report(const SourceText& src, const std::vector<ExprError>& errors) {
    for (const ExprError& e : errors) {
      Location at = src.At(e.offset);
      if (e.warning) {
        Warn(e.code, at, e.message, e.hint);
      } else {
        diags_->Error(e.code, at, e.message, e.hint);
      }
    }
  }

  // Compiles `when` or `score`. Returns false on errors.
  bool Expr(const SourceText& src, Type type, absl::string_view role,
            internal::ExprCompiler* compiler, internal::CompiledExpr* out) {
    ParseResult parsed = ParseExpression(src.text, options_.limits);
    if (!parsed.ok()) {
      Report(src, {*parsed.error});
      return false;
    }
    std::vector<ExprError> errors;
    *out = compiler->Compile(src.text, parsed.ast, type, role, false, &errors);
    Report(src, errors);
    return out->ok;
  }

  uint64_t Mask(const std::optional<std::vector<Word>>& words, const std::vector<NamedId>& ids,
                absl::string_view what, const Location& where, const RuleDef& d,
                std::vector<int>* indexes) {
    if (!words) return ~uint64_t{0};
    uint64_t mask = 0;
    if (words->empty()) {
      Warn("unreachable", where,
           absl::StrCat("rule `", d.id, "` can never fire: its `", what, "s` list is empty"),
           absl::StrCat("remove `", what, "s` to apply it to every ", what));
      return 0;
    }
    for (const Word& w : *words) {
      int i = Vocabulary::Find(ids, w.value);
      if (i < 0 || i >= Vocabulary::kMaxIds) {
        std::vector<std::string> names = Vocabulary::AllNames(ids);
        std::string hint = DidYouMean(ClosestMatches(w.value, names, 1));
        if (hint.empty()) {
          hint = names.empty() ? absl::StrCat("no ", what, "s are defined")
                               : absl::StrCat("one of ", QuotedList(names));
        }
        diags_->Error(absl::StrCat("unknown-", what), w.where,
                      absl::StrCat("unknown ", what, " `", w.value, "`"), hint);
        continue;
      }
      mask |= uint64_t{1} << i;
      if (std::find(indexes->begin(), indexes->end(), i) == indexes->end()) indexes->push_back(i);
    }
    return mask;
  }

  // If the code at `entry` is `T1 [Not] (JumpIfFalse T2 [Not])* End` with every Ti a
  // one-instruction test and every jump landing on a later jump of the chain or on End, it is
  // the conjunction T1 and T2 and ...: a jump taken keeps false on the stack to the end. (A
  // jump landing elsewhere is another shape: `not (T1 and T2)` jumps to the Not.) Evaluations
  // then work the tests out once per phase.
  void LeafConjunction(int32_t entry, CompiledRules::Rule* r) {
    using internal::OpCode;
    const std::vector<internal::Instr>& code = out_->program_.code;
    std::vector<CompiledRules::Rule::Test> tests;
    std::vector<int32_t> jumps;  // positions of the chain's JumpIfFalse
    int32_t pc = entry;
    while (true) {
      if (!internal::IsLeafCondition(code[pc].op)) return;
      tests.push_back({code[pc++]});
      if (code[pc].op == OpCode::kNot) {
        tests.back().negated = true;
        ++pc;
      }
      if (code[pc].op == OpCode::kEnd) break;
      if (code[pc].op != OpCode::kJumpIfFalse) return;
      jumps.push_back(pc++);
    }
    for (int32_t j : jumps) {
      const int32_t target = code[j].a;
      const bool later_jump =
          target > j && std::find(jumps.begin(), jumps.end(), target) != jumps.end();
      if (target != pc && !later_jump) return;
    }
    r->when_tests = std::move(tests);
  }

  // If the code at `entry` is `LoadNum (OpK)* End` with at most kMaxScoreOps constant
  // operations, Evaluate() runs it inline.
  void LeafScore(int32_t entry, CompiledRules::Rule* r) {
    using internal::OpCode;
    const std::vector<internal::Instr>& code = out_->program_.code;
    if (code[entry].op != OpCode::kLoadNum) return;
    size_t pc = entry + 1;
    int ops = 0;
    while (code[pc].op != OpCode::kEnd) {
      if (!internal::IsLeafScoreOp(code[pc].op) || ops == CompiledRules::Rule::kMaxScoreOps) {
        return;
      }
      r->score_op[ops++] = code[pc++];
    }
    r->score_is_leaf = true;
    r->score_ops = static_cast<uint8_t>(ops);
    r->score_slot = code[entry].a;
  }

  void CompileRule(const RuleDef& d, internal::ExprCompiler* compiler) {
    RuleInfo info;
    info.id = d.id;
    info.set = d.set;
    info.desc = d.desc;
    info.file = d.file;
    info.where = d.where;
    info.local = d.local;
    info.overridden = !d.overridden_at.empty();
    info.when_text = d.when ? d.when->text : "";
    info.score_text = d.score ? d.score->text : "";
    info.say_text = d.say ? d.say->text : "";
    info.gate = d.gate;
    info.gate_reason = d.gate_reason;
    info.advice = d.advice;
    info.tags = d.tags;

    CompiledRules::Rule r;
    // Set.
    int set = out_->FindSet(d.set);
    if (set < 0) {
      if (!options_.vocab.sets.empty() && warned_sets_.insert(d.set + "\n" + d.file).second) {
        std::string hint = DidYouMean(ClosestMatches(d.set, options_.vocab.sets, 1));
        if (hint.empty()) {
          hint = "a new set scores nothing until a profile gives it a weight";
        }
        Warn("unknown-set", d.set_where, absl::StrCat("unknown rule set `", d.set, "`"), hint);
      }
      out_->sets_.push_back(d.set);
      set = static_cast<int>(out_->sets_.size() - 1);
    }
    r.set = set;
    info.set_index = set;
    // Cap.
    if (!d.cap.empty()) {
      const std::vector<std::string>& grades = options_.vocab.grades;
      auto it = std::find(grades.begin(), grades.end(), d.cap);
      if (it == grades.end()) {
        std::string hint = absl::StrCat("one of ", QuotedList(grades), ", best first");
        diags_->Error("unknown-grade", d.cap_where,
                      absl::StrCat("`cap` must be a grade letter, not `", d.cap, "`"), hint);
      } else {
        r.cap = static_cast<int32_t>(it - grades.begin());
        info.cap = r.cap;
      }
    }
    r.gate = d.gate;
    // Applicability.
    r.workload_mask =
        Mask(d.workloads, options_.vocab.workloads, "workload", d.workloads_where, d, &info.workloads);
    r.mode_mask = Mask(d.modes, options_.vocab.modes, "mode", d.modes_where, d, &info.modes);
    // Expressions.
    std::vector<int32_t> reads;  // of `when` and `score`
    if (d.when) {
      internal::CompiledExpr e;
      if (Expr(*d.when, Type::kBool, "`when`", compiler, &e)) {
        if (e.constant) {
          r.when_constant = e.constant->b;
          if (!e.constant->b) {
            Warn("unreachable", d.when->origin.Start(),
                 absl::StrCat("rule `", d.id, "` can never fire: its `when` is always false"));
          }
        } else {
          r.when = e.entry;
          NoteReads(e.reads, &r);
          reads.insert(reads.end(), e.reads.begin(), e.reads.end());
          LeafConjunction(e.entry, &r);
        }
      }
    }
    bool score_zero = true;
    if (d.score) {
      internal::CompiledExpr e;
      if (Expr(*d.score, Type::kNumber, "`score`", compiler, &e)) {
        if (e.constant) {
          r.score_constant = e.constant->num;
          score_zero = e.constant->num == 0;
        } else {
          r.score = e.entry;
          NoteReads(e.reads, &r);
          reads.insert(reads.end(), e.reads.begin(), e.reads.end());
          score_zero = false;
          LeafScore(e.entry, &r);
        }
      }
    }
    r.effect = r.score >= 0 || r.score_constant != 0 || r.cap >= 0 || r.gate;
    if (r.effect && r.early_only) {  // Bound evaluates it (ReadsBeforeLate)
      std::vector<bool>& before_late = out_->reads_before_late_;
      before_late.resize(out_->schema_->facts().size());
      for (int32_t i : reads) before_late[i] = true;
    }
    // What it may contribute when its facts are not known (Bound).
    if (r.score < 0) {
      r.least = std::min(0.0, r.score_constant);
      r.most = std::max(0.0, r.score_constant);
    } else {
      r.least = -std::numeric_limits<double>::infinity();
      r.most = std::numeric_limits<double>::infinity();
    }
    // Sentence.
    internal::CompiledTemplate say;
    if (d.say) {
      std::vector<ExprError> errors;
      internal::CompileTemplate(d.say->text, compiler, options_.limits, &say, &errors);
      Report(*d.say, errors);
    } else {
      Warn("missing-say", d.where, absl::StrCat("rule `", d.id, "` has no `say` sentence"),
           "explain shows this sentence when the rule fires: add `say: \"...\"`");
    }
    if (d.desc.empty()) {
      Warn("missing-desc", d.where, absl::StrCat("rule `", d.id, "` has no `desc`"),
           "add a one-line `desc:` saying what the rule is for");
    }
    if (score_zero && r.cap < 0 && !r.gate && !d.say) {
      Warn("no-effect", d.where,
           absl::StrCat("rule `", d.id, "` has no effect: no score, cap, gate or sentence"));
    }
    out_->rules_.push_back(r);
    out_->info_.push_back(std::move(info));
    out_->says_.push_back(std::move(say));
  }

  const RuleBook& book_;
  const CompileOptions& options_;
  Diagnostics* diags_;
  std::unique_ptr<CompiledRules> out_;
  std::set<std::string> warned_sets_;
};

std::shared_ptr<const CompiledRules> CompileRules(const RuleBook& book,
                                                  std::shared_ptr<const FactSchema> schema,
                                                  const CompileOptions& options,
                                                  Diagnostics* diags) {
  return RulesCompiler(book, std::move(schema), options, diags).Run();
}

absl::StatusOr<std::shared_ptr<const CompiledRules>> LoadRules(
    const RuleSources& sources, std::shared_ptr<const FactSchema> schema,
    const CompileOptions& options, Diagnostics* diags,
    const std::function<void(const std::vector<RuleFile>&)>& check_files) {
  const int errors_before = diags->error_count();
  absl::StatusOr<std::vector<RuleFile>> files = ReadRuleFiles(sources, diags);
  if (!files.ok()) return files.status();
  if (check_files) check_files(*files);
  RuleBook book = MergeRuleFiles(*std::move(files), diags);
  std::shared_ptr<const CompiledRules> compiled =
      CompileRules(book, std::move(schema), options, diags);
  const int errors = diags->error_count() - errors_before;
  if (errors > 0 || compiled == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(errors, errors == 1 ? " error" : " errors", " in rule files"));
  }
  return compiled;
}

}  // namespace fitrank::rules
