// Candidate evaluations per second with a shipped-size rule book (42 rules over 10 sets,
// with regexes, list membership, arithmetic, workload/mode applicability, caps and gates).
//
//   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFITRANK_BENCHMARKS=ON
//   cmake --build build --target rules_eval_bench && build/bench/rules_eval_bench
//
// items_per_second of BM_Evaluate is the figure to watch (aim: > 2M per core).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/file_source.h"
#include "benchmark/benchmark.h"
#include "rules/compiled_rules.h"
#include "rules/facts.h"

namespace fitrank::rules {
namespace {

constexpr char kRules[] = R"yaml(schema: fitrank.rules/v1
set: fit
rules:
  - {id: fit.native-comfortable, desc: d, when: 'fit.kind == "native" and fit.headroom_pct >= 15', score: 30, say: "Fits with {fit.headroom_pct:.0f}% headroom."}
  - {id: fit.native-tight, desc: d, when: 'fit.kind == "native" and fit.headroom_pct < 15', score: '10 + fit.headroom_pct', cap: B, say: "Tight."}
  - {id: fit.offload, desc: d, when: 'fit.kind == "offload"', score: '-4 * fit.offload_pct', cap: C, say: "Spills {fit.offload_pct:.0f}%."}
  - {id: fit.none, desc: d, when: 'fit.kind == "none"', gate: true, say: "Does not fit."}
  - {id: fit.context-squeezed, desc: d, when: 'fit.context_fit_pct < 100', score: '-(100 - fit.context_fit_pct) / 5', say: "Context squeezed."}
  - {id: fit.multi-gpu, desc: d, when: 'setup.gpu_count > 1 and fit.kind == "native"', score: -3, modes: [balanced, interactive], say: "Needs several GPUs."}
---
)yaml"
                       R"yaml(schema: fitrank.rules/v1
set: speed
rules:
  - {id: speed.fast, desc: d, when: 'perf.decode_tok_s >= workload.target_tok_s * 2', score: 20, say: "Fast."}
  - {id: speed.ok, desc: d, when: 'perf.decode_tok_s >= workload.target_tok_s and perf.decode_tok_s < workload.target_tok_s * 2', score: '10 * perf.decode_tok_s / workload.target_tok_s', say: "OK."}
  - {id: speed.slow, desc: d, when: 'perf.decode_tok_s < workload.target_tok_s', score: '-clamp((workload.target_tok_s - perf.decode_tok_s) / workload.target_tok_s * 40, 0, 40)', cap: C, say: "Slow."}
  - {id: speed.crawl, desc: d, when: 'perf.decode_tok_s < 3', gate: true, say: "Crawls."}
  - {id: speed.log-bonus, desc: d, when: 'perf.decode_tok_s > 0', score: 'min(log2(perf.decode_tok_s), 8)', say: "Log bonus."}
)yaml";

// The remaining sets, as separate files.
constexpr char kRules2[] = R"yaml(schema: fitrank.rules/v1
set: responsiveness
rules:
  - {id: responsiveness.snappy, desc: d, when: 'perf.ttft_ms <= 300', score: 15, workloads: [chat, coding, agentic], say: "Snappy."}
  - {id: responsiveness.sluggish, desc: d, when: 'perf.ttft_ms > 2000', score: '-min(perf.ttft_ms / 200, 25)', say: "Sluggish."}
  - {id: responsiveness.interactive-mode, desc: d, when: 'perf.ttft_ms > 800', modes: [interactive], score: -10, cap: B, say: "Too slow for interactive."}
  - {id: responsiveness.prefill, desc: d, when: 'perf.prefill_tok_s < 500 and workload.prompt_tokens > 4000', score: -8, say: "Slow prefill."}
)yaml";
constexpr char kRules3[] = R"yaml(schema: fitrank.rules/v1
set: quality
rules:
  - {id: quality.size, desc: d, score: 'clamp(log2(max(model.params_b, 1)) * 4, 0, 30)', say: "Size."}
  - {id: quality.active, desc: d, when: 'model.active_params_b < model.params_b', score: '-2', say: "MoE."}
  - {id: quality.bench, desc: d, when: 'known(model.quality_score)', score: 'model.quality_score / 5', say: "Bench."}
  - {id: quality.quant-loss, desc: d, when: 'quant.bits < 4', score: '-(4 - quant.bits) * 6', cap: C, say: "Heavy quantization."}
  - {id: quality.quant-q4, desc: d, when: 'quant.bits >= 4 and quant.bits < 6', score: -1, say: "Q4."}
  - {id: quality.tiny, desc: d, when: 'model.params_b < 3', score: -15, workloads: [coding, agentic, reasoning], cap: D, say: "Tiny."}
)yaml";
constexpr char kRules4[] = R"yaml(schema: fitrank.rules/v1
set: context
rules:
  - {id: context.long, desc: d, when: 'model.context_k >= 128', score: 8, workloads: [rag, agentic], say: "Long context."}
  - {id: context.short, desc: d, when: 'model.context_k < 32', score: -10, workloads: [rag, agentic, coding], say: "Short context."}
  - {id: context.rag-need, desc: d, when: '"long-context" in model.capabilities', score: 4, workloads: [rag], say: "Built for long context."}
