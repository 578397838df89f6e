// The evaluation loop: for a setup, a workload and a mode, every model x quantization ->
// estimate -> facts -> compiled rules -> per-set totals x profile weights x mode multipliers
// -> score 0-100 -> grade A-F (caps and gates after). Each model's best quantization is the
// one with the best score by the same rules; the others stay graded.
//
//   Diagnostics diags;
//   auto rules = LoadScoringRules(*data, local.get(), profiles, /*warnings=*/false, &diags);
//   Evaluator eval(catalog, estimator, profiles, *std::move(rules));
//   auto query = eval.Prepare(setup, *profiles.FindWorkload("coding").found,
//                             profiles.default_mode());
//   Evaluator::Scratch scratch(eval);                  // one per thread
//   Ranking r = eval.Rank(*query, &scratch);           // models best first, best quant each
//   CandidateDetail d = eval.Describe(*query, r.ranked[0]);   // reasons, tags, advice
//
// Rule load order (rules/rule_book.h): the shipped rules/*.yaml (embedded, overlaid by
// --data DIR) sorted by name, then the local directory (--rules DIR, else $FITRANK_RULES)
// sorted by name; local files add rules and override or disable shipped ones by id.
//
// Performance: Prepare() does the per-query work once (weights, runtimes per quant with their
// names resolved, setups to try); Rank() allocates only its result and a per-model cache of
// sizings; per candidate nothing is allocated and no name is looked up. RankGroups() ranks
// many queries model by model so that estimates sharing a sizing (Estimator::Size: same setup,
// quant, runtime, context and batch) size it once, and one at another context or batch starts
// from a sizing of the same candidate (Estimator::SizeLike). Scale-out modes (Mode::gpu_counts) estimate each candidate on the fewest GPUs
// of the list that run it natively (else the most).
//
// Thread safety: an Evaluator and a prepared Query are immutable and may be shared by any
// number of threads, each with its own Scratch (a model's capabilities for a workload and its
// age are worked out on first use and kept, published atomically: the first description
// published is the one every thread uses). RankGroups(threads > 1) starts helper
// threads of its own and joins them before it returns.
#ifndef FITRANK_ENGINE_SCORING_EVALUATE_H_
#define FITRANK_ENGINE_SCORING_EVALUATE_H_

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/diagnostics.h"
#include "base/file_source.h"
#include "catalog/catalog.h"
#include "engine/scoring/candidate.h"
#include "engine/estimator/estimator.h"
#include "engine/scoring/facts.h"
#include "engine/scoring/grade.h"
#include "profiles/profiles.h"
#include "rules/compiled_rules.h"

