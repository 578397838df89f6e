#include "engine/scoring/evaluate.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <set>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "base/thread.h"
#include "catalog/release_month.h"

namespace fitrank {
namespace {

bool Contains(const std::vector<std::string>& list, absl::string_view x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

std::atomic<uint64_t> g_query_serial{0};

}  // namespace

rules::Vocabulary VocabularyOf(const Profiles& profiles) {
  rules::Vocabulary v;
  for (const Workload& w : profiles.workloads()) v.workloads.push_back({w.id, w.aliases});
  for (const Mode& m : profiles.modes()) v.modes.push_back({m.id, m.aliases});
  for (const std::string& s : profiles.grades().reason_order) v.sets.push_back(s);
  for (const std::string& s : profiles.SetNames()) {
    if (!Contains(v.sets, s)) v.sets.push_back(s);
  }
  v.grades.clear();
  for (const Grade& g : profiles.grades().grades) v.grades.push_back(g.letter);
  return v;
}

absl::StatusOr<ScoringRules> LoadScoringRules(const FileSource& shipped, const FileSource* local,
                                              const Profiles& profiles, bool warnings,
                                              Diagnostics* diags, absl::string_view shipped_dir,
                                              const rules::NativePhases* native) {
  ScoringRules out;
  out.schema = std::make_shared<rules::FactSchema>();
  out.facts = std::make_shared<const Facts>(out.schema.get(), profiles.grades().quality_ranking_z);
  rules::CompileOptions options;
  options.vocab = VocabularyOf(profiles);
  options.warnings = warnings;
  options.native = native;
  rules::RuleSources sources;
  sources.shipped = &shipped;
  sources.shipped_dir = std::string(shipped_dir);
  sources.local = local;
  absl::StatusOr<std::shared_ptr<const rules::CompiledRules>> book =
      rules::LoadRules(sources, out.schema, options, diags);
  if (!book.ok()) return book.status();
  out.rules = *std::move(book);
  return out;
}

Evaluator::Evaluator(const Catalog& catalog, const Estimator& estimator, const Profiles& profiles,
                     ScoringRules rules)
    : catalog_(catalog), estimator_(estimator), profiles_(profiles), rules_(std::move(rules)) {
  for (const Model& m : catalog_.models()) {
    newest_release_month_ = std::max(newest_release_month_, m.release_month);
  }
  const size_t nm = catalog_.models().size();
  texts_ = std::make_unique<std::atomic<const ModelWorkloadText*>[]>(
      profiles_.workloads().size() * nm);
  const std::vector<std::string>& order = profiles_.grades().reason_order;
  for (int s = 0; s < rules_.rules->set_count(); ++s) {
    auto it = std::find(order.begin(), order.end(), rules_.rules->sets()[s]);
    reason_rank_.push_back(it != order.end() ? static_cast<int>(it - order.begin())
                                             : static_cast<int>(order.size()) + s);
  }
  scored_rows_ = rules_.facts->RowsReadBy(*rules_.rules);
}

Evaluator::~Evaluator() {
  const size_t n = profiles_.workloads().size() * catalog_.models().size();
  for (size_t i = 0; i < n; ++i) delete texts_[i].load(std::memory_order_acquire);
}

absl::StatusOr<std::unique_ptr<Query>> Evaluator::Prepare(const Setup& setup,
                                                          const Workload& workload,
                                                          const Mode& mode) const {
  auto q = std::make_unique<Query>();
  q->serial = ++g_query_serial;
  q->evaluator = this;
  q->workload = &workload;
  q->mode = &mode;
  q->shape = ShapeFor(workload, mode);
  q->workload_index = rules_.rules->vocabulary().FindWorkload(workload.id);
  q->mode_index = rules_.rules->vocabulary().FindMode(mode.id);
  q->weights = WeightsFor(*rules_.rules, workload, mode);

  std::vector<Setup> setups;
  const bool single = setup.devices.size() == 1 && setup.device_count == 1;
  if (!mode.gpu_counts.empty() && single) {
    SetupOptions options;
    options.host_ram_gb = setup.host_ram_gb;
    options.host_bandwidth_gbps = setup.host_bandwidth_gbps;
    if (!mode.parallelism.empty()) {
      options.parallelism = mode.parallelism == "tensor" ? Parallelism::kTensor : Parallelism::kLayer;
    }
    options.interconnects = &catalog_.interconnects();
    for (int n : mode.gpu_counts) {
      absl::StatusOr<Setup> s = BuildSetup(estimator_, {{setup.devices[0].gpu, n}}, options);
      if (!s.ok()) {
        // A GPU that cannot be combined (unified memory, APUs): scale-out is this one GPU.
        setups.clear();
        setups.push_back(setup);
        break;
      }
      setups.push_back(*std::move(s));
    }
  } else {
    setups.push_back(setup);
    if (!mode.parallelism.empty() && setup.device_count > 1 && setup.parallelism_defaulted) {
      setups.back().parallelism =
          mode.parallelism == "tensor" ? Parallelism::kTensor : Parallelism::kLayer;
      setups.back().parallelism_defaulted = false;
    }
  }

  for (Setup& s : setups) {
    SetupVariant v;
    v.setup = std::make_unique<Setup>(std::move(s));
    const Setup& su = *v.setup;
    v.facts = std::make_unique<SetupSubject>(catalog_, estimator_, su);
    const bool tensor = su.device_count > 1 && !su.parallelism_defaulted &&
                        su.parallelism == Parallelism::kTensor;
    for (const Quant& quant : catalog_.quants()) {
      QuantPlan plan;
      plan.quant = &quant;
      if (mode.serving_runtime) {
        for (const std::string& id : quant.runtimes) {
          const Runtime* r = catalog_.RuntimeById(id);
          if (r == nullptr || !r->serving) continue;
          if (tensor && !Contains(r->parallelism, "tensor")) continue;
          if (estimator_.CheckCombination(su, &quant, r) != 0) continue;
          plan.runtime = r;
          break;
        }
      }
      if (plan.runtime == nullptr) plan.runtime = estimator_.DefaultRuntime(catalog_, su, &quant);
      plan.backend = estimator_.DefaultBackend(plan.runtime, *su.devices[0].gpu);
      plan.problems = estimator_.CheckCombination(su, &quant, plan.runtime, plan.backend);
      EstimateInput names_of;
      names_of.setup = &su;
      names_of.quant = &quant;
      names_of.runtime = plan.runtime;
      names_of.backend = plan.backend;
      plan.names = estimator_.ResolveNames(names_of);
      if (plan.runtime == nullptr) plan.problems |= kProblemRuntimeNotOnPlatform;
      plan.serving = plan.runtime != nullptr && plan.runtime->serving;
      plan.kv_fallback = estimator_.FallbackKvCache(plan.runtime);
      v.plans.push_back(plan);
    }
    q->variants.push_back(std::move(v));
  }
  // Quantizations Rank() estimates: those some runtime runs on some setup of the query,
  // grouped by the runtime of a single setup and sorted by bits per weight (the order they are
  // estimated in); with several setups (scale-out) each stands alone.
  const int nq = static_cast<int>(catalog_.quants().size());
  const std::vector<std::string>& pick = profiles_.grades().pick_quants;
  std::vector<int> runnable;
  for (int i = 0; i < nq; ++i) {
    if (!pick.empty() && !Contains(pick, catalog_.quants()[i].id)) continue;
    for (const SetupVariant& v : q->variants) {
      if (v.plans[i].runs()) {
        runnable.push_back(i);
        break;
      }
    }
  }
  if (q->variants.size() == 1) {
    const std::vector<QuantPlan>& plans = q->variants[0].plans;
    std::vector<const Runtime*> runtimes;
    for (int i : runnable) {
      auto it = std::find(runtimes.begin(), runtimes.end(), plans[i].runtime);
      if (it == runtimes.end()) {
        runtimes.push_back(plans[i].runtime);
        q->rank_groups.emplace_back();
        it = runtimes.end() - 1;
      }
      q->rank_groups[it - runtimes.begin()].push_back(i);
    }
    for (std::vector<int>& g : q->rank_groups) {
      std::stable_sort(g.begin(), g.end(), [&](int a, int b) {
        return catalog_.quants()[a].bpw < catalog_.quants()[b].bpw;
      });
    }
  } else {
    for (int i : runnable) q->rank_groups.push_back({i});
  }
  return q;
}

std::unique_ptr<Query> Evaluator::PrepareLike(const Query& like, const Workload& workload) const {
  auto q = std::make_unique<Query>();
  // As Prepare: what depends on the workload.
  q->serial = ++g_query_serial;
  q->evaluator = this;
  q->workload = &workload;
  q->mode = like.mode;
  q->shape = ShapeFor(workload, *like.mode);
  q->workload_index = rules_.rules->vocabulary().FindWorkload(workload.id);
  q->mode_index = like.mode_index;
  q->weights = WeightsFor(*rules_.rules, workload, *like.mode);
  // Copied: the setups (at new addresses, their facts pointing at them) and plans.
  q->variants.reserve(like.variants.size());
  for (const SetupVariant& from : like.variants) {
    SetupVariant v;
    v.setup = std::make_unique<Setup>(*from.setup);
    v.facts = std::make_unique<SetupSubject>(*from.facts);
    v.facts->setup = v.setup.get();
    v.plans = from.plans;
    q->variants.push_back(std::move(v));
  }
  q->rank_groups = like.rank_groups;
  return q;
}

const ModelWorkloadText& Evaluator::TextFor(const Query& q, const Model& model,
                                            Scratch* s) const {
  const size_t w = q.workload - profiles_.workloads().data();
  const Model* first = catalog_.models().data();
  const size_t nm = catalog_.models().size();
  if (w < profiles_.workloads().size() && &model >= first && &model < first + nm) {
    // Described on first use and kept: `fit` asks about one model, and the
    // catalog x workloads (over 2,000 descriptions) would be most of an evaluator's start-up.
    std::atomic<const ModelWorkloadText*>& slot = texts_[w * nm + (&model - first)];
    const ModelWorkloadText* text = slot.load(std::memory_order_acquire);
    if (text == nullptr) {
      auto made = std::make_unique<const ModelWorkloadText>(
          DescribeCapabilities(model, profiles_.workloads()[w], profiles_));
      if (slot.compare_exchange_strong(text, made.get(), std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
        text = made.release();
      }  // else another thread published the same description first: `text` is it
    }
    return *text;
  }
  s->own_text = DescribeCapabilities(model, *q.workload, profiles_);  // not a catalog model
  return s->own_text;
}

// The sizings of one model (Estimator::Size), by quantization, for the setups of the queries
// RankGroups ranks; cleared model by model. Entries are reused, so sizing needs no allocation
// once the cache has grown.
class Evaluator::SizingCache {
 public:
  // `setups`: the setups sized on, by setup id.
  SizingCache(const Catalog& catalog, const std::vector<const Setup*>& setups, size_t quants)
      : catalog_(catalog), quants_(quants), slots_(setups.size() * quants),
        other_counts_(setups.size()) {
    for (size_t a = 0; a < setups.size(); ++a) {
      for (size_t b = 0; b < setups.size(); ++b) {
        if (SameGpuOtherCount(*setups[a], *setups[b])) {
          other_counts_[a].push_back(static_cast<int>(b));
        }
      }
    }
  }
  void Clear() {
    for (Slot& s : slots_) s.used = 0;
  }
  // The sizing of `in` (for the cache's model and catalog quant `quant_index`) on the setup
  // named `setup_id`. The reference stays valid until Clear.
  const Sizing& Get(const Estimator& estimator, int setup_id, int quant_index,
                    const EstimateInput& in) {
    Slot& slot = slots_[setup_id * quants_ + quant_index];
    const Key key = KeyOf(in);
    // Newest first: a candidate's retries (batch, KV cache type) and the next group of the
    // same context ask for what was added last.
    for (size_t i = slot.used; i-- > 0;) {
      if (slot.keys[i] == key) return slot.sizings[i];
    }
    return Add(estimator, setup_id, quant_index, key, in);
  }

 private:
  struct Key;
  struct Slot;
  // Sizes `in` into a new entry of `slot` under `key`. Kept out of line: the search above is
  // what every lookup runs.
  ABSL_ATTRIBUTE_NOINLINE const Sizing& Add(const Estimator& estimator, int setup_id,
                                            int quant_index, const Key& key,
                                            const EstimateInput& in) {
    Slot& slot = slots_[setup_id * quants_ + quant_index];
    // A sizing of the same runtime, bits per weight and backend at other lengths, batch or KV
    // cache type is a start (Estimator::SizeLike); best with the same KV cache type and batch,
    // whose safe context it keeps (a search spared), then with the same KV cache type. Else
    // one on another count of the same GPU (scale-out's 2, 4 and 8, and the one GPU of the
    // other modes): it keeps the model's shape and the constants, not the safe context.
    const Sizing* like = nullptr;
    int rank = 0;  // of `like`: 1 same backend, 2 and KV cache type, 3 and batch
    auto find = [&](const Slot& from) {
      for (size_t i = 0; i < from.used && rank < 3; ++i) {
        const Key& k = from.keys[i];
        if (k.runtime != key.runtime || k.bpw_bits != key.bpw_bits ||
            k.kinds >> 8 != key.kinds >> 8) {
          continue;
        }
        const int r = k.kinds != key.kinds ? 1 : k.batch() != key.batch() ? 2 : 3;
        if (r > rank) like = &from.sizings[i], rank = r;
      }
    };
    find(slot);
    for (size_t o = 0; like == nullptr && o < other_counts_[setup_id].size(); ++o) {
      find(slots_[other_counts_[setup_id][o] * quants_ + quant_index]);
    }
    if (slot.used == slot.sizings.size()) {
      slot.keys.emplace_back();
      slot.sizings.emplace_back();
    }
    slot.keys[slot.used] = key;
    Sizing& sizing = slot.sizings[slot.used++];
    if (like != nullptr) {
      estimator.SizeLike(in, *like, &sizing);
      return sizing;
    }
    // The GGUF file's size per tensor depends only on the model and the quantization: kept by
    // the catalog for its pairs (Catalog::GgufSizeOf), not worked out once per sizing (it was a
    // sixth of a sweep's time). A model from a local file (not the catalog's) is sized by the
    // estimate itself: there are a handful, not hundreds.
    EstimateInput x = in;
    if (in.quant != nullptr) x.gguf = catalog_.GgufSizeOf(*in.model, *in.quant);
    estimator.Size(x, &sizing);
    return sizing;
  }

  // What else an estimate's sizing depends on (the model and quant are the cache's and the
  // slot's; the setup is the slot's): runtime, bits per weight (bit pattern), context and
  // batch, backend and KV cache type, as whole words compared word by word. (With the enums
  // and ints as fields, GCC compared a byte and an int stored to the stack as one word each
  // time round the search: a stalled load, a third of the search's time.)
  struct Key {
    const Runtime* runtime = nullptr;
    uint64_t bpw_bits = 0;
    uint64_t lengths = 0;  // context << 32 | batch
    uint64_t kinds = 0;    // backend << 8 | KV cache type
    uint32_t batch() const { return static_cast<uint32_t>(lengths); }
    // The lengths first: what a slot's entries differ in most (its runtime and bits per weight
    // are nearly always one), so a miss is known after one comparison.
    bool operator==(const Key& o) const {
      return lengths == o.lengths && kinds == o.kinds && runtime == o.runtime &&
             bpw_bits == o.bpw_bits;
    }
  };
  static Key KeyOf(const EstimateInput& in) {
    Key k;
    k.runtime = in.runtime;
    std::memcpy(&k.bpw_bits, &in.bpw, sizeof(k.bpw_bits));
    k.lengths = uint64_t{static_cast<uint32_t>(in.context)} << 32 | static_cast<uint32_t>(in.batch);
    k.kinds = uint64_t{static_cast<uint8_t>(in.backend)} << 8 | static_cast<uint8_t>(in.kv_cache);
    return k;
  }
  struct Slot {
    std::vector<Key> keys;        // compact, searched
    std::deque<Sizing> sizings;   // stable addresses; sizings[i] is for keys[i]
    size_t used = 0;
  };
  const Catalog& catalog_;
  size_t quants_;
  std::vector<Slot> slots_;  // [setup_id][quant_index]
  std::vector<std::vector<int>> other_counts_;  // [setup_id]: SameGpuOtherCount setups' ids
};

// Inlined into SizeOn, its one caller: a call per sizing is on the ranker's fast path.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline const Sizing* Evaluator::SizeOnVariant(
    const Query& q, const Model& model, int quant_index, int variant, SizingCache* cache,
    const int* setup_ids, Sizing* own, EstimateInput* input, bool native_only) const {
  const SetupVariant& v = q.variants[variant];
  const QuantPlan& plan = v.plans[quant_index];
  EstimateInput& in = *input;
  in = EstimateInput();
  in.setup = v.setup.get();
  in.model = &model;
  in.quant = plan.quant;
  in.runtime = plan.runtime;
  in.backend = plan.backend;
  in.names = &plan.names;
  // The sizing reads the shape's context and concurrency alone (SizingKeyOf).
  int context = q.shape.context_tokens;
  if (model.max_context > 0) context = std::min(context, model.max_context);
  in.context = context;
  in.gen_tokens = std::max(1, std::min(q.shape.output_tokens, context / 2));
  in.prompt_tokens = std::max(1, std::min(q.shape.prompt_tokens, context - in.gen_tokens));
  in.batch = q.shape.concurrency;
  // At one user the rules read the one sequence's speeds (Facts' UserTokS, perf.*), and no
  // report reads a ranked estimate's serving speeds: not worked out.
  in.serving_speeds_at_capacity = q.shape.concurrency > 1;
  in.serving_users = q.shape.concurrency > 1 ? q.shape.concurrency : 0;
  // Run(in) is Finish(in, Size(in)); whether the batch fits is known from the sizing alone.
  auto estimate = [&](auto&& sizing) {
    const Sizing* sized = &sizing(in);
    if (native_only && !sized->estimate.runs_natively() && sized->weights_overflow()) {
      return sized;
    }
    if (in.batch > 1 && !sized->estimate.runs_natively()) {
      // The mode's concurrent sequences do not all fit: serve as many as fit beside the
      // weights (one at least), so that a model that runs is not called a no-fit for its KV
      // budget.
      in.batch = 1;
      sized = &sizing(in);
      const int fits = sized->estimate.serving.max_concurrency;
      if (sized->estimate.runs_natively() && fits > 1) {
        in.batch = std::min(fits, q.shape.concurrency);
        sized = &sizing(in);
      }
    }
    bool tried = false;  // `sizing` may reuse the storage `sized` points to
    in.kv_cache = ChooseKvCache(sized->estimate, plan.kv_fallback,
                                [&](KvCacheType kv) -> const Estimate& {
                                  tried = true;
                                  EstimateInput x = in;
                                  x.kv_cache = kv;
                                  return sizing(x).estimate;
                                });
    if (tried) sized = &sizing(in);
    return sized;
  };
  if (cache != nullptr) {
    return estimate([&](const EstimateInput& x) -> const Sizing& {
      return cache->Get(estimator_, setup_ids[variant], quant_index, x);
    });
  }
  // Without a cache (one model: `fit`), the catalog's kept GGUF sizes still spare working the
  // recipe out again for each quantization and retry.
  if (plan.quant != nullptr) in.gguf = catalog_.GgufSizeOf(model, *plan.quant);
  return estimate([&](const EstimateInput& x) -> const Sizing& {
    estimator_.Size(x, own);
    return *own;
  });
}

const Sizing* Evaluator::SizeOn(const Query& q, const Model& model, int quant_index,
                                SizingCache* cache, const int* setup_ids, Sizing* own,
                                EstimateInput* input, int* variant) const {
  const int n = static_cast<int>(q.variants.size());
  for (int v = 0;; ++v) {
    const Sizing* sized =
        SizeOnVariant(q, model, quant_index, v, cache, setup_ids, own, input, v + 1 < n);
    if (v + 1 == n || (q.variants[v].plans[quant_index].runtime != nullptr &&
                       sized->estimate.runs_natively())) {
      *variant = v;
      return sized;
    }
  }
}

void Evaluator::FillContext(const Query& q, int variant, const Model& model, Scratch* s) const {
  const Facts& f = *rules_.facts;
  const bool new_query = s->query_serial != q.serial;
  if (new_query || s->variant != variant) {
    f.FillSetup(*q.variants[variant].facts, &s->values, RowsFor(*s));
    s->variant = variant;
    ++s->context_key;
  }
  if (new_query) {  // another setup of the same query (scale-out) keeps these
    f.FillWorkload(q.shape, &s->values, RowsFor(*s));
    s->query_serial = q.serial;
    s->model = nullptr;
  }
  if (s->model != &model) {
    // Catalog models or not: the age is a subtraction (Model::release_month).
    f.FillModel(model, TextFor(q, model, s),
                MonthsSince(model.release_month, newest_release_month_), &s->values,
                RowsFor(*s));
    s->model = &model;
    ++s->context_key;
  }
}

bool Evaluator::ContextGated(const Query& q, int variant, const Model& model,
                             Scratch* s) const {
  FillContext(q, variant, model, s);
  return rules_.rules->ContextGated(s->values, q.workload_index, q.mode_index, &s->result,
                                    s->context_key);
}

double Evaluator::MostScore(const Query& q, const Model& model, const Pending& p, Scratch* s,
                            rules::ItemMemo* items) const {
  FillContext(q, p.variant, model, s);
  const SetupVariant& v = q.variants[p.variant];
  const QuantPlan& plan = v.plans[p.quant_index];
  rules_.facts->FillEarly(model, *plan.quant, plan.runtime, plan.serving,
                          *v.setup->devices[0].gpu, v.setup->device_count, p.sized->estimate,
                          EarlyShapeOf(q.shape), &s->values, RowsFor(*s));
  rules_.rules->Bound(s->values, q.workload_index, q.mode_index, &s->result, s->context_key,
                      s->set_least.data(), s->set_most.data(), items, p.quant_index);
  return WeighedBound(q, *s);
}

bool Evaluator::SameBound(const Query& a, const Query& b, const Model& model, Scratch* sa,
                          Scratch* sb) const {
  if (a.evaluator != this || b.evaluator != this || a.workload_index != b.workload_index ||
      a.variants.size() != b.variants.size() ||
      !rules_.rules->SameBoundRules(a.workload_index, a.mode_index, b.mode_index)) {
    return false;
  }
  // What FillEarly reads of the workload: then the early facts are the same too.
  if (EarlyShapeOf(a.shape) != EarlyShapeOf(b.shape)) return false;
  const rules::FactSchema& schema = *rules_.schema;
  for (size_t v = 0; v < a.variants.size(); ++v) {
    const std::vector<QuantPlan>& pa = a.variants[v].plans;
    const std::vector<QuantPlan>& pb = b.variants[v].plans;
    for (size_t i = 0; i < pa.size(); ++i) {
      if (pa[i].serving != pb[i].serving) return false;  // FillEarly reads it
    }
    FillContext(a, static_cast<int>(v), model, sa);
    FillContext(b, static_cast<int>(v), model, sb);
    for (int32_t f = 0; f < static_cast<int32_t>(schema.facts().size()); ++f) {
      const rules::FactDecl& d = schema.facts()[f];
      if (!d.context || !rules_.rules->ReadsBeforeLate(f)) continue;
      if (d.builtin) {
        if (d.name == rules::FactSchema::kModeId && a.mode_index != b.mode_index) return false;
        continue;  // workload.id: the same workload
      }
      if (!sa->values.SameValue(sb->values, f)) return false;
    }
  }
  return true;
}

double Evaluator::WeighedBound(const Query& q, const Scratch& bounded) const {
  return MostScoreOf(bounded.set_least.data(), bounded.set_most.data(), q.weights,
                     profiles_.grades());
}

void Evaluator::FinishCandidate(const Query& q, const Model& model, const Pending& p,
                                CandidateEval* c) const {
  c->model = &model;
  c->quant = &catalog_.quants()[p.quant_index];
  c->quant_index = p.quant_index;
  c->evaluated = false;
  estimator_.Finish(p.input, *p.sized, &c->estimate);
  c->setup = q.variants[p.variant].setup.get();
  c->variant = p.variant;
  c->runtime = q.variants[p.variant].plans[p.quant_index].runtime;
}

void Evaluator::Fill(const Query& q, const CandidateEval& c, Scratch* s) const {
  const Facts& f = *rules_.facts;
  const SetupVariant& v = q.variants[c.variant];
  FillContext(q, c.variant, *c.model, s);
  f.FillCandidate(*c.model, *c.quant, c.runtime, v.plans[c.quant_index].serving,
                  *v.setup->devices[0].gpu, v.setup->device_count, c.estimate, q.shape,
                  &s->values, RowsFor(*s));
}

void Evaluator::ScoreCandidate(const Query& q, CandidateEval* c, Scratch* s) const {
  ScoreCandidate(q, c, s, nullptr);
}

void Evaluator::ScoreCandidate(const Query& q, CandidateEval* c, Scratch* s,
                               rules::ItemMemo* items) const {
  Fill(q, *c, s);
  rules_.rules->Score(s->values, q.workload_index, q.mode_index, &s->result, s->context_key,
                      /*after_bound=*/false, items, c->quant_index);
  Finalize(q, c, s);
}

void Evaluator::ScoreAfterBound(const Query& q, CandidateEval* c, Scratch* s) const {
  rules_.facts->FillSpeeds(c->estimate, q.shape, &s->values, RowsFor(*s));
  rules_.rules->Score(s->values, q.workload_index, q.mode_index, &s->result, s->context_key,
                      /*after_bound=*/true);
  Finalize(q, c, s);
}

void Evaluator::Finalize(const Query& q, CandidateEval* c, Scratch* s) const {
  c->score = ScoreOf(s->result, q.weights, profiles_.grades());
  c->cap_rule = s->result.cap_rule;
  c->gate_rule = s->result.gate_rule;
  c->quality = (c->model->workload_quality.*q.shape.quality).score *
               QualityRetention(*c->model, *c->quant);
  c->user_tok_s = UserTokS(c->estimate, q.shape);
  c->context = c->model->max_context > 0
                   ? std::min(c->estimate.safe_context, c->model->max_context)
                   : c->estimate.safe_context;
  c->evaluated = true;
}

void Evaluator::EstimateCandidate(const Query& q, const Model& model, int quant_index,
                                  CandidateEval* c) const {
  c->model = &model;
  c->quant = &catalog_.quants()[quant_index];
  c->quant_index = quant_index;
  c->evaluated = false;
  Sizing own;
  EstimateInput in;
  int v = 0;
  const Sizing* sized = SizeOn(q, model, quant_index, nullptr, nullptr, &own, &in, &v);
  estimator_.Finish(in, *sized, &c->estimate);
  c->setup = q.variants[v].setup.get();
  c->variant = v;
  c->runtime = q.variants[v].plans[quant_index].runtime;
}

CandidateEval Evaluator::Evaluate(const Query& q, const Model& model, int quant_index,
                                  Scratch* s) const {
  CandidateEval c;
  EstimateCandidate(q, model, quant_index, &c);
  ScoreCandidate(q, &c, s);
  return c;
}

namespace {

// Better of two candidates of one model: not excluded first, then the ranking order.
bool BetterQuant(const CandidateEval& a, const CandidateEval& b) {
  if (a.score.gated != b.score.gated) return !a.score.gated;
  if (a.score.gated) return a.score.raw > b.score.raw;
  return RanksBefore(a, b);
}

}  // namespace

ModelEval Evaluator::EvaluateModel(const Query& q, const Model& model, Scratch* s) const {
  ModelEval out;
  const int nq = static_cast<int>(catalog_.quants().size());
  out.quants.reserve(nq);
  for (int i = 0; i < nq; ++i) {
    out.quants.push_back(Evaluate(q, model, i, s));
    const CandidateEval& c = out.quants.back();
    if (out.closest < 0 || BetterQuant(c, out.quants[out.closest])) out.closest = i;
    if (!c.score.gated && (out.best < 0 || RanksBefore(c, out.quants[out.best]))) out.best = i;
  }
  return out;
}

Ranking Evaluator::Rank(const Query& q, Scratch* s, int threads) const {
  std::vector<Ranking> out;
  RankShared({&q}, {s}, &out, threads);
  return std::move(out[0]);
}

bool Evaluator::SameEstimates(const Query& a, const Query& b) {
  if (a.shape.context_tokens != b.shape.context_tokens ||
      a.shape.prompt_tokens != b.shape.prompt_tokens ||
      a.shape.output_tokens != b.shape.output_tokens ||
      a.shape.concurrency != b.shape.concurrency || a.variants.size() != b.variants.size() ||
      a.rank_groups != b.rank_groups) {
    return false;
  }
  for (size_t v = 0; v < a.variants.size(); ++v) {
    const Setup& x = *a.variants[v].setup;
    const Setup& y = *b.variants[v].setup;
    if (x.devices.size() != y.devices.size() || x.parallelism != y.parallelism ||
        x.parallelism_defaulted != y.parallelism_defaulted || x.host_ram_gb != y.host_ram_gb ||
        x.host_bandwidth_gbps != y.host_bandwidth_gbps) {
      return false;
    }
    for (size_t d = 0; d < x.devices.size(); ++d) {
      if (x.devices[d].gpu != y.devices[d].gpu || x.devices[d].count != y.devices[d].count) return false;
    }
    for (size_t i = 0; i < a.variants[v].plans.size(); ++i) {
      const QuantPlan& p = a.variants[v].plans[i];
      const QuantPlan& r = b.variants[v].plans[i];
      if (p.runtime != r.runtime || p.backend != r.backend || p.problems != r.problems) return false;
    }
  }
  return true;
}

namespace {

// std::sort(ranked, RanksBefore), moving each candidate once: the order is sorted by index and
// then applied cycle by cycle (a candidate is large). RanksBefore orders any two candidates of
// different models, so the result is the same whatever the sort.
void SortRanked(std::vector<CandidateEval>* ranked) {
  std::vector<CandidateEval>& v = *ranked;
  const size_t n = v.size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return RanksBefore(v[a], v[b]); });
  // Position i takes v[order[i]].
  std::vector<char> placed(n, 0);
  for (size_t start = 0; start < n; ++start) {
    if (placed[start] || order[start] == start) continue;
    CandidateEval first = std::move(v[start]);
    size_t i = start;
    while (order[i] != start) {
      v[i] = std::move(v[order[i]]);
      placed[i] = 1;
      i = order[i];
    }
    v[i] = std::move(first);
    placed[i] = 1;
  }
}

}  // namespace