---
)yaml"
                        R"yaml(schema: fitrank.rules/v1
set: specialization
rules:
  - {id: specialization.coder, desc: d, when: 'model.name =~ "(?i)coder|devstral|codestral"', workloads: [coding, agentic], score: 12, say: "Coder."}
  - {id: specialization.tools, desc: d, when: '"tools" in model.capabilities', workloads: [agentic], score: 10, say: "Tools."}
  - {id: specialization.no-tools, desc: d, when: '"tools" not in model.capabilities', workloads: [agentic], score: -20, cap: C, say: "No tools."}
  - {id: specialization.thinking, desc: d, when: 'model.thinking', workloads: [reasoning], score: 15, say: "Thinks."}
  - {id: specialization.vision, desc: d, when: '"vision" in model.capabilities and workload.id == "chat"', score: 2, say: "Vision."}
  - {id: specialization.math, desc: d, when: 'model.name =~ "(?i)math|qwq|r1"', workloads: [reasoning], score: 5, say: "Math."}
)yaml";
constexpr char kRules5[] = R"yaml(schema: fitrank.rules/v1
set: recency
rules:
  - {id: recency.new, desc: d, when: 'model.release_year >= 2025', score: 6, say: "New."}
  - {id: recency.old, desc: d, when: 'model.release_year < 2023', score: '-(2023 - model.release_year) * 3', say: "Old."}
---
)yaml"
                        R"yaml(schema: fitrank.rules/v1
set: ecosystem
rules:
  - {id: ecosystem.family, desc: d, when: 'model.family in ["llama", "qwen", "mistral", "gemma", "deepseek", "phi"]', score: 3, say: "Popular family."}
  - {id: ecosystem.runtime, desc: d, when: 'setup.runtime in ["llama.cpp", "vllm", "mlx"]', score: 2, say: "Good runtime."}
  - {id: ecosystem.license, desc: d, when: 'model.license =~ "^(apache|mit)"', score: 2, say: "Open license."}
)yaml";
constexpr char kRules6[] = R"yaml(schema: fitrank.rules/v1
set: serving
rules:
  - {id: serving.throughput, desc: d, modes: [light-api, scale-out], score: 'clamp(perf.aggregate_tok_s / 100, 0, 20)', say: "Throughput."}
  - {id: serving.batch, desc: d, modes: [light-api], when: 'perf.aggregate_tok_s < workload.concurrency * 10', score: -10, cap: C, say: "Batch too small."}
  - {id: serving.background, desc: d, modes: [background], when: 'perf.decode_tok_s >= 5', score: 5, say: "Fine unattended."}
  - {id: serving.scale, desc: d, modes: [scale-out], when: 'setup.gpu_count >= 4 and setup.interconnect_gbps < 64', score: -6, say: "Weak interconnect."}
---
)yaml"
                        R"yaml(schema: fitrank.rules/v1
set: cost
rules:
  - {id: cost.cheap, desc: d, when: 'known(price.usd) and price.usd < 1000', score: 5, say: "Cheap."}
  - {id: cost.per-token, desc: d, when: 'known(price.usd) and perf.decode_tok_s > 0', score: '-min(price.usd / perf.decode_tok_s / 50, 10)', say: "Cost per token."}
  - {id: cost.power, desc: d, when: 'setup.tdp_w > 600', score: -2, say: "Power hungry."}
)yaml";

struct Fixture {
  std::shared_ptr<FactSchema> schema = std::make_shared<FactSchema>();
  std::shared_ptr<const CompiledRules> book;
  std::vector<std::unique_ptr<FactValues>> candidates;
  std::vector<std::vector<std::string>> caps_storage;
  std::vector<std::string> names;
};

std::vector<std::string> SplitDocs(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t sep = s.find("---\n", start);
    out.push_back(s.substr(start, sep == std::string::npos ? std::string::npos : sep - start));
    if (sep == std::string::npos) break;
    start = sep + 4;
  }
  return out;
}

