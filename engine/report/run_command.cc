#include "engine/report/run_command.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace fitrank {

namespace {

bool Uses(const std::string& t, absl::string_view placeholder) {
  return absl::StrContains(t, placeholder);
}

bool IsGguf(const Quant& q) { return absl::StartsWith(q.family, "gguf-"); }

std::string RepoName(const Model& m) {
  const std::string& repo = m.hf_repo.empty() ? m.id : m.hf_repo;
  return repo.substr(repo.rfind('/') + 1);
}

// A checkpoint of `quant` the catalog knows: the model's own repo for 16-bit weights and its
// release quant, else the AWQ/GPTQ/FP8 repo it lists. "" when none.
std::string KnownCheckpoint(const Model& m, const Quant& q) {
  if (m.hf_repo.empty()) return "";
  if (q.id == m.release_quant) return m.hf_repo;
  if (q.family == "float" && m.release_quant.empty()) return m.hf_repo;
  if (q.id == "AWQ-4bit") return m.awq_repo;
  if (q.id == "GPTQ-4bit") return m.gptq_repo;
  if (q.id == "FP8") return m.fp8_repo;
  return "";
}

std::string QuantizeStep(const Model& m, const Quant& q, const std::string& dir) {
  return absl::StrCat("# quantize first: ", m.hf_repo, " to ", q.id, " in ", dir, " with ",
                      q.quantize_with.empty() ? "a tool that writes that format"
                                              : q.quantize_with,
                      " (no ", q.id, " checkpoint of this model is known)");
}

// Layers on the GPUs: all of them when the estimate runs natively, else the share it kept.
int GpuLayers(const Model& m, const Estimate& e) {
  const int all = m.layers < 99 ? 99 : 999;  // llama.cpp caps -ngl at the model's layers
  if (e.fit.kind != FitKind::kOffload) return all;
  return std::max(0, static_cast<int>(std::floor(m.layers * (1 - e.fit.offload_pct / 100))));
}

std::string LlamaCppSplit(const Setup& setup, const Estimate& e) {
  if (setup.device_count < 2) return "";
  std::string out = e.parallelism == Parallelism::kTensor ? " -sm row" : " -sm layer";
  if (setup.mixed) {
    std::vector<std::string> parts;
    for (const DeviceGroup& g : setup.devices) {
      for (int i = 0; i < g.count; ++i) {
        parts.push_back(absl::StrCat(static_cast<int>(std::lround(g.gpu->memory_gb))));
      }
    }
    absl::StrAppend(&out, " -ts ", absl::StrJoin(parts, ","));
  }
  return out;
}

}  // namespace

const Quant* ServedQuant(const Catalog& catalog, const Runtime& runtime, const Model& model,
                         const Quant& quant) {
  if (runtime.tag_quant.empty() || (!model.gguf_repo.empty() && IsGguf(quant))) return &quant;
  return catalog.QuantById(model.release_quant.empty() ? runtime.tag_quant
                                                       : model.release_quant);
}

RunPlan PlanRun(const Catalog& catalog, const Runtime& runtime, const Model& model,
                const Quant& quant, const Setup& setup, const Estimate& estimate, int context) {
  RunPlan plan;
  const std::string& t = runtime.command;
  if (t.empty()) return plan;
  const Quant* served = ServedQuant(catalog, runtime, model, quant);
  if (served == nullptr) return plan;
  plan.quant = served;
  plan.gpus = setup.device_count;
  if ((Uses(t, "{hf_repo}") || Uses(t, "{checkpoint}")) && model.hf_repo.empty()) return plan;

  // Ollama: pin the quant from the GGUF repo, else the library tag (which serves `served`).
  std::string ollama_model;
  if (Uses(t, "{ollama_model}") || Uses(t, "{ollama_tag}")) {
    if (!model.gguf_repo.empty() && IsGguf(*served)) {
      ollama_model = absl::StrCat("hf.co/", model.gguf_repo, ":", served->id);
    } else if (!model.ollama_tag.empty()) {
      ollama_model = model.ollama_tag;
    } else {
      return plan;
    }
  }

  // The weights at the quant: a known checkpoint, else a local directory quantized first.
  // ExLlamaV2 loads local directories only.
  const bool local_only = Uses(t, "-m {checkpoint}");
  std::string known = KnownCheckpoint(model, *served);
  if (Uses(t, "{checkpoint}")) {
    if (!known.empty() && !local_only) {
      plan.checkpoint = known;
    } else {
      plan.checkpoint = absl::StrCat(local_only ? "models/" : "./", RepoName(model), "-",
                                     served->id);
      plan.steps.push_back(
          known.empty() ? QuantizeStep(model, *served, plan.checkpoint)
                        : absl::StrCat("huggingface-cli download ", known, " --local-dir ",
                                       plan.checkpoint));
    }
  }
  // llama.cpp: a GGUF repo the catalog knows, else a local file named after the model and
  // quant (16-bit GGUF files are made by convert_hf_to_gguf.py, the others by llama-quantize).
  std::string gguf;
  if (Uses(t, "{gguf}")) {
    if (!model.gguf_repo.empty()) {
      gguf = absl::StrCat("-hf ", model.gguf_repo, ":", served->id);
      plan.checkpoint = absl::StrCat(model.gguf_repo, ":", served->id);
    } else {
      plan.checkpoint = absl::StrCat(model.id, "-", served->id, ".gguf");
      gguf = absl::StrCat("-m ", plan.checkpoint);
    }
  }
  if (!ollama_model.empty()) plan.checkpoint = ollama_model;

  const bool tensor = setup.device_count > 1 && estimate.parallelism == Parallelism::kTensor;
  const int tp = tensor ? setup.device_count : 1;
  const int pp = tensor ? 1 : setup.device_count;
  const absl::string_view kv = KvCacheTypeName(estimate.kv_cache);
  const std::string kv_env =
      estimate.kv_cache == KvCacheType::kF16
          ? ""
          : absl::StrCat(" OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=", kv);
  const std::string exl_split =
      setup.device_count < 2 ? "" : (tensor ? " -tp" : " -gs auto");
  auto fill = [&](const std::string& text) {
    return absl::StrReplaceAll(text, {{"{model}", model.id},
                                      {"{gguf}", gguf},
                                      {"{checkpoint}", plan.checkpoint},
                                      {"{hf_repo}", model.hf_repo},
                                      {"{ollama_tag}", model.ollama_tag},
                                      {"{ollama_model}", ollama_model},
                                      {"{quant}", served->id},
                                      {"{gpus}", absl::StrCat(setup.device_count)},
                                      {"{tp}", absl::StrCat(tp)},
                                      {"{pp}", absl::StrCat(pp)},
                                      {"{gpu_layers}", absl::StrCat(GpuLayers(model, estimate))},
                                      {"{split}", LlamaCppSplit(setup, estimate)},
                                      {"{exl_split}", exl_split},
                                      {"{context}", absl::StrCat(std::max(1, context))},
                                      {"{kv_cache}", kv},
                                      {"{kv_env}", kv_env}});
  };
  if (!runtime.server_command.empty()) plan.steps.push_back(fill(runtime.server_command));
  plan.command = fill(t);
  return plan;
}

}  // namespace fitrank