void Evaluator::RankShared(const std::vector<const Query*>& qs,
                           const std::vector<Scratch*>& scratch, std::vector<Ranking>* out,
                           int threads) const {
  std::vector<std::vector<Ranking>> all;
  RankGroups({qs}, {scratch}, &all, threads);
  *out = std::move(all[0]);
}

void Evaluator::RankGroups(const std::vector<std::vector<const Query*>>& groups,
                           const std::vector<std::vector<Scratch*>>& scratches,
                           std::vector<std::vector<Ranking>>* outs, int threads,
                           int top, bool excluded) const {
  const size_t ng = groups.size();
  const bool want_excluded = top == 0 && excluded;
  size_t queries = 0;
  for (const std::vector<const Query*>& qs : groups) queries += qs.size();
  // Each group estimates with its first query; name the setups those estimate on, equal
  // setups alike, so that the groups share sizings.
  std::vector<const Setup*> setups;
  std::vector<std::vector<int>> setup_ids(ng);
  for (size_t g = 0; g < ng; ++g) {
    for (const SetupVariant& v : groups[g][0]->variants) {
      int id = 0;
      while (id < static_cast<int>(setups.size()) && !SameSetup(*setups[id], *v.setup)) ++id;
      if (id == static_cast<int>(setups.size())) setups.push_back(v.setup.get());
      setup_ids[g].push_back(id);
    }
  }

  // Per group and query: the earlier query of the group whose bound it takes (SameBound: a
  // mode that changes only weights and speed targets, interactive of balanced), -1 if none.
  // Checked on the calling thread's scratches, before the helpers start.
  const std::vector<Model>& models = catalog_.models();
  std::vector<std::vector<int>> bound_like(ng);
  for (size_t g = 0; g < ng; ++g) {
    const std::vector<const Query*>& qs = groups[g];
    bound_like[g].assign(qs.size(), -1);
    for (size_t j = 1; j < qs.size() && !models.empty(); ++j) {
      for (size_t a = 0; a < j && bound_like[g][j] < 0; ++a) {
        if (bound_like[g][a] < 0 &&
            qs[j]->evaluator->SameBound(*qs[a], *qs[j], models[0], scratches[g][a],
                                        scratches[g][j])) {
          bound_like[g][j] = static_cast<int>(a);
        }
      }
    }
  }

  // Per group: for the model at hand, the best and closest candidates of each query.
  struct GroupState {
    std::vector<CandidateEval> best, closest;
    std::vector<char> have_best, have_closest;
    std::vector<char> bounded_now;  // MostScore bounded the candidate at hand (its scratch)
    std::vector<size_t> closest_pos;  // position of `closest` in the estimation order
    CandidateEval nofit;
    bool have_nofit = false;
    // top > 0: per query, the scores of the best `top` models this thread ranked, best first.
    // No candidate scoring less than the last of `top` of them can enter the top.
    std::vector<std::vector<double>> top_scores;
    // Unless `excluded` is wanted: [query * variants + variant], the model is gated there by
    // a rule reading only context facts (CompiledRules::ContextGated).
    std::vector<char> context_gated;
  };
  // The models go to the threads one at a time, in catalog order, whichever thread is free
  // first: a model's candidates depend on nothing another model did (its sizings, its hint),
  // so each thread ranks its models into its own partial rankings, merged below.
  std::atomic<size_t> next_model{0};
  auto rank_models = [&](const std::vector<std::vector<Scratch*>>& part_scratch,
                         std::vector<std::vector<Ranking>>* part) {
    SizingCache cache(catalog_, setups, catalog_.quants().size());
    // The item rules' results for the model at hand, by quant index: kept when more than one
    // query reads them (one query evaluates each quantization once, so keeping costs only).
    rules::ItemMemo memo;
    rules::ItemMemo* items = queries > 1 ? &memo : nullptr;
    part->assign(ng, {});
    std::vector<GroupState> state(ng);
    for (size_t g = 0; g < ng; ++g) {
      const size_t n = groups[g].size();
      (*part)[g].assign(n, Ranking());
      for (Ranking& r : (*part)[g]) r.ranked.reserve(models.size());
      state[g].best.resize(n);
      state[g].closest.resize(n);
      state[g].have_best.resize(n);
      state[g].have_closest.resize(n);
      state[g].bounded_now.resize(n);
      state[g].closest_pos.resize(n);
      state[g].top_scores.resize(n);
    }
    const std::vector<std::vector<int>> no_groups;
    // Per mode (index + 1; 0: none), the quant index that ranked first in the model's last
    // group of that mode, -1 if none yet.
    int modes = 0;
    for (const std::vector<const Query*>& qs : groups) {
      modes = std::max(modes, qs[0]->mode_index + 2);
    }
    std::vector<int> mode_hint(modes, -1);
    std::vector<Pending> pending;      // one setup: the candidates that run, estimation order
    std::vector<std::pair<double, size_t>> order;  // (promise, pending index), best first
    CandidateEval c;
    for (size_t m; (m = next_model.fetch_add(1, std::memory_order_relaxed)) < models.size();) {
      const Model& model = models[m];
      cache.Clear();
      memo.Clear();
      int hint = -1;  // the quant index that ranked first in the last group, for this model
      std::fill(mode_hint.begin(), mode_hint.end(), -1);
      for (size_t g = 0; g < ng; ++g) {
        const std::vector<const Query*>& qs = groups[g];
        const std::vector<Scratch*>& scratch = part_scratch[g];
        std::vector<Ranking>& out = (*part)[g];
        GroupState& st = state[g];
        const size_t n = qs.size();
        const Query& q0 = *qs[0];
        int& same_mode_hint = mode_hint[std::max(q0.mode_index + 1, 0)];
        std::fill(st.have_best.begin(), st.have_best.end(), 0);
        std::fill(st.have_closest.begin(), st.have_closest.end(), 0);
        st.have_nofit = false;
        // A candidate that does not run: never ranked. Keep the one closest to running for
        // `excluded`.
        auto no_run = [&](const CandidateEval& x) {
          if (!st.have_nofit ||
              x.estimate.memory.total_gb - x.estimate.memory.usable_gb <
                  st.nofit.estimate.memory.total_gb - st.nofit.estimate.memory.usable_gb) {
            st.nofit = x, st.have_nofit = true;
          }
        };
        // Keeps `c`, scored for query j, if it is the best or the closest excluded one so far;
        // `pos` is its position in the estimation order: ties for the closest go to the earliest.
        auto keep = [&](size_t j, size_t pos) {
          if (!c.score.gated) {
            if (!st.have_best[j] || RanksBefore(c, st.best[j])) {
              st.best[j] = c, st.have_best[j] = 1;
            }
          } else if (!st.have_closest[j] || c.score.raw > st.closest[j].score.raw ||
                     (c.score.raw == st.closest[j].score.raw && pos < st.closest_pos[j])) {
            st.closest[j] = c, st.have_closest[j] = 1, st.closest_pos[j] = pos;
          }
        };
        // Unless `excluded` is wanted: where a gate reading only context facts fires (base and
        // embedding models), every candidate of the model is gated; they could only be the
        // closest excluded one, so they are not scored there, nor sized if that is so for
        // every query and setup variant.
        const int variants = static_cast<int>(q0.variants.size());
        st.context_gated.assign(want_excluded ? 0 : n * variants, 0);
        bool all_gated = !want_excluded;
        for (size_t j = 0; j < n && !want_excluded; ++j) {
          for (int v = 0; v < variants; ++v) {
            const bool gated = qs[j]->evaluator->ContextGated(*qs[j], v, model, scratch[j]);
            st.context_gated[j * variants + v] = gated;
            all_gated = all_gated && gated;
          }
        }
        // First size every candidate: those that do not run are settled here. A no-fit says
        // nothing of the quantizations after it: memory does not always grow with the bits per
        // weight (a GGUF recipe's tensor types; MXFP4 keeps a dense model's weights at Q8_0).
        // Scale-out: each candidate on the fewest GPUs of the list that run it natively, else
        // the most (SizeOn).
        pending.clear();
        Pending p;  // each field is set below (SizeOn sets all of the input)
        for (const std::vector<int>& group : all_gated ? no_groups : q0.rank_groups) {
          for (int i : group) {
            p.quant_index = i;
            p.sized = SizeOn(q0, model, i, &cache, setup_ids[g].data(), nullptr, &p.input,
                             &p.variant);
            for (Ranking& r : out) ++r.candidates;
            const QuantPlan& plan = q0.variants[p.variant].plans[i];
            if (!p.sized->estimate.runnable() || plan.runtime == nullptr ||
                p.sized->estimate.fit.kind == FitKind::kNoFit) {
              if (want_excluded) {  // only `excluded` reads it
                FinishCandidate(q0, model, p, &c);
                no_run(c);
              }
              continue;
            }
            pending.push_back(p);
          }
        }
        // Then the ones that run, most promising first (the best fit, then the most quality
        // kept): for each query, a candidate's best possible score from its early facts
        // (Facts::FillEarly, known once sized; CompiledRules::Bound, which also evaluates
        // the rules reading only those) is compared with the best score found so far. Below
        // it, the candidate cannot rank first there and is not scored for that query; one no
        // query needs is not finished (no speeds worked out). RanksBefore is a total order, so
        // the best is the same whatever the order; a query with no best scored every
        // candidate, so its closest excluded one is too (ties: the earliest, as before).
        // The quantization that ranked first in the model's previous group of the same mode
        // (another workload: often the same), else in its previous group, goes first, making
        // the bound bite early.
        order.clear();
        const int first = same_mode_hint >= 0 ? same_mode_hint : hint;
        for (size_t k = 0; k < pending.size(); ++k) {
          const Pending& p = pending[k];
          const FitKind kind = p.sized->estimate.fit.kind;
          const int fit = p.quant_index == first                  ? -1
                          : kind == FitKind::kNativeComfortable ? 0
                          : kind == FitKind::kNativeTight       ? 1
                                                                : 2;
          order.push_back({fit - QualityRetention(model, catalog_.quants()[p.quant_index]), k});
        }
        // Few candidates: an insertion sort, no allocation; ties keep the estimation order.
        for (size_t a = 1; a < order.size(); ++a) {
          for (size_t b = a; b > 0 && order[b].first < order[b - 1].first; --b) {
            std::swap(order[b], order[b - 1]);
          }
        }
        // A query with no best yet scores the candidate whatever its bound: no bound then,
        // unless only the top models are wanted and it has `top` of them: a candidate that
        // cannot reach the last of those cannot enter the top either. A query whose bound is
        // another's (bound_like) takes it when that one was just bounded, and then scores a
        // candidate that passes from scratch (Score's results are the same either way).
        const std::vector<int>& like = bound_like[g];
        for (const auto& [key, k] : order) {
          bool finished = false;
          for (size_t j = 0; j < n; ++j) {
            st.bounded_now[j] = 0;
            if (!want_excluded && st.context_gated[j * variants + pending[k].variant]) continue;
            const Evaluator& e = *qs[j]->evaluator;
            const std::vector<double>& tops = st.top_scores[j];
            const bool full = top > 0 && static_cast<int>(tops.size()) == top;
            const bool bounded = st.have_best[j] || full;
            const bool shared = bounded && like[j] >= 0 && st.bounded_now[like[j]];
            if (bounded) {
              const double floor =
                  !full ? st.best[j].score.score
                  : st.have_best[j] ? std::max(st.best[j].score.score, tops.back())
                                    : tops.back();
              const double most =
                  shared ? e.WeighedBound(*qs[j], *scratch[like[j]])
                         : e.MostScore(*qs[j], model, pending[k], scratch[j], items);
              st.bounded_now[j] = !shared;
              if (most < floor) continue;
            }
            if (!finished) {
              FinishCandidate(q0, model, pending[k], &c);
              finished = true;
            }
            if (bounded && !shared) {
              e.ScoreAfterBound(*qs[j], &c, scratch[j]);
            } else {
              e.ScoreCandidate(*qs[j], &c, scratch[j], items);
            }
            keep(j, k);
          }
        }
        if (st.have_best[0]) hint = same_mode_hint = st.best[0].quant_index;
        for (size_t j = 0; j < n; ++j) {
          Ranking& r = out[j];
          ++r.models;
          if (st.have_best[j]) {
            r.ranked.push_back(st.best[j]);
            if (top > 0) {
              std::vector<double>& tops = st.top_scores[j];
              const double score = st.best[j].score.score;
              if (static_cast<int>(tops.size()) < top) {
                tops.push_back(score);
              } else if (score > tops.back()) {
                tops.back() = score;
              }
              for (size_t i = tops.size() - 1; i > 0 && tops[i] > tops[i - 1]; --i) {
                std::swap(tops[i], tops[i - 1]);
              }
            }
          } else if (!want_excluded) {
            continue;
          } else if (st.have_closest[j]) {
            r.excluded.push_back(st.closest[j]);
          } else if (st.have_nofit) {
            CandidateEval x = st.nofit;
            qs[j]->evaluator->ScoreCandidate(*qs[j], &x, scratch[j]);
            r.excluded.push_back(x);
          }
        }
      }
    }
  };

  const size_t helpers =
      std::min(static_cast<size_t>(std::max(threads, 1)), std::max<size_t>(models.size(), 1)) - 1;
  // Each helper thread: a scratch per query, made by the query's evaluator, and its rankings.
  std::vector<std::vector<std::unique_ptr<Scratch>>> helper_owned(helpers);
  std::vector<std::vector<std::vector<Scratch*>>> helper_scratch(helpers);
  std::vector<std::vector<std::vector<Ranking>>> helper_outs(helpers);
  for (size_t h = 0; h < helpers; ++h) {
    for (const std::vector<const Query*>& qs : groups) {
      helper_scratch[h].emplace_back();
      for (const Query* q : qs) {
        helper_owned[h].push_back(std::make_unique<Scratch>(*q->evaluator));
        helper_scratch[h].back().push_back(helper_owned[h].back().get());
      }
    }
  }
  std::vector<Thread> pool;
  pool.reserve(helpers);
  for (size_t h = 0; h < helpers; ++h) {
    pool.emplace_back([&, h] { rank_models(helper_scratch[h], &helper_outs[h]); });
  }
  rank_models(scratches, outs);
  for (Thread& t : pool) t.Join();

  // Merged: counts summed, ranked in RanksBefore order (a total order over the models, so the
  // same whoever ranked which model), excluded in model order (one entry per model at most).
  for (size_t g = 0; g < ng; ++g) {
    for (size_t j = 0; j < groups[g].size(); ++j) {
      Ranking& r = (*outs)[g][j];
      for (std::vector<std::vector<Ranking>>& part : helper_outs) {
        Ranking& x = part[g][j];
        r.models += x.models;
        r.candidates += x.candidates;
        for (CandidateEval& e : x.ranked) r.ranked.push_back(std::move(e));
        for (CandidateEval& e : x.excluded) r.excluded.push_back(std::move(e));
      }
      if (helpers > 0) {
        std::sort(r.excluded.begin(), r.excluded.end(),
                  [](const CandidateEval& a, const CandidateEval& b) { return a.model < b.model; });
      }
      SortRanked(&r.ranked);
      if (top > 0 && static_cast<int>(r.ranked.size()) > top) r.ranked.resize(top);
    }
  }
}