namespace fitrank {

// The compiled rules and the fact schema they were compiled against.
struct ScoringRules {
  std::shared_ptr<rules::FactSchema> schema;
  std::shared_ptr<const Facts> facts;
  std::shared_ptr<const rules::CompiledRules> rules;
};

// The vocabulary rules are checked against: workloads and modes (ids and aliases), the rule
// sets the profiles weigh, and the grade letters, all from `profiles`.
rules::Vocabulary VocabularyOf(const Profiles& profiles);

// Declares the facts and reads, merges and compiles the shipped rules of `shipped` (the *.yaml
// under `shipped_dir`) and then, if `local` is not null, the *.yaml of its root. Problems go
// to `diags` (warnings too if `warnings`); the status is not OK if any error was found.
// `native` (may be null): phases compiled to C++ (rules/native.h; the engine passes
// rules::ShippedNativePhases()), run where a phase is the one they were made from.
absl::StatusOr<ScoringRules> LoadScoringRules(const FileSource& shipped, const FileSource* local,
                                              const Profiles& profiles, bool warnings,
                                              Diagnostics* diags,
                                              absl::string_view shipped_dir = "rules",
                                              const rules::NativePhases* native = nullptr);

class Evaluator;

// What of a workload shape the sizing of an estimate reads (Evaluator's SizeOn: the context
// and the batch; the prompt and answer lengths only change its finish): queries on one setup
// whose shapes have equal keys share every sizing, so ranking them in one pass
// (Evaluator::RankGroups) sizes each candidate once.
inline std::pair<int, int> SizingKeyOf(const WorkloadShape& shape) {
  return {shape.context_tokens, shape.concurrency};
}

// A query prepared by Evaluator::Prepare().
struct Query {
  uint64_t serial = 0;      // unique per prepared query (scratch records cache by it)
  const Evaluator* evaluator = nullptr;  // the one that prepared it (its rules score it)
  const Workload* workload = nullptr;
  const Mode* mode = nullptr;
  WorkloadShape shape;
  int workload_index = -1;  // into the rules' vocabulary
  int mode_index = -1;
  SetWeights weights;
  std::vector<SetupVariant> variants;  // ascending GPU count; [0] is the setup given, unless
                                       // scale-out replaced it by its GPU counts
  std::vector<std::vector<int>> rank_groups;  // quant indexes Rank() estimates (evaluate.cc)
};

// Every quantization of one model, graded.
struct ModelEval {
  std::vector<CandidateEval> quants;  // catalog quant order
  int best = -1;                      // index of the best non-excluded one, -1 if all excluded
  int closest = -1;                   // best of all (excluded included): for "out of reach"
};

struct Ranking {
  std::vector<CandidateEval> ranked;    // best quantization of each model that runs, best first
  std::vector<CandidateEval> excluded;  // models every quantization of which is excluded: the
                                        // closest one each (largest raw score), model order
  int models = 0;                       // models considered
  int candidates = 0;                   // model x quant (x GPU count) estimates made
};

// Rules tagged with this tag score and explain themselves (`rules explain` shows their
// sentence) but stay out of a pick's reasons: continuous base scores that fire for every
// candidate ("It is 7 months behind the newest model") would only repeat themselves.
inline constexpr absl::string_view kExplainOnlyTag = "explain-only";

// What a report shows beside the numbers: the rules that fired, told in plain English.
struct CandidateDetail {
  std::string grade;                  // "A".."F"
  std::vector<std::string> reasons;   // `say` of each fired rule, in the profiles' reason order
                                      // (explain-only rules left out)
  std::vector<std::string> tags;      // tags of fired rules, first-seen order, unique
  std::vector<std::string> advice;    // advice ids of fired rules, unique
  std::string cap_reason;             // "capped at C by fit.offload", "" if not capped
  std::string excluded_reason;        // gate_reason of the excluding rule, "" if not excluded
  std::vector<std::string> problems;  // the estimator's problems (no runtime, precision ...)
};

// Everything `rules explain` prints.
struct CandidateExplanation {
  rules::Explanation trace;            // every rule: applicable, fired, contribution, sentence
  std::vector<double> set_score;       // per set: the total clamped to the set range
  std::vector<double> weight;          // per set: workload weight x mode multiplier
  std::vector<double> workload_weight; // per set
  std::vector<double> multiplier;      // per set
  Score score;
};

class Evaluator {
 public:
  Evaluator(const Catalog& catalog, const Estimator& estimator, const Profiles& profiles,
            ScoringRules rules);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // Per-thread working memory. Built once; reused for every candidate.
  class Scratch {
   public:
    explicit Scratch(const Evaluator& e)
        : values(*e.rules_.schema),
          set_least(e.rules_.rules->set_count()),
          set_most(e.rules_.rules->set_count()) {}
    rules::FactValues values;
    rules::EvalResult result;
    std::vector<double> set_least, set_most;
    // Which query/variant/model the record currently holds, to skip refilling.
    uint64_t query_serial = 0;
    int variant = -1;
    const Model* model = nullptr;
    // Changes whenever a context fact (setup, workload, model) is refilled: the rules that
    // read only those keep their results until it does (CompiledRules::Evaluate).
    uint64_t context_key = 0;
    ModelWorkloadText own_text;  // for models not in the catalog (from config.json)
    // Fill every fact, not only those the rules' `when` and `score` read (Facts::RowsReadBy):
    // for explain, which renders the `say` sentences too.
    bool all_facts = false;
  };

  // Prepares `setup` for `workload` in `mode`. The setup is copied. Fails (InvalidArgument,
  // with a message for users) if a scale-out setup cannot be built.
  absl::StatusOr<std::unique_ptr<Query>> Prepare(const Setup& setup, const Workload& workload,
                                                 const Mode& mode) const;
  // What Prepare(setup, workload, mode) gives when `like` was prepared by this evaluator for
  // the same setup and mode (another workload): its setups and per-quantization plans, which
  // depend on the setup and mode alone, are copied rather than worked out again (a report that
  // asks about several workloads of one setup: `fit`, the GPU page).
  std::unique_ptr<Query> PrepareLike(const Query& like, const Workload& workload) const;

