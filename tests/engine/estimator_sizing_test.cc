// The estimator's fast paths give exactly the numbers of the slow ones: constant tables against
// the case search, Size + Finish (and its decode-only form) against Run, Run against Explain, and the ranker's shared
// sizings against ranking each query alone.
#include <string>
#include <tuple>
#include <vector>

#include "engine/estimator/estimator.h"
#include "base/file_source.h"
#include "engine/estimator/basis.h"
#include "engine/scoring/sweep.h"
#include "gtest/gtest.h"
#include "tests/engine/same_results.h"
#include "tests/engine/scoring_test_util.h"

namespace fitrank {
namespace {

using testing::ExpectSameEstimate;
using testing::ExpectSameRanking;
using testing::Shipped;


TEST(ConstantTables, LookupAndResolveGiveWhatTheCaseSearchGives) {
  const Constants& k = Shipped().estimator->constants();
  const int families = static_cast<int>(k.runtime_families().size());
  int keys = 0, cased = 0;
  for (int backend = -1; backend < kBackendCount; ++backend) {
    for (int runtime = -1; runtime < families; ++runtime) {
      for (int quant = -1; quant < kQuantFamilyCount; ++quant) {
        for (int memory = -1; memory < kMemoryKindCount; ++memory) {
          // Segment, MoE-ness and size class cycle with the other fields, so that every value
          // of each meets every value of the others above.
          ConstantKey key;
          key.backend = static_cast<int8_t>(backend);
          key.runtime = static_cast<int8_t>(runtime);
          key.quant = static_cast<int8_t>(quant);
          key.memory = static_cast<int8_t>(memory);
          key.segment = static_cast<int8_t>(keys % 8 - 1);  // -1 .. 6 (7 segments)
          key.moe = static_cast<int8_t>(keys % 3 - 1);
          key.size = static_cast<int8_t>(keys % 4 - 1);
          ResolvedConstants all;
          k.Resolve(key, &all);
          for (int i = 0; i < kConstantCount; ++i) {
            const ConstantCase* matched = nullptr;
            const double want = k.Get(K(i), key, &matched);
            if (matched != nullptr) ++cased;
            ASSERT_EQ(k.Lookup(K(i), key), want) << SpecOf(K(i)).name << " key #" << keys;
            ASSERT_EQ(all[K(i)], want) << SpecOf(K(i)).name << " key #" << keys;
          }
          ++keys;
        }
      }
    }
  }
  EXPECT_GT(cased, 0);  // the keys did select cases, not only defaults
  // A key outside the enums' ranges still answers like Get.
  ConstantKey odd;
  odd.runtime = 100;
  odd.memory = 1;
  EXPECT_EQ(k.Lookup(K::kDecodeBwEfficiency, odd), k.Get(K::kDecodeBwEfficiency, odd));
}

// Resolve keeps the last keys per thread: a key resolved again, or by another Constants (same
// key, other values) in between, gives each its own values.
TEST(ConstantTables, ResolveKeepsEachConstantsOwnValues) {
  const Constants& shipped = Shipped().estimator->constants();
  absl::StatusOr<std::string> yaml = EmbeddedSource().Read("engine/estimator/estimator.yaml");
  ASSERT_TRUE(yaml.ok());
  const std::string from = "    source: measured\n    value: 0.85\n";
  const size_t at = yaml->find(from);
  ASSERT_NE(at, std::string::npos);
  std::string edited = *yaml;
  edited.replace(at, from.size(), "    source: measured\n    value: 0.5\n");
  Diagnostics d;
  std::unique_ptr<Estimator> other = Estimator::FromYaml(edited, "edited.yaml", &d);
  ASSERT_NE(other, nullptr) << d.Render();
  ConstantKey key;  // GDDR: the default, not the HBM cases
  key.memory = static_cast<int8_t>(MemoryKind::kGddr);
  for (int round = 0; round < 3; ++round) {
    ResolvedConstants a, b;
    shipped.Resolve(key, &a);
    other->constants().Resolve(key, &b);
    EXPECT_EQ(a[K::kDecodeBwEfficiency], 0.85) << round;
    EXPECT_EQ(b[K::kDecodeBwEfficiency], 0.5) << round;
    for (int i = 0; i < kConstantCount; ++i) {
      ASSERT_EQ(a[K(i)], shipped.Get(K(i), key)) << SpecOf(K(i)).name;
      ASSERT_EQ(b[K(i)], other->constants().Get(K(i), key)) << SpecOf(K(i)).name;
    }
  }
}

struct Rig {
  std::string name;
  Setup setup;
  const Runtime* runtime = nullptr;
};

std::vector<Rig> Rigs() {
  const auto& e = Shipped();
  const Catalog& cat = *e.catalog;
  const Estimator& est = *e.estimator;
  SetupOptions opt;
  opt.interconnects = &cat.interconnects();
  std::vector<Rig> rigs;
  auto add = [&](std::string name, std::vector<DeviceGroup> devices, const char* runtime,
                 SetupOptions o) {
    absl::StatusOr<Setup> s = BuildSetup(est, std::move(devices), o);
    EXPECT_TRUE(s.ok()) << name << ": " << s.status();
    if (!s.ok()) return;
    rigs.push_back({name, *std::move(s), runtime ? cat.RuntimeById(runtime) : nullptr});
  };
  const Gpu* g4090 = cat.FindGpu("RTX 4090").found;
  const Gpu* g3090 = cat.FindGpu("RTX 3090").found;
  const Gpu* h100 = cat.FindGpu("NVIDIA H100 SXM5 80GB").found;
  const Gpu* m2 = cat.FindGpu("Apple M2 Ultra 192GB").found;
  const Gpu* g4060 = cat.FindGpu("RTX 4060").found;
  const Gpu* amd = cat.FindGpu("RX 7900 XTX").found;
  EXPECT_TRUE(g4090 && g3090 && h100 && m2 && g4060 && amd);
  if (!(g4090 && g3090 && h100 && m2 && g4060 && amd)) return rigs;
  add("4090", {{g4090, 1}}, "llama.cpp", opt);
  add("4090 + 2x 3090", {{g4090, 1}, {g3090, 2}}, "llama.cpp", opt);
  SetupOptions tp = opt;
  tp.parallelism = Parallelism::kTensor;
  add("4x H100 tensor", {{h100, 4}}, "vllm", tp);
  add("M2 Ultra", {{m2, 1}}, nullptr, opt);
  SetupOptions ram = opt;
  ram.host_ram_gb = 128;
  add("4060 offload", {{g4060, 1}}, "llama.cpp", ram);
  add("7900 XTX", {{amd, 1}}, nullptr, opt);
  return rigs;
}

TEST(SizeAndFinish, GiveWhatRunGivesForAnyPromptAndGeneration) {
  const auto& e = Shipped();
  const Estimator& est = *e.estimator;
  const std::vector<Rig> rigs = Rigs();
  ASSERT_EQ(rigs.size(), 6u);
  const char* quants[] = {"Q4_K_M", "Q8_0", "F16", "FP8", "AWQ-4bit", "EXL2"};
  int compared = 0, running = 0;
  for (const Rig& rig : rigs) {
    for (size_t mi = 0; mi < e.catalog->models().size(); mi += 7) {
      const Model& model = e.catalog->models()[mi];
      for (const char* qid : quants) {
        const Quant* quant = e.catalog->QuantById(qid);
        ASSERT_NE(quant, nullptr) << qid;
        for (int batch : {1, 8}) {
          EstimateInput in;
          in.setup = &rig.setup;
          in.model = &model;
          in.quant = quant;
          in.runtime = rig.runtime;
          in.context = batch == 1 ? 0 : 16384;  // 0: the default
          in.batch = batch;
          in.kv_cache = batch == 1 ? KvCacheType::kF16 : KvCacheType::kQ8_0;
          Sizing sizing;
          est.Size(in, &sizing);
          // The sizing was made for one prompt/generation; finish it for others.
          for (auto [prompt, gen] : {std::pair{0, 0}, {1000, 400}, {8000, 800}, {30, 6000}}) {
            EstimateInput x = in;
            x.prompt_tokens = prompt;
            x.gen_tokens = gen;
            Estimate run, finished;
            est.Run(x, &run);
            est.Finish(x, sizing, &finished);
            ExpectSameEstimate(run, finished, rig.name + " / " + model.id + " / " + qid);
            // The decode-only finish gives the same speed, to the bit.
            EXPECT_EQ(est.FinishDecodeTokS(x, sizing), run.decode_tok_s)
                << rig.name << " / " << model.id << " / " << qid;
            ++compared;
            if (run.decode_tok_s > 0) ++running;
            // Known once sized (0 for one that does not run), as the finish shows it.
            EXPECT_EQ(sizing.estimate.serving.max_concurrency, run.serving.max_concurrency);
          }
        }
      }
    }
  }
  EXPECT_GT(running, compared / 4);  // most of these run: the speeds were compared too
}

// A sizing made from another of the same candidate at other lengths, batch or KV cache type
// (Estimator::SizeLike, the ranker's way across workloads and modes) is the one Size makes:
// from any start, including one whose context is beyond the model's (a problem the other
// lengths may not have), and from a sizing made that way.
TEST(SizeLike, GivesWhatSizeGivesAtOtherLengthsBatchAndKvCache) {
  const auto& e = Shipped();
  const Estimator& est = *e.estimator;
  const std::vector<Rig> rigs = Rigs();
  ASSERT_EQ(rigs.size(), 6u);
  struct Shape {
    int context, batch;
    KvCacheType kv;
  };
  const std::vector<Shape> shapes = {
      {0, 1, KvCacheType::kF16},          {4096, 1, KvCacheType::kF16},
      {32768, 1, KvCacheType::kQ8_0},     {32768, 8, KvCacheType::kF16},
      {131072, 16, KvCacheType::kQ8_0},   {4096, 8, KvCacheType::kF16},
      {4 << 20, 1, KvCacheType::kF16},    {131072, 1, KvCacheType::kF16}};
  int compared = 0, safe_differs = 0, problems_differ = 0;
  for (const Rig& rig : rigs) {
    for (size_t mi = 3; mi < e.catalog->models().size(); mi += 11) {
      const Model& model = e.catalog->models()[mi];
      for (const char* qid : {"Q4_K_M", "Q8_0", "FP8"}) {
        const Quant* quant = e.catalog->QuantById(qid);
        ASSERT_NE(quant, nullptr) << qid;
        auto input = [&](const Shape& sh) {
          EstimateInput in;
          in.setup = &rig.setup;
          in.model = &model;
          in.quant = quant;
          in.runtime = rig.runtime;
          in.context = sh.context;
          in.batch = sh.batch;
          in.kv_cache = sh.kv;
          in.prompt_tokens = 1500;
          in.gen_tokens = 500;
          return in;
        };
        for (const Shape& from : shapes) {
          const EstimateInput first = input(from);
          Sizing start;
          est.Size(first, &start);
          Sizing chained = start;  // each shape sized like the one before it
          for (const Shape& to : shapes) {
            const EstimateInput in = input(to);
            const std::string what = rig.name + " / " + model.id + " / " + qid + " from " +
                                     std::to_string(from.context) + "x" +
                                     std::to_string(from.batch) + " to " +
                                     std::to_string(to.context) + "x" + std::to_string(to.batch);
            Sizing want, like, next;
            est.Size(in, &want);
            est.SizeLike(in, start, &like);
            est.SizeLike(in, chained, &next);
            chained = next;
            EXPECT_EQ(like.valid, want.valid) << what;
            ExpectSameEstimate(want.estimate, like.estimate, what);
            ExpectSameEstimate(want.estimate, next.estimate, what + " (chained)");
            Estimate finished_want, finished_like;
            est.Finish(in, want, &finished_want);
            est.Finish(in, like, &finished_like);
            ExpectSameEstimate(finished_want, finished_like, what + " (finished)");
            ++compared;
            if (start.estimate.safe_context != want.estimate.safe_context) ++safe_differs;
            if (start.estimate.problems != want.estimate.problems) ++problems_differ;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  // The starts differ from what was asked for where it matters.
  EXPECT_GT(safe_differs, compared / 10);
  EXPECT_GT(problems_differ, 0);
}

// A sizing made from one of the same candidate on another count of the same GPU
// (SameGpuOtherCount: scale-out's 2, 4 and 8, and the one GPU of the other modes) is the one
// Size makes, finished too: the parallelism, its problems (heads that do not divide), the fit
// and the safe context are worked out again for the count.
TEST(SizeLike, GivesWhatSizeGivesOnAnotherCountOfTheSameGpu) {
  const auto& e = Shipped();
  const Catalog& cat = *e.catalog;
  const Estimator& est = *e.estimator;
  SetupOptions one;
  one.interconnects = &cat.interconnects();
  SetupOptions tensor = one;
  tensor.parallelism = Parallelism::kTensor;
  int compared = 0, fit_differs = 0, problems_differ = 0, parallelism_differs = 0;
  for (const char* gpu : {"RTX 4090", "NVIDIA H100 SXM5 80GB", "RX 7900 XTX", "RTX 4060"}) {
    const Gpu* g = cat.FindGpu(gpu).found;
    ASSERT_NE(g, nullptr) << gpu;
    std::vector<fitrank::Setup> setups;  // gtest's Test has a Setup
    for (int count : {1, 2, 4, 8}) {
      absl::StatusOr<fitrank::Setup> s = BuildSetup(est, {{g, count}}, count == 1 ? one : tensor);
      ASSERT_TRUE(s.ok()) << gpu << " x" << count << ": " << s.status();
      setups.push_back(*std::move(s));
    }
    for (size_t mi = 1; mi < cat.models().size(); mi += 9) {
      const Model& model = cat.models()[mi];
      for (const char* qid : {"Q4_K_M", "Q8_0", "FP8", "AWQ-4bit"}) {
        const Quant* quant = cat.QuantById(qid);
        ASSERT_NE(quant, nullptr) << qid;
        const Runtime* runtime = est.DefaultRuntime(cat, setups[1], quant);
        for (const auto& [context, batch, kv] :
             {std::tuple{8192, 1, KvCacheType::kF16}, {32768, 16, KvCacheType::kF16},
              {131072, 8, KvCacheType::kQ8_0}}) {
          auto input = [&](const fitrank::Setup& setup) {
            EstimateInput in;
            in.setup = &setup;
            in.model = &model;
            in.quant = quant;
            in.runtime = runtime;
            in.context = context;
            in.batch = batch;
            in.kv_cache = kv;
            in.prompt_tokens = 2000;
            in.gen_tokens = 400;
            return in;
          };
          for (const fitrank::Setup& from : setups) {
            Sizing start;
            est.Size(input(from), &start);
            for (const fitrank::Setup& to : setups) {
              if (!SameGpuOtherCount(from, to)) continue;
              const EstimateInput in = input(to);
              const std::string what = std::string(gpu) + " / " + model.id + " / " + qid +
                                       " at " + std::to_string(context) + "x" +
                                       std::to_string(batch) + ", " +
                                       std::to_string(from.device_count) + " GPUs to " +
                                       std::to_string(to.device_count);
              Sizing want, like;
              est.Size(in, &want);
              est.SizeLike(in, start, &like);
              EXPECT_EQ(like.valid, want.valid) << what;
              ExpectSameEstimate(want.estimate, like.estimate, what);
              EXPECT_EQ(like.weights_overflow(), want.weights_overflow()) << what;
              Estimate finished_want, finished_like;
              est.Finish(in, want, &finished_want);
              est.Finish(in, like, &finished_like);
              ExpectSameEstimate(finished_want, finished_like, what + " (finished)");
              ++compared;
              if (start.estimate.fit.kind != want.estimate.fit.kind) ++fit_differs;
              if (start.estimate.problems != want.estimate.problems) ++problems_differ;
              if (start.estimate.parallelism != want.estimate.parallelism) ++parallelism_differs;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  // The starts differ from what was asked for where it matters.
  EXPECT_GT(fit_differs, compared / 10);
  EXPECT_GT(problems_differ, 0);
  EXPECT_GT(parallelism_differs, 0);
}

// A sizing whose weights overflow the setup (Sizing::weights_overflow) runs natively at no
// batch and with no KV cache type at its context: the ranker then tries neither on a scale-out
// setup it will pass over (Evaluator::SizeOnVariant's native_only). And the test is not
// empty: some sizings overflow and some that do not run natively do not.
TEST(WeightsOverflow, NoBatchOrKvCacheTypeRunsSuchASizingNatively) {
  const auto& e = Shipped();
  const Estimator& est = *e.estimator;
  int overflowing = 0, not_native_without = 0;
  for (const Rig& rig : Rigs()) {
    for (size_t mi = 2; mi < e.catalog->models().size(); mi += 5) {
      for (const char* qid : {"Q4_K_M", "Q8_0", "F16", "FP8"}) {
        for (int context : {8192, 65536}) {
          EstimateInput in;
          in.setup = &rig.setup;
          in.model = &e.catalog->models()[mi];
          in.quant = e.catalog->QuantById(qid);
          in.runtime = rig.runtime;
          in.context = context;
          in.batch = 16;
          Sizing first;
          est.Size(in, &first);
          if (!first.weights_overflow()) {
            if (first.valid && !first.estimate.runs_natively()) ++not_native_without;
            continue;
          }
          ++overflowing;
          EXPECT_FALSE(first.estimate.runs_natively());
          for (int batch : {1, 2, 16}) {
            for (KvCacheType kv : {KvCacheType::kF16, KvCacheType::kQ8_0, KvCacheType::kQ4_0}) {
              EstimateInput x = in;
              x.batch = batch;
              x.kv_cache = kv;
              Sizing other;
              est.Size(x, &other);
              EXPECT_FALSE(other.estimate.runs_natively())
                  << rig.name << " / " << in.model->id << " / " << qid << " at " << context
                  << " x " << batch << ", KV " << KvCacheTypeName(kv);
            }
          }
        }
      }
    }
  }
  EXPECT_GT(overflowing, 50);
  EXPECT_GT(not_native_without, 0);
}

// A ranker's batch-1 estimate leaves out the speeds of serving at capacity and nothing else;
// with more than one sequence offered the rules read them, and the flag changes nothing.
TEST(ServingSpeedsAtCapacity, OffLeavesOutOnlyTheBatchOneServingSpeeds) {
  const auto& e = Shipped();
  const Estimator& est = *e.estimator;
  int left_out = 0;
  for (const Rig& rig : Rigs()) {
    for (size_t mi = 1; mi < e.catalog->models().size(); mi += 13) {
      for (int batch : {1, 8}) {
        EstimateInput in;
        in.setup = &rig.setup;
        in.model = &e.catalog->models()[mi];
        in.quant = e.catalog->QuantById("Q4_K_M");
        in.runtime = rig.runtime;
        in.context = 8192;
        in.batch = batch;
        EstimateInput off_in = in;
        off_in.serving_speeds_at_capacity = false;
        Estimate on, off;
        est.Run(in, &on);
        est.Run(off_in, &off);
        const std::string what = rig.name + " / " + in.model->id + " x" + std::to_string(batch);
        Estimate want = on;
        if (batch == 1) {
          if (on.serving.aggregate_tok_s > 0) ++left_out;
          want.serving.aggregate_tok_s = 0;
          want.serving.per_user_tok_s = 0;
        }
        ExpectSameEstimate(want, off, what);
        EXPECT_EQ(off.serving.max_concurrency, on.serving.max_concurrency) << what;
      }
    }
  }
  EXPECT_GT(left_out, 10);
}

TEST(SizeAndFinish, InvalidInputStaysInvalid) {
  const Estimator& est = *Shipped().estimator;
  EstimateInput in;  // no setup, no model
  Sizing sizing;
  est.Size(in, &sizing);
  EXPECT_FALSE(sizing.valid);
  Estimate run, finished;
  est.Run(in, &run);
  est.Finish(in, sizing, &finished);
  EXPECT_EQ(finished.problems, kProblemInvalidInput);
  EXPECT_EQ(est.FinishDecodeTokS(in, sizing), 0);
  ExpectSameEstimate(run, finished, "invalid");
}

TEST(Explain, GivesTheNumbersRunGives) {
  const auto& e = Shipped();
  const Estimator& est = *e.estimator;
  for (const Rig& rig : Rigs()) {
    for (size_t mi = 0; mi < e.catalog->models().size(); mi += 41) {
      EstimateInput in;
      in.setup = &rig.setup;
      in.model = &e.catalog->models()[mi];
      in.quant = e.catalog->QuantById("Q4_K_M");
      in.runtime = rig.runtime;
      in.batch = 4;
      Estimate run, explained;
      Basis basis;
      est.Run(in, &run);
      est.Explain(in, &explained, &basis);
      ExpectSameEstimate(run, explained, rig.name + " / " + in.model->id);
    }
  }
}


TEST(RankGroups, SharedSizingsRankLikeEachQueryAlone) {
  const auto& e = Shipped();
  ASSERT_NE(e.evaluator, nullptr);
  fitrank::Setup setup = e.SetupOf("RTX 3090");
  // Workloads and modes that share contexts (coding and rag: 32768; scale-out on 2/4/8 GPUs
  // and light-api with its batch fallback) so that sizings are shared across groups.
  std::vector<std::unique_ptr<Query>> owned;
  std::vector<std::vector<const Query*>> groups;
  std::vector<std::unique_ptr<Evaluator::Scratch>> scratch_owned;
  std::vector<std::vector<Evaluator::Scratch*>> scratches;
  for (const char* w : {"coding", "rag", "chat"}) {
    for (const char* m : {"balanced", "background", "light-api", "scale-out"}) {
      owned.push_back(e.QueryOf(setup, w, m));
      scratch_owned.push_back(std::make_unique<Evaluator::Scratch>(*e.evaluator));
      groups.push_back({owned.back().get()});
      scratches.push_back({scratch_owned.back().get()});
    }
  }
  std::vector<std::vector<Ranking>> together;
  e.evaluator->RankGroups(groups, scratches, &together);
  ASSERT_EQ(together.size(), groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    Evaluator::Scratch s(*e.evaluator);
    Ranking alone = e.evaluator->Rank(*groups[g][0], &s);
    EXPECT_FALSE(alone.ranked.empty());
    ExpectSameRanking(together[g][0], alone,
                      groups[g][0]->workload->id + " / " + groups[g][0]->mode->id);
    // And each ranked estimate is what evaluating the candidate alone (no shared sizing) gives.
    for (size_t i = 0; i < together[g][0].ranked.size(); i += 5) {
      const CandidateEval& c = together[g][0].ranked[i];
      CandidateEval single = e.evaluator->Evaluate(*groups[g][0], *c.model, c.quant_index, &s);
      ExpectSameEstimate(c.estimate, single.estimate, "alone: " + c.model->id);
      EXPECT_EQ(c.score.score, single.score.score);
    }
  }
}

TEST(SameSetup, ComparesDevicesAndHost) {
  const auto& e = Shipped();
  fitrank::Setup a = e.SetupOf("RTX 4090");
  fitrank::Setup b = e.SetupOf("RTX 4090");
  EXPECT_TRUE(SameSetup(a, b));
  b.host_ram_gb += 1;
  EXPECT_FALSE(SameSetup(a, b));
  EXPECT_FALSE(SameSetup(a, e.SetupOf("RTX 3090")));
}

}  // namespace
}  // namespace fitrank
