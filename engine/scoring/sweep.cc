#include "engine/scoring/sweep.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "base/thread.h"

namespace fitrank {
namespace {

// The cells of one GPU, ranked by a worker, waiting for the writer: for each workload and
// mode, one cell per evaluator.
struct GpuSlot {
  std::vector<SweepCell> cells;
  std::vector<std::unique_ptr<Query>> queries;
  bool done = false;
};

void RankGpu(const std::vector<const Evaluator*>& evals, const SweepPlan& plan, const Gpu& gpu,
             const std::vector<const Workload*>& workloads, const std::vector<const Mode*>& modes,
             std::vector<std::unique_ptr<Evaluator::Scratch>>* scratch, GpuSlot* slot,
             std::atomic<long long>* candidates) {
  const Evaluator& eval = *evals[0];
  SetupOptions options;
  options.interconnects = &eval.catalog().interconnects();
  absl::StatusOr<Setup> setup = BuildSetup(eval.estimator(), {{&gpu, 1}}, options);
  const size_t ne = evals.size();
  const size_t per_workload = modes.size() * ne;
  const size_t cells = workloads.size() * per_workload;
  while (scratch->size() < cells) {
    scratch->push_back(std::make_unique<Evaluator::Scratch>(*evals[scratch->size() % ne]));
  }
  // Every cell's query, in plan order; then the groups of cells whose estimates coincide
  // (modes of one workload, under every evaluator), all ranked in one pass so that workloads
  // and modes of the same context share their sizings.
  // The first workload's query of a mode and evaluator is prepared; the other workloads'
  // copy its setups and plans (Evaluator::PrepareLike), which depend only on the mode.
  std::vector<const Query*> queries(cells, nullptr);
  for (const Workload* w : workloads) {
    for (size_t m = 0; m < modes.size(); ++m) {
      for (const Evaluator* e : evals) {
        SweepCell cell;
        cell.gpu = &gpu;
        cell.workload = w;
        cell.mode = modes[m];
        const size_t index = slot->cells.size();
        const Query* like = index >= per_workload ? queries[index % per_workload] : nullptr;
        if (!setup.ok()) {
          cell.error = std::string(setup.status().message());
        } else if (like != nullptr) {
          slot->queries.push_back(e->PrepareLike(*like, *w));
        } else if (absl::StatusOr<std::unique_ptr<Query>> q = e->Prepare(*setup, *w, *modes[m]);
                   !q.ok()) {
          cell.error = std::string(q.status().message());
        } else {
          slot->queries.push_back(*std::move(q));
        }
        if (cell.error.empty()) queries[index] = cell.query = slot->queries.back().get();
        slot->cells.push_back(std::move(cell));
      }
    }
  }
  std::vector<std::vector<const Query*>> groups;
  std::vector<std::vector<Evaluator::Scratch*>> scratches;
  std::vector<std::vector<size_t>> members;
  for (size_t w = 0; w < workloads.size(); ++w) {
    const size_t first = w * per_workload;
    std::vector<bool> done(per_workload, false);
    for (size_t m = 0; m < per_workload; ++m) {
      if (queries[first + m] == nullptr || done[m]) continue;
      groups.push_back({queries[first + m]});
      scratches.push_back({(*scratch)[first + m].get()});
      members.push_back({first + m});
      for (size_t k = m + 1; k < per_workload; ++k) {
        if (queries[first + k] != nullptr && !done[k] &&
            Evaluator::SameEstimates(*queries[first + m], *queries[first + k])) {
          groups.back().push_back(queries[first + k]);
          scratches.back().push_back((*scratch)[first + k].get());
          members.back().push_back(first + k);
          done[k] = true;
        }
      }
      done[m] = true;
    }
  }
  std::vector<std::vector<Ranking>> rankings;
  eval.RankGroups(groups, scratches, &rankings, /*threads=*/1, std::max(plan.top, 0),
                  /*excluded=*/false);
  for (size_t g = 0; g < groups.size(); ++g) {
    *candidates += rankings[g][0].candidates;
    for (size_t i = 0; i < members[g].size(); ++i) {
      slot->cells[members[g][i]].ranking = std::move(rankings[g][i]);
    }
  }
}

}  // namespace

long long RunSweep(const Evaluator& eval, const SweepPlan& plan,
                   const std::function<void(const SweepCell&)>& emit,
                   const std::function<void(int, int)>& progress) {
  return RunSweeps({&eval}, plan, [&](int, const SweepCell& cell) { emit(cell); }, progress);
}

long long RunSweeps(const std::vector<const Evaluator*>& evals, const SweepPlan& plan,
                    const std::function<void(int, const SweepCell&)>& emit,
                    const std::function<void(int, int)>& progress) {
  const Evaluator& eval = *evals[0];
  std::vector<const Gpu*> gpus = plan.gpus;
  if (gpus.empty()) {
    for (const Gpu& g : eval.catalog().gpus()) gpus.push_back(&g);
  }
  std::vector<const Workload*> workloads = plan.workloads;
  if (workloads.empty()) {
    for (const Workload& w : eval.profiles().workloads()) workloads.push_back(&w);
  }
  std::vector<const Mode*> modes = plan.modes;
  if (modes.empty()) {
    for (const Mode& m : eval.profiles().modes()) modes.push_back(&m);
  }
  const int n = static_cast<int>(gpus.size());
  const int threads = std::max(1, std::min(plan.threads, n));
  // Workers may run at most this far ahead of the writer, to bound memory.
  const int window = 4 * threads;

  std::vector<GpuSlot> slots(n);
  std::mutex mu;
  std::condition_variable ready, room;
  std::atomic<int> next{0};
  std::atomic<long long> candidates{0};
  int written = 0;  // guarded by mu

  auto worker = [&] {
    std::vector<std::unique_ptr<Evaluator::Scratch>> scratch;
    while (true) {
      int i = next.fetch_add(1);
      if (i >= n) return;
      {
        std::unique_lock<std::mutex> lock(mu);
        room.wait(lock, [&] { return i < written + window; });
      }
      GpuSlot slot;
      RankGpu(evals, plan, *gpus[i], workloads, modes, &scratch, &slot, &candidates);
      std::lock_guard<std::mutex> lock(mu);
      slots[i] = std::move(slot);
      slots[i].done = true;
      ready.notify_all();
    }
  };
  std::vector<Thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (int i = 0; i < n; ++i) {
    GpuSlot slot;
    {
      std::unique_lock<std::mutex> lock(mu);
      ready.wait(lock, [&] { return slots[i].done; });
      slot = std::move(slots[i]);
    }
    for (size_t c = 0; c < slot.cells.size(); ++c) {
      emit(static_cast<int>(c % evals.size()), slot.cells[c]);
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      written = i + 1;
      room.notify_all();
    }
    if (progress) progress(i + 1, n);
  }
  for (Thread& t : pool) t.Join();
  return candidates.load();
}

}  // namespace fitrank