Fixture& Get() {
  static Fixture* fx = [] {
    auto* f = new Fixture();
    FactSchema& s = *f->schema;
    auto num = [&](const char* n) { return s.Number(n, "bench"); };
    NumberFact headroom = num("fit.headroom_pct"), offload = num("fit.offload_pct"),
               ctx_fit = num("fit.context_fit_pct"), gpus = num("setup.gpu_count"),
               decode = num("perf.decode_tok_s"), target = num("workload.target_tok_s"),
               ttft = num("perf.ttft_ms"), prefill = num("perf.prefill_tok_s"),
               prompt = num("workload.prompt_tokens"), params = num("model.params_b"),
               active = num("model.active_params_b"), quality = num("model.quality_score"),
               bits = num("quant.bits"), ctx = num("model.context_k"),
               year = num("model.release_year"), agg = num("perf.aggregate_tok_s"),
               conc = num("workload.concurrency"), ic = num("setup.interconnect_gbps"),
               price = num("price.usd"), tdp = num("setup.tdp_w");
    StringFact kind = s.String("fit.kind", "bench"), name = s.String("model.name", "bench"),
               family = s.String("model.family", "bench"),
               runtime = s.String("setup.runtime", "bench"),
               license = s.String("model.license", "bench");
    StringListFact caps = s.StringList("model.capabilities", "bench");
    BoolFact thinking = s.Bool("model.thinking", "bench");

    MemorySource src;
    int n = 0;
    for (const char* text : {kRules, kRules2, kRules3, kRules4, kRules5, kRules6}) {
      for (const std::string& doc : SplitDocs(text)) {
        src.Set("rules/" + std::to_string(n++) + ".yaml", doc);
      }
    }
    CompileOptions opts;
    opts.vocab.workloads = {{"chat", {}}, {"coding", {}}, {"agentic", {"agentic-coding"}},
                            {"rag", {}}, {"reasoning", {}}};
    opts.vocab.modes = {{"balanced", {}}, {"interactive", {}}, {"background", {}},
                        {"light-api", {}}, {"scale-out", {}}};
    opts.vocab.sets = {"fit", "speed", "responsiveness", "quality", "context",
                       "specialization", "recency", "ecosystem", "serving", "cost"};
    RuleSources sources;
    sources.shipped = &src;
    Diagnostics diags;
    auto book = LoadRules(sources, f->schema, opts, &diags);
    if (!book.ok()) {
      std::fprintf(stderr, "%s\n", diags.Render().c_str());
      std::abort();
    }
    f->book = *book;

    const char* model_names[] = {"Qwen2.5-Coder-32B-Instruct", "Llama-3.1-8B-Instruct",
                                 "DeepSeek-R1-Distill-Qwen-14B", "Mistral-Small-24B",
                                 "gemma-2-2b-it", "QwQ-32B", "Devstral-Small", "Phi-4"};
    const char* families[] = {"qwen", "llama", "deepseek", "mistral", "gemma", "qwen",
                              "mistral", "phi"};
    const char* kinds[] = {"native", "native", "offload", "native", "none", "native"};
    f->caps_storage = {{"tools", "long-context"}, {"tools"}, {"thinking"}, {"tools", "vision"}};
    for (int i = 0; i < 64; ++i) {
      auto v = std::make_unique<FactValues>(s);
      v->Set(headroom, (i * 7) % 40);
      v->Set(offload, (i * 3) % 30);
      v->Set(ctx_fit, 60 + (i * 11) % 41);
      v->Set(gpus, 1 + i % 4);
      v->Set(decode, 2 + (i * 13) % 120);
      v->Set(target, 20 + (i % 3) * 10);
      v->Set(ttft, 100 + (i * 97) % 3000);
      v->Set(prefill, 200 + (i * 37) % 4000);
      v->Set(prompt, 1000 + (i % 5) * 2000);
      v->Set(params, 1.5 + (i * 5) % 70);
      v->Set(active, 1.5 + (i * 3) % 70);
      if (i % 3) v->Set(quality, 40 + i % 50);
      v->Set(bits, 2 + i % 7);
      v->Set(ctx, 8 << (i % 5));
      v->Set(year, 2021 + i % 5);
      v->Set(agg, 50 + (i * 31) % 3000);
      v->Set(conc, 1 + i % 16);
      v->Set(ic, 16 << (i % 4));
      if (i % 4) v->Set(price, 300 + i * 97);
      v->Set(tdp, 150 + (i * 23) % 600);
      v->Set(kind, kinds[i % 6]);
      v->Set(name, model_names[i % 8]);
      v->Set(family, families[i % 8]);
      v->Set(runtime, i % 2 ? "llama.cpp" : "vllm");
      v->Set(license, i % 3 ? "apache-2.0" : "llama3.1");
      v->Set(caps, absl::Span<const std::string>(f->caps_storage[i % 4]));
      v->Set(thinking, i % 8 == 2 || i % 8 == 5);
      f->candidates.push_back(std::move(v));
    }
    return f;
  }();
  return *fx;
}

// Candidates x workloads x modes, as a sweep visits them.
void BM_Evaluate(benchmark::State& state) {
  Fixture& f = Get();
  EvalResult result;
  size_t i = 0;
  double sink = 0;
  for (auto _ : state) {
    const FactValues& v = *f.candidates[i & 63];
    f.book->Evaluate(v, static_cast<int>(i % 5), static_cast<int>((i / 5) % 5), &result);
    sink += result.set_total[0];
    ++i;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());
  state.counters["rules"] = f.book->rule_count();
}
BENCHMARK(BM_Evaluate);

// The slow path, for reference: every rule with its rendered sentence.
void BM_Explain(benchmark::State& state) {
  Fixture& f = Get();
  size_t i = 0;
  for (auto _ : state) {
    Explanation ex = f.book->Explain(*f.candidates[i & 63], static_cast<int>(i % 5), 0);
    benchmark::DoNotOptimize(ex);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Explain);

}  // namespace
}  // namespace fitrank::rules
