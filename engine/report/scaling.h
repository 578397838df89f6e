// Multi-GPU scaling of one GPU (1x/2x/4x/8x: usable memory, models that fit, effective
// bandwidth) and the "just out of reach" list (strong models that need more memory, and the
// N-GPU setup of the same GPU that runs them), from the estimator.
#ifndef FITRANK_ENGINE_REPORT_SCALING_H_
#define FITRANK_ENGINE_REPORT_SCALING_H_

#include <vector>

#include "engine/report/env.h"
#include "engine/report/gpu.h"

namespace fitrank {

// How the report counts "models that fit": assistant models of the catalog that fit natively
// at the policy's count_quant and the count_workload's context (mode's scaling applied),
// with the setup's default runtime. The same function backs the scaling table, compare and
// the upgrade planner, so their counts always agree.
int CountNativeModels(const ReportEnv& env, const Setup& setup, const Mode& mode,
                      int* total = nullptr);

// One row per policy scale_out_counts entry that the GPU can be built with (unified-memory
// machines only have 1x). `base` supplies the host RAM.
MultiGpuView BuildScaling(const ReportEnv& env, const Gpu& gpu, const Setup& base,
                          const Mode& mode);

// The best way to run `model` natively on `count` of `gpu`: tensor parallel with a quant a
// tensor-parallel runtime loads, or a layer split at the count quant, whichever is faster.
// False if neither runs natively.
struct ScaleOutRun {
  int gpus = 0;
  std::string via;        // link name
  std::string parallel;   // "tensor" | "layer"
  std::string quant;
  double decode_tok_s = 0;
};
bool BestScaleOut(const ReportEnv& env, const Gpu& gpu, int count, const Setup& base,
                  const Model& model, const Mode& mode, ScaleOutRun* out);

// Strong models (better than the best model that already runs natively) that do not run
// natively on `setup`, the ones needing the least memory first.
std::vector<OutOfReach> BuildOutOfReach(const ReportEnv& env, const Setup& setup,
                                        const Mode& mode);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_SCALING_H_
