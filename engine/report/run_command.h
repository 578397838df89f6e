// Run commands that run exactly the candidate a report row describes: the weights at that
// quantization (a GGUF repo and file, an AWQ/GPTQ/FP8 checkpoint the catalog knows, else a
// "quantize first" step naming the tool), as many GPUs as the estimate used, split the way it
// assumed (tensor or pipeline/layer), the context and KV cache type it was sized for, and the
// layers it kept on the GPUs when it offloads.
//
// Templates and platform support are data (catalog/runtimes.yaml: `command`, `server_command`,
// `tag_quant`, `platforms`); this file fills the placeholders listed in that file's source
// note. Pure functions; thread-safe.
#ifndef FITRANK_ENGINE_REPORT_RUN_COMMAND_H_
#define FITRANK_ENGINE_REPORT_RUN_COMMAND_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/setup.h"

namespace fitrank {

struct RunPlan {
  // The launch command; "" when the runtime cannot load this model at this quant by any
  // command the catalog can name (no Hugging Face repo, no Ollama tag or GGUF repo ...).
  std::string command;
  // Shell lines to run before `command`, in order: downloads, a quantize step naming the tool
  // (as a comment: it is a job, not one command), the server with its settings (Ollama).
  std::vector<std::string> steps;
  const Quant* quant = nullptr;  // the quant `command` loads (what the row's numbers must be
                                 // for); null when the runtime serves none of the catalog's
  std::string checkpoint;  // what it loads: a repo, a GGUF repo:quant, a local file or directory
  int gpus = 0;            // GPUs it runs on
};

// The quant `runtime` actually loads when asked for `quant` of `model`: `quant` itself, except
// for a runtime with a `tag_quant` (Ollama) when the model has no GGUF repo to pin the quant
// from: then its library tag's quant (the model's release quant if it was published below 16
// bits, else `tag_quant`). nullptr when that quant is not in the catalog.
const Quant* ServedQuant(const Catalog& catalog, const Runtime& runtime, const Model& model,
                         const Quant& quant);

// The command for `runtime` running `model` at `quant` on `setup` (the setup the estimate was
// made on: scale-out picks run on more GPUs than the page's one) as `estimate` sized it
// (parallelism, KV cache type, offload), with a context of `context` tokens. `quant` should
// be ServedQuant(...); otherwise the plan says what it serves in `quant`.
RunPlan PlanRun(const Catalog& catalog, const Runtime& runtime, const Model& model,
                const Quant& quant, const Setup& setup, const Estimate& estimate, int context);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_RUN_COMMAND_H_
