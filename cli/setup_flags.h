// The hardware flags every estimate-style command shares, parsed into an engine Setup:
//   --gpu NAME (repeatable: a mixed rig)   --gpus N (N of the one --gpu)   --ram GB
//   --parallel layer|tensor                --runtime R
//   --free-memory, --sysroot DIR, --probe-timeout-ms MS (the detected setup, below)
// No GPU at all, or `--gpu auto`, means the GPUs detected on this machine (cli/detect.h) and
// its RAM (unless --ram); the first line of a table (stderr for other formats) says so.
// Reports and `estimate` use the same helper so the flags mean the same everywhere.
#ifndef FITRANK_CLI_SETUP_FLAGS_H_
#define FITRANK_CLI_SETUP_FLAGS_H_

#include <vector>

#include "catalog/catalog.h"
#include "cli/command.h"
#include "engine/estimator/estimator.h"
#include "engine/estimator/setup.h"

namespace fitrank::cli {

// The flag specs, to append to a command's flags. `runtime` adds --runtime.
std::vector<FlagSpec> SetupFlagSpecs(bool runtime = true);

struct ParsedSetup {
  Setup setup;
  const Runtime* runtime = nullptr;  // --runtime, or nullptr (the caller picks a default)
};

// Parses the flags of ctx.args, with `extra_gpus` (e.g. a positional GPU name) before the
// --gpu ones; the same GPU named twice is one group of two. Throws UsageError (exit 2) for: no
// GPU given and none detected; --free-memory with named GPUs; an unknown or ambiguous GPU / runtime (did-you-mean); --gpus outside 1..64 or with
// several GPUs; --ram outside 1..65536; --parallel other than layer|tensor; a setup BuildSetup
// refuses.
ParsedSetup ParseSetupFlags(Context& ctx, const Catalog& catalog, const Estimator& estimator,
                            std::vector<std::string> extra_gpus = {});

// The runtime flags of an estimate, as a user of that runtime would set them:
//   --kv-cache f16|q8_0|q4_0|fp8   (fp8: vLLM, SGLang, TensorRT-LLM; q8_0/q4_0: llama.cpp family)
//   --max-num-seqs N               (running-sequence limit of a serving engine, 1..65536)
//   --backend cuda|rocm|vulkan|metal|sycl|cpu
//   --flash-attn on|off            --ubatch N (micro-batch tokens, 1..65536)
std::vector<FlagSpec> EstimateFlagSpecs();
// Parses them into `in` (left at the defaults when absent). Throws UsageError (exit 2) for an
// unknown value (with the accepted ones) or a KV cache type `runtime` does not offer.
void ParseEstimateFlags(Context& ctx, const Estimator& estimator, const Runtime* runtime,
                        EstimateInput* in);

// The estimator constants (engine/estimator/estimator.yaml from ctx.data), loaded once per data source.
// Diagnostics are printed to ctx.err and the command ends with exit 2 (ExitNow).
const Estimator& LoadEstimator(Context& ctx);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_SETUP_FLAGS_H_
