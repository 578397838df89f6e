// Grades, best quantizations and ranked picks for the reports, from the rule engine
// (engine/scoring/evaluate.h): exactly what `fitrank rules explain` and `fitrank sweep` see for
// the same setup, workload and mode.
//
// Thread safety: all methods are const and may be called from any number of threads; prepared
// queries are cached per (setup, workload, mode) under a mutex, because the reports of one
// page ask the same question many times. A setup is the same question when its devices (the
// catalog's GPU records and their counts), host RAM and bandwidth and parallelism are; the
// workload and mode are the profiles' records, compared by address.
//
// Memory: the cache keeps at most `max_queries` prepared queries, dropping the least recently
// used, so a long-running server asked about ever new setups (`fitrank serve`, where the setup
// and `ram=` come from the query string) stays bounded. A query in use when it is dropped lives
// on until its caller is done with it (shared ownership). A question about a (setup, mode) the
// cache holds for another workload copies that query's setups and plans (Evaluator::PrepareLike).
#ifndef FITRANK_ENGINE_REPORT_GRADER_H_
#define FITRANK_ENGINE_REPORT_GRADER_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"

#include "catalog/types.h"
#include "engine/estimator/setup.h"
#include "engine/report/report.h"
#include "engine/scoring/evaluate.h"
#include "profiles/profiles.h"

namespace fitrank {

struct ReportPolicy;  // engine/report/policy.h

struct Graded {
  int grade_index = -1;               // into the profiles' grade scale, best first; -1 not graded
  double score = 0;                   // 0-100
  bool excluded = false;              // a gate excluded the candidate
  std::vector<std::string> reasons;   // sentences of the rules that fired
  std::vector<std::string> tags;
  std::vector<std::string> advice;    // advice ids of the rules that fired
};

// Every catalog quantization of one model graded for one workload (Grader::GradeModelEach).
struct GradedModel {
  // Catalog quant order: what Grade(..., Detail::kScore) gives for each (empty if the
  // candidate could not be evaluated). Empty if the question could not be prepared.
  std::vector<Graded> quants;
  const Quant* best = nullptr;  // what BestQuant gives (nullptr if none runs)
  Graded best_graded;           // its grade, in the detail asked (empty without a best)
};

class Grader {
 public:
  // Enough for every (workload, mode) pair of a few dozen setups: one GPU page asks about one
  // setup and up to ~20 pairs. A prepared query holds a copy of the setup and per-quant runtime
  // choices: a few kB, so the cap bounds the cache at a few MB. Engineering choice, not measured.
  static constexpr size_t kDefaultMaxQueries = 512;

  // `policy` writes the grade-cap note (reports.yaml `grade.capped`); `evaluator` and `policy`
  // must outlive the Grader. `max_queries` >= 1.
  Grader(const Evaluator& evaluator, const ReportPolicy& policy,
         size_t max_queries = kDefaultMaxQueries)
      : eval_(&evaluator), policy_(&policy), max_queries_(max_queries < 1 ? 1 : max_queries) {}

  // What a grade carries. kScore: the grade, score and exclusion only (reasons, tags and
  // advice empty), for tables that show grades: the rules' sentences are most of a grade's cost.
  enum class Detail { kScore, kSentences };