  // Scores a candidate whose estimate is already made (by Evaluate or Rank with the same
  // query, or one with SameEstimates): facts, rules, score, grade. Allocation-free.
  void ScoreCandidate(const Query& q, CandidateEval* c, Scratch* s) const;
  // One candidate: `model` at catalog quant `quant_index`.
  CandidateEval Evaluate(const Query& q, const Model& model, int quant_index, Scratch* s) const;
  // Every quantization of `model`.
  ModelEval EvaluateModel(const Query& q, const Model& model, Scratch* s) const;
  // Every model, ranked by its best quantization among the grade scale's pick_quants (all
  // when empty). Only candidates that run (natively or with
  // offload, on a runtime that loads them) are scored and ranked: the others are not
  // estimated or not scored (EvaluateModel shows them, excluded by the rules).
  // `threads`: as RankGroups.
  Ranking Rank(const Query& q, Scratch* s, int threads = 1) const;
  // Rank() of several queries whose estimates are the same (SameEstimates: e.g. one setup and
  // workload in modes that change only weights), estimating each candidate once. One scratch
  // per query. `threads`: as RankGroups.
  void RankShared(const std::vector<const Query*>& queries, const std::vector<Scratch*>& scratch,
                  std::vector<Ranking>* out, int threads = 1) const;
  // RankShared of several groups of queries at once: (*out)[g] is what RankShared(groups[g],
  // scratch[g]) gives. A query may come from another Evaluator sharing this one's catalog,
  // estimator and profiles (`rules diff`: two rule trees): it is scored with its own rules
  // (Query::evaluator) and its scratch must be one of that evaluator. Goes model by model, so that the estimates of a model that share
  // their sizing (same setup, quantization, runtime, backend, context and batch: workloads
  // and modes of the same context) size it once (Estimator::Size).
  //
  // Threads: the ranking runs on `threads` threads (< 1 counts as 1), the calling one and
  // threads - 1 helpers it starts and joins before returning, which share the models between
  // them (each helper with its own sizing cache and a Scratch per query, made by the query's
  // evaluator; `scratch` is the calling thread's). The result is the same whatever `threads`:
  // ranked by RanksBefore (a total order), excluded in model order, counts summed. The default,
  // 1, starts no thread: callers that already rank on several threads (the sweep's workers,
  // a report's blocks) keep it; a caller with one ranking and idle cores (recommend) passes 2.
  //
  // Top: `top` > 0 asks for the first `top` models of each ranking only: `ranked` holds those,
  // the same as the first `top` without it, and `excluded` is empty (as with `excluded`
  // false, below); `models` counts as without it. A candidate whose best possible score
  // (MostScore) is below the last of the `top` best models found so far is then neither
  // finished nor scored: a sweep of top 5 (`rules diff`) scores a fraction of the candidates.
  // A query whose bound is an earlier one's of its group (SameBound: interactive's is
  // balanced's under its own weights) takes it instead of bounding the candidate again.
  //
  // `excluded` false leaves `excluded` empty with any `top` (the sweep writes only ranked
  // models), the rest as with it: a candidate that does not run is then not finished, and a
  // model gated by a rule that reads only context facts (CompiledRules::ContextGated: base
  // and embedding models) is not scored in that query and on that setup, nor estimated if
  // that is so in every query of the group: `candidates` leaves those out.
  void RankGroups(const std::vector<std::vector<const Query*>>& groups,
                  const std::vector<std::vector<Scratch*>>& scratch,
                  std::vector<std::vector<Ranking>>* out, int threads = 1, int top = 0,
                  bool excluded = true) const;
  // True if every estimate `a` makes equals the one `b` makes for the same candidate.
  static bool SameEstimates(const Query& a, const Query& b);
  // For `a` and `b` with SameEstimates and one workload: true if a candidate's best possible
  // score with `b` (RankGroups' bound) is the one with `a` under b's weights, for every sized
  // candidate of every model: `a` and `b` are this evaluator's, the same rules bound them
  // (rules::CompiledRules::SameBoundRules), and each setup variant's plans (serving runtime)
  // and the context facts those rules read are the same (workload, mode and setup facts,
  // mode.id), as is what the early facts read of the workload (EarlyShape). Their early facts
  // then are too (Facts::FillEarly). RankGroups then bounds a candidate once for both. Fills
  // the context facts of each setup variant and `model` into `sa` and `sb`.
  bool SameBound(const Query& a, const Query& b, const Model& model, Scratch* sa,
                 Scratch* sb) const;

  // Reasons, tags and advice for a candidate evaluated with `q`.
  CandidateDetail Describe(const Query& q, const CandidateEval& c) const;
  // The full rule trace, set scores and weights.
  CandidateExplanation Explain(const Query& q, const CandidateEval& c) const;

  const Catalog& catalog() const { return catalog_; }
  const Estimator& estimator() const { return estimator_; }
  const Profiles& profiles() const { return profiles_; }
  const rules::CompiledRules& rules() const { return *rules_.rules; }
  const Facts& facts() const { return *rules_.facts; }

