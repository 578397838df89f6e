#include "engine/report/grader.h"

#include <algorithm>

#include "engine/report/env.h"
#include "engine/report/policy.h"
#include "engine/report/run_command.h"

namespace fitrank {

std::shared_ptr<const Query> Grader::QueryFor(const Setup& setup, const Workload& workload,
                                              const Mode& mode) const {
  QueryKey setup_mode;
  for (const DeviceGroup& d : setup.devices) setup_mode.devices.push_back({d.gpu, d.count});
  setup_mode.host_ram_gb = setup.host_ram_gb;
  setup_mode.host_bandwidth_gbps = setup.host_bandwidth_gbps;
  setup_mode.parallelism = setup.parallelism;
  setup_mode.parallelism_defaulted = setup.parallelism_defaulted;
  setup_mode.mode = &mode;
  QueryKey key = setup_mode;
  key.workload = &workload;
  std::shared_ptr<const Query> like;  // a query of the same setup and mode, if one is cached
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = queries_.find(key);
    if (it != queries_.end()) {
      recency_.splice(recency_.begin(), recency_, it->second.recency);
      return it->second.query;
    }
    auto l = like_.find(setup_mode);
    if (l != like_.end()) like = l->second.lock();
  }
  // Prepared outside the lock: other pages' questions do not wait for this one. Two threads
  // asking the same new question both prepare it; the second keeps the first's.
  std::shared_ptr<const Query> prepared;
  if (like != nullptr) {
    prepared = eval_->PrepareLike(*like, workload);
  } else {
    absl::StatusOr<std::unique_ptr<Query>> q = eval_->Prepare(setup, workload, mode);
    if (!q.ok()) return nullptr;
    prepared = std::move(*q);
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = queries_.find(key);
  if (it != queries_.end()) {
    recency_.splice(recency_.begin(), recency_, it->second.recency);
    return it->second.query;
  }
  while (queries_.size() >= max_queries_) {
    auto dropped = queries_.find(recency_.back());
    auto l = like_.find(dropped->second.setup_mode);
    if (l != like_.end() && l->second.lock() == dropped->second.query) like_.erase(l);
    queries_.erase(dropped);
    recency_.pop_back();
  }
  recency_.push_front(key);
  like_[setup_mode] = prepared;
  queries_.emplace(std::move(key), Cached{prepared, recency_.begin(), std::move(setup_mode)});
  return prepared;
}

size_t Grader::cached_queries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queries_.size();
}

Graded Grader::GradedOf(const Query& q, const CandidateEval& c, Detail detail) const {
  Graded g;
  g.grade_index = c.score.grade;
  g.score = c.score.score;
  g.excluded = c.score.gated;
  if (detail == Detail::kScore) return g;
  CandidateDetail d = eval_->Describe(q, c);
  g.reasons = d.reasons;
  if (c.score.capped && c.cap_rule >= 0) {
    g.reasons.push_back(policy_->Note(
        "grade.capped", {{"grade", eval_->profiles().grades().grades[c.score.cap].letter},
                         {"rule", eval_->rules().rules()[c.cap_rule].id}}));
  }
  if (!d.excluded_reason.empty()) g.reasons.push_back(d.excluded_reason);
  g.tags = d.tags;
  g.advice = d.advice;
  return g;
}

Graded Grader::Grade(const Setup& setup, const Model& model, const Quant& quant,
                     const Workload& workload, const Mode& mode, Detail detail) const {
  const std::shared_ptr<const Query> q = QueryFor(setup, workload, mode);
  if (q == nullptr) return {};
  const int index = eval_->catalog().QuantIndex(quant);
  if (index < 0) return {};
  Evaluator::Scratch scratch(*eval_);
  CandidateEval c = eval_->Evaluate(*q, model, index, &scratch);
  if (!c.evaluated) return {};
  return GradedOf(*q, c, detail);
}

const Quant* Grader::BestQuant(const Setup& setup, const Model& model,
                               const Workload& workload, const Mode& mode, Graded* graded,
                               Detail detail) const {
  const std::shared_ptr<const Query> q = QueryFor(setup, workload, mode);
  if (q == nullptr) return nullptr;
  Evaluator::Scratch scratch(*eval_);
  ModelEval me = eval_->EvaluateModel(*q, model, &scratch);
  if (me.best < 0) return nullptr;
  const CandidateEval& c = me.quants[me.best];
  if (graded != nullptr) *graded = GradedOf(*q, c, detail);
  return c.quant;
}