  // Grades `model` at `quant` on `setup` for a workload and mode. Empty (grade_index -1) if the
  // candidate cannot be evaluated (a quant the catalog does not list, a setup Prepare refuses).
  Graded Grade(const Setup& setup, const Model& model, const Quant& quant,
               const Workload& workload, const Mode& mode,
               Detail detail = Detail::kSentences) const;
  // The model's best quantization on the setup by the same rules (nullptr if none runs),
  // with its grade in `graded` (optional).
  const Quant* BestQuant(const Setup& setup, const Model& model, const Workload& workload,
                         const Mode& mode, Graded* graded,
                         Detail detail = Detail::kSentences) const;
  // One model at every quantization for each of `workloads`: element i grades it for
  // workloads[i], its best's grade in `detail[i]` (kScore when `detail` is shorter). One
  // evaluation of the model per workload (Evaluator::EvaluateModel), where BestQuant and a
  // Grade per quantization would evaluate it again for each quantization.
  std::vector<GradedModel> GradeModelEach(const Setup& setup, const Model& model,
                                          const std::vector<const Workload*>& workloads,
                                          const Mode& mode,
                                          const std::vector<Detail>& detail = {}) const;
  // The top `k` picks for the workload and mode, ranked; each pick filled completely, its run
  // command for the setup the candidate was estimated on (scale-out: its GPU count).
  // Excluded (gated) candidates are never returned. `threads`: the threads the ranking runs
  // on (Evaluator::RankGroups: the same picks whatever it is); leave it 1 when calling from
  // several threads already.
  std::vector<Pick> Rank(const Setup& setup, const Workload& workload, const Mode& mode,
                         int k, int threads = 1) const;
  // Rank() for each of `workloads` at once: element i is Rank(setup, *workloads[i], mode, k).
  // One pass over the models (Evaluator::RankGroups), so that workloads whose estimates share
  // their sizing (same context and batch: e.g. coding, rag and reasoning) size each candidate
  // once. `threads`: as Rank().
  std::vector<std::vector<Pick>> RankEach(const Setup& setup,
                                          const std::vector<const Workload*>& workloads,
                                          const Mode& mode, int k, int threads = 1) const;

  const Evaluator& evaluator() const { return *eval_; }

  // How many prepared queries the cache holds now (<= max_queries), for tests and metrics.
  size_t cached_queries() const;

 private:
  // The question a prepared query answers: the parts of a setup a user chooses (the rest, host
  // TFLOPS, GPU link and label, follows from the devices as BuildSetup derives it; a link
  // forced through SetupOptions::link is not told apart), the workload and the mode.
  // Pointers are compared, never dereferenced. Without the workload (nullptr): the key of
  // like_.
  struct QueryKey {
    absl::InlinedVector<std::pair<const Gpu*, int>, 2> devices;  // (GPU, count), setup order
    double host_ram_gb = 0;
    double host_bandwidth_gbps = 0;
    Parallelism parallelism = Parallelism::kLayer;
    bool parallelism_defaulted = true;
    const Workload* workload = nullptr;
    const Mode* mode = nullptr;

    bool operator==(const QueryKey&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const QueryKey& k) {
      return H::combine(std::move(h), k.devices, k.host_ram_gb, k.host_bandwidth_gbps,
                        k.parallelism, k.parallelism_defaulted, k.workload, k.mode);
    }
  };
  struct Cached {
    std::shared_ptr<const Query> query;
    std::list<QueryKey>::iterator recency;  // its key's place in recency_
    QueryKey setup_mode;                    // its key in like_
  };

  std::shared_ptr<const Query> QueryFor(const Setup& setup, const Workload& workload,
                                        const Mode& mode) const;
  Graded GradedOf(const Query& q, const CandidateEval& c,
                  Detail detail = Detail::kSentences) const;
  // The top `k` picks of a ranking made with `q`.
  std::vector<Pick> PicksOf(const Query& q, const Ranking& r, const Workload& workload,
                            int k) const;

  const Evaluator* eval_;
  const ReportPolicy* policy_;
  const size_t max_queries_;
  mutable std::mutex mu_;
  mutable std::list<QueryKey> recency_;  // keys, most recently used first
  mutable absl::flat_hash_map<QueryKey, Cached> queries_;
  // For each (setup, mode) of the cache, its latest query, whose setups and plans a query for
  // another workload copies (Evaluator::PrepareLike); entries leave with their query.
  mutable absl::flat_hash_map<QueryKey, std::weak_ptr<const Query>> like_;
};

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_GRADER_H_