 private:
  class SizingCache;
  // Fills every fact of `c` into s->values (all layers, as needed).
  void Fill(const Query& q, const CandidateEval& c, Scratch* s) const;
  // Estimates `model` at catalog quant `quant_index` on the query's setup (scale-out: on the
  // fewest GPUs that run it natively, else the most).
  void EstimateCandidate(const Query& q, const Model& model, int quant_index,
                         CandidateEval* c) const;
  // The sizing of a candidate (batch and KV cache chosen) on the first setup variant it runs
  // on natively (sizing says so: a finish changes no fit), else the last, into *variant, with
  // its input in *input: from `cache` (may be null), where setup_ids[v] names variant v's
  // setup (equal ids: SameSetup), else into `own`. An estimate is SizeOn then
  // Estimator::Finish.
  const Sizing* SizeOn(const Query& q, const Model& model, int quant_index, SizingCache* cache,
                       const int* setup_ids, Sizing* own, EstimateInput* input,
                       int* variant) const;
  // SizeOn on setup variant `variant` alone. `native_only`: the caller reads only whether the
  // result runs natively (a variant before the last): a first sizing whose weights overflow the
  // setup is returned as it is, no other batch or KV cache type being tried (none would run
  // natively either).
  const Sizing* SizeOnVariant(const Query& q, const Model& model, int quant_index, int variant,
                              SizingCache* cache, const int* setup_ids, Sizing* own,
                              EstimateInput* input, bool native_only) const;
  // A candidate sized (SizeOn) on the setup variant it runs on and not yet finished.
  struct Pending {
    int quant_index = 0;
    int variant = 0;
    EstimateInput input;
    const Sizing* sized = nullptr;  // in the SizingCache, valid until it is cleared
  };
  // True if a rule reading only context facts gates every candidate of `model` with `q` on
  // setup variant `variant` (rules::CompiledRules::ContextGated).
  bool ContextGated(const Query& q, int variant, const Model& model, Scratch* s) const;
  // The most the sized candidate `p` of `model` can score with `q` whatever
  // its speeds: no Score::raw (hence Score::score) of it is larger. From its early facts
  // alone (Facts::FillEarly, rules::CompiledRules::Bound). `items` (may be null) holds what
  // the rules reading only item facts gave for this model's quantizations, by quant index:
  // cleared whenever the model changes.
  double MostScore(const Query& q, const Model& model, const Pending& p, Scratch* s,
                   rules::ItemMemo* items) const;
  // The set bounds MostScore last left in `bounded` (with `q`, or a query SameBound with it),
  // under q's weights: the candidate's best possible score with `q`.
  double WeighedBound(const Query& q, const Scratch& bounded) const;
  // ScoreCandidate with `items` as for MostScore.
  void ScoreCandidate(const Query& q, CandidateEval* c, Scratch* s, rules::ItemMemo* items) const;
  // ScoreCandidate of `c` right after MostScore of it with the same query and scratch: fills
  // the speeds and evaluates the rules MostScore did not (CompiledRules::Score after_bound).
  void ScoreAfterBound(const Query& q, CandidateEval* c, Scratch* s) const;
  // What ScoreCandidate sets from the rules' result in `s`.
  void Finalize(const Query& q, CandidateEval* c, Scratch* s) const;
  // The estimate of `p`: Estimator::Finish of its sizing.
  void FinishCandidate(const Query& q, const Model& model, const Pending& p,
                       CandidateEval* c) const;
  // Fills the setup (variant), workload and model facts, each only if it changed.
  void FillContext(const Query& q, int variant, const Model& model, Scratch* s) const;

  const ModelWorkloadText& TextFor(const Query& q, const Model& model, Scratch* s) const;

  const Catalog& catalog_;
  const Estimator& estimator_;
  const Profiles& profiles_;
  ScoringRules rules_;
  // The catalog's newest Model::release_month (0 if none): a model's age is MonthsSince its
  // own, a subtraction, so nothing per model is kept.
  double newest_release_month_ = 0;
  // A catalog model's capabilities for a workload, described by whichever thread asks first
  // (TextFor) and kept (null until then; a thread that loses the race to publish its own
  // description drops it and uses the first). Pointers, not the texts: a table of 5 x ~430
  // texts made up front was ~50 first-touched memory pages of every start-up.
  // [workload index in profiles x catalog models + model index in catalog]
  std::unique_ptr<std::atomic<const ModelWorkloadText*>[]> texts_;
  std::vector<int> reason_rank_;  // per rule set: position in the profiles' reason order
  // Facts::RowsReadBy the rules: what a Scratch without all_facts is filled with.
  std::vector<uint8_t> scored_rows_;
  const uint8_t* RowsFor(const Scratch& s) const {
    return s.all_facts ? nullptr : scored_rows_.data();
  }
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_SCORING_EVALUATE_H_