std::vector<GradedModel> Grader::GradeModelEach(const Setup& setup, const Model& model,
                                                const std::vector<const Workload*>& workloads,
                                                const Mode& mode,
                                                const std::vector<Detail>& detail) const {
  std::vector<GradedModel> out(workloads.size());
  // One scratch for all: it refills what a new query changes. Each evaluation is graded before
  // the next: holding them all (~20 kB each) would only touch fresh memory.
  Evaluator::Scratch scratch(*eval_);
  for (size_t i = 0; i < workloads.size(); ++i) {
    const std::shared_ptr<const Query> q = QueryFor(setup, *workloads[i], mode);
    if (q == nullptr) continue;
    const ModelEval me = eval_->EvaluateModel(*q, model, &scratch);
    GradedModel& g = out[i];
    g.quants.reserve(me.quants.size());
    for (const CandidateEval& c : me.quants) {
      g.quants.push_back(c.evaluated ? GradedOf(*q, c, Detail::kScore) : Graded());
    }
    if (me.best < 0) continue;
    const CandidateEval& best = me.quants[me.best];
    g.best = best.quant;
    g.best_graded = GradedOf(*q, best, i < detail.size() ? detail[i] : Detail::kScore);
  }
  return out;
}

std::vector<Pick> Grader::Rank(const Setup& setup, const Workload& workload,
                               const Mode& mode, int k, int threads) const {
  return std::move(RankEach(setup, {&workload}, mode, k, threads)[0]);
}

std::vector<std::vector<Pick>> Grader::RankEach(const Setup& setup,
                                                const std::vector<const Workload*>& workloads,
                                                const Mode& mode, int k,
                                                int threads) const {
  std::vector<std::vector<Pick>> out(workloads.size());
  std::vector<std::shared_ptr<const Query>> queries;  // kept alive while ranked
  std::vector<size_t> where;                          // queries[j] answers workloads[where[j]]
  for (size_t i = 0; i < workloads.size(); ++i) {
    std::shared_ptr<const Query> q = QueryFor(setup, *workloads[i], mode);
    if (q == nullptr) continue;
    queries.push_back(std::move(q));
    where.push_back(i);
  }
  // One group per query: each ranked as Rank() would, the pass over the models shared.
  std::vector<std::vector<const Query*>> groups;
  std::vector<std::unique_ptr<Evaluator::Scratch>> scratches;
  std::vector<std::vector<Evaluator::Scratch*>> scratch;
  for (const auto& q : queries) {
    groups.push_back({q.get()});
    scratches.push_back(std::make_unique<Evaluator::Scratch>(*eval_));
    scratch.push_back({scratches.back().get()});
  }
  // Only the first k models of each ranking become picks: the ranker is asked for those
  // (`top`), so that a candidate that cannot enter them is neither finished nor scored.
  std::vector<std::vector<Ranking>> rankings;
  eval_->RankGroups(groups, scratch, &rankings, threads, /*top=*/std::max(k, 0),
                    /*excluded=*/false);
  for (size_t j = 0; j < queries.size(); ++j) {
    out[where[j]] = PicksOf(*queries[j], rankings[j][0], *workloads[where[j]], k);
  }
  return out;
}

std::vector<Pick> Grader::PicksOf(const Query& query, const Ranking& r, const Workload& workload,
                                  int k) const {
  const Query* q = &query;
  std::vector<Pick> out;
  for (const CandidateEval& c : r.ranked) {
    if (static_cast<int>(out.size()) >= k) break;
    if (c.score.gated || c.model == nullptr || c.quant == nullptr) continue;
    Graded g = GradedOf(*q, c);
    Pick p;
    p.rank = static_cast<int>(out.size()) + 1;
    p.workload = &workload;
    p.model = c.model;
    p.quant = c.quant;
    p.grade_index = g.grade_index;
    p.score = c.score.score;
    p.quality = c.quality;
    const Estimate& e = c.estimate;
    p.decode_tok_s = c.user_tok_s > 0 ? c.user_tok_s : e.decode_tok_s;
    p.decode_low_tok_s = e.range.decode_low;
    p.decode_high_tok_s = e.range.decode_high;
    p.ttft_ms = e.ttft_ms;
    p.context = c.context;
    p.kv_cache = e.kv_cache;
    p.fit.kind = e.fit.kind;
    p.fit.headroom_pct = e.fit.headroom_pct;
    p.fit.offload_pct = e.fit.offload_pct;
    p.fit.host_ram_gb = e.fit.host_ram_gb;
    p.runtime = c.runtime;
    p.tags = g.tags;
    p.reasons = g.reasons;
    p.gpus = c.gpus();
    if (c.setup != nullptr) {
      p.usable_note =
          UsableMemoryNote(eval_->estimator(), *policy_, c.runtime, *c.setup,
                           e.memory.usable_gb);
    }
    // The command runs what was estimated: the candidate's setup (scale-out: its GPU count).
    if (c.runtime != nullptr && c.setup != nullptr) {
      RunPlan plan = PlanRun(eval_->catalog(), *c.runtime, *c.model, *c.quant, *c.setup, e,
                             p.context);
      if (plan.quant == c.quant) {
        p.run_command = plan.command;
        p.run_steps = plan.steps;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace fitrank