CandidateDetail Evaluator::Describe(const Query& q, const CandidateEval& c) const {
  CandidateDetail d;
  const rules::CompiledRules& book = *rules_.rules;
  const GradeScale& scale = profiles_.grades();
  d.grade = scale.grades[c.score.grade].letter;
  Scratch s(*this);
  s.all_facts = true;
  Fill(q, c, &s);
  rules::Explanation ex = book.Explain(s.values, q.workload_index, q.mode_index);
  std::vector<std::pair<std::pair<int, int>, std::string>> said;
  std::set<std::string> seen_tags, seen_advice;
  for (const rules::RuleTrace& t : ex.rules) {
    if (!t.fired) continue;
    const rules::RuleInfo& info = book.rules()[t.rule];
    const bool explain_only = Contains(info.tags, kExplainOnlyTag);
    if (!t.sentence.empty() && !explain_only) {
      said.push_back({{reason_rank_[info.set_index], t.rule}, t.sentence});
    }
    for (const std::string& tag : info.tags) {
      if (tag != kExplainOnlyTag && seen_tags.insert(tag).second) d.tags.push_back(tag);
    }
    if (!info.advice.empty() && seen_advice.insert(info.advice).second) {
      d.advice.push_back(info.advice);
    }
  }
  std::sort(said.begin(), said.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [key, sentence] : said) d.reasons.push_back(std::move(sentence));
  if (c.score.capped && c.cap_rule >= 0) {
    d.cap_reason = absl::StrCat("capped at ", scale.grades[c.score.cap].letter, " by ",
                                book.rules()[c.cap_rule].id);
  }
  if (c.score.gated && c.gate_rule >= 0) {
    const rules::RuleInfo& info = book.rules()[c.gate_rule];
    d.excluded_reason = info.gate_reason.empty() ? info.id : info.gate_reason;
  }
  if ((c.estimate.problems & kBlockingProblems) != 0 || c.runtime == nullptr) {
    EstimateInput in;
    in.setup = c.setup;
    in.model = c.model;
    in.quant = c.quant;
    in.runtime = c.runtime;
    d.problems = DescribeProblems(c.estimate.problems & kBlockingProblems, in);
    if (c.runtime == nullptr && d.problems.empty()) {
      d.problems.push_back(absl::StrCat("no runtime in the catalog loads ", c.quant->id, " on ",
                                        c.setup->label));
    }
  }
  return d;
}

CandidateExplanation Evaluator::Explain(const Query& q, const CandidateEval& c) const {
  CandidateExplanation out;
  const rules::CompiledRules& book = *rules_.rules;
  Scratch s(*this);
  s.all_facts = true;
  Fill(q, c, &s);
  out.trace = book.Explain(s.values, q.workload_index, q.mode_index);
  for (int i = 0; i < book.set_count(); ++i) {
    out.set_score.push_back(SetScore(profiles_.grades(), out.trace.set_total[i]));
    out.weight.push_back(q.weights.weight[i]);
    out.workload_weight.push_back(q.workload->WeightOf(book.sets()[i]));
    out.multiplier.push_back(q.mode->MultiplierOf(book.sets()[i]));
  }
  out.score = c.score;
  return out;
}

}  // namespace fitrank
