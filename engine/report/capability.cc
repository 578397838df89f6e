#include "engine/report/capability.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/quantities.h"

namespace fitrank {

absl::string_view RunStatusName(RunStatus s) {
  switch (s) {
    case RunStatus::kNative: return "native";
    case RunStatus::kOffload: return "offload";
    case RunStatus::kNo: return "no";
    case RunStatus::kUnknown: break;
  }
  return "unknown";
}

RunStatus RunStatusOf(FitKind kind) {
  switch (kind) {
    case FitKind::kNativeComfortable:
    case FitKind::kNativeTight:
      return RunStatus::kNative;
    case FitKind::kOffload:
      return RunStatus::kOffload;
    case FitKind::kNoFit:
      break;
  }
  return RunStatus::kNo;
}

namespace {

CapabilityRow LlmRow(const ReportEnv& env, const Setup& setup, const CapabilitySpec& spec,
                     const Mode& mode) {
  const ReportPolicy& pol = *env.policy;
  CapabilityRow row;
  row.id = spec.id;
  row.label = spec.label;
  const Model* m = FirstKnownModel(*env.catalog, spec.models);
  const Quant* q = spec.quant.found;
  if (m == nullptr || q == nullptr) {
    row.status = RunStatus::kUnknown;
    row.detail = pol.Note("gpu.capability.no-model", {});
    return row;
  }
  row.model = m->name;
  row.model_id = m->id;
  row.quant = q->id;
  LlmRun run = RunLlm(env, setup, *m, *q, ShapeFor(*spec.workload, mode));
  const Estimate& e = run.estimate;
  row.memory_gb = e.memory.total_gb;
  if (!run.runnable()) {
    row.status = RunStatus::kNo;
    row.detail = pol.Note("gpu.capability.cannot-run", {{"quant", q->id}});
    return row;
  }
  row.status = RunStatusOf(e.fit.kind);
  row.decode_tok_s = e.decode_tok_s;
  if (row.status == RunStatus::kNative) {
    row.detail = pol.Note("gpu.capability.llm-native", {{"decode_tok_s", e.decode_tok_s},
                                                        {"needs", FormatGb(e.memory.total_gb)},
                                                        {"usable", FormatGb(e.memory.usable_gb)}});
  } else if (row.status == RunStatus::kOffload) {
    row.detail = pol.Note("gpu.capability.llm-offload",
                          {{"decode_tok_s", e.decode_tok_s}, {"offload_pct", e.fit.offload_pct}});
  } else {
    row.detail = pol.Note("gpu.capability.too-big", {{"needs", FormatGb(e.memory.total_gb)},
                                                     {"usable", FormatGb(e.memory.usable_gb)}});
  }
  return row;
}

CapabilityRow DiffusionRowFor(const ReportEnv& env, const Setup& setup,
                              const CapabilitySpec& spec) {
  const ReportPolicy& pol = *env.policy;
  CapabilityRow row;
  row.id = spec.id;
  row.label = spec.label;
  const DiffusionModel* d = FirstKnownDiffusion(*env.catalog, spec.models);
  if (d == nullptr) {
    row.status = RunStatus::kUnknown;
    row.detail = pol.Note("gpu.capability.no-model", {});
    return row;
  }
  row.model = d->name;
  row.model_id = d->id;
  DiffusionInput in;
  in.setup = &setup;
  in.model = d;
  if (spec.kind == CapabilityKind::kVideo) in.frames = spec.frames;
  DiffusionEstimate e;
  env.estimator->RunDiffusion(in, &e);
  row.status = RunStatusOf(e.fit);
  row.memory_gb = e.total_gb;
  row.quant = std::string(e.precision);  // shown beside the model name
  if (row.status == RunStatus::kNo) {
    row.detail = pol.Note("gpu.capability.too-big",
                          {{"needs", FormatGb(e.total_gb)}, {"usable", FormatGb(e.usable_gb)}});
    return row;
  }
  if (spec.kind == CapabilityKind::kVideo) {
    row.ms_per_frame = e.seconds_per_frame * 1000;
    row.detail = pol.Note("gpu.capability.video", {{"per_frame", FormatSeconds(e.seconds_per_frame)},
                                                   {"width", e.width},
                                                   {"height", e.height},
                                                   {"frames", e.frames}});
  } else {
    row.seconds_per_image = e.seconds_per_image;
    row.detail = pol.Note("gpu.capability.image", {{"per_image", FormatSeconds(e.seconds_per_image)},
                                                   {"width", e.width},
                                                   {"height", e.height},
                                                   {"steps", e.steps}});
  }
  if (row.status == RunStatus::kOffload) row.detail += pol.Note("gpu.capability.with-offload", {});
  return row;
}

}  // namespace

std::vector<CapabilityRow> BuildCapabilityMatrix(const ReportEnv& env, const Setup& setup,
                                                 const Mode& mode) {
  std::vector<CapabilityRow> rows;
  for (const CapabilitySpec& spec : env.policy->capability_rows) {
    rows.push_back(spec.kind == CapabilityKind::kLlm ? LlmRow(env, setup, spec, mode)
                                      : DiffusionRowFor(env, setup, spec));
  }
  return rows;
}

DiffusionSummary BuildDiffusionSummary(const ReportEnv& env, const Setup& setup) {
  DiffusionSummary s;
  for (const DiffusionModel& d : env.catalog->diffusion()) {
    DiffusionInput in;
    in.setup = &setup;
    in.model = &d;
    DiffusionEstimate e;
    env.estimator->RunDiffusion(in, &e);
    DiffusionRow row;
    row.model = d.name;
    row.model_id = d.id;
    row.kind = d.kind;
    row.status = RunStatusOf(e.fit);
    row.precision = std::string(e.precision);
    row.width = e.width;
    row.height = e.height;
    row.steps = e.steps;
    row.frames = d.kind == DiffusionKind::kVideo ? e.frames : 0;
    row.memory_gb = e.total_gb;
    if (row.status != RunStatus::kNo) {
      if (d.kind == DiffusionKind::kVideo) {
        row.ms_per_frame = e.seconds_per_frame * 1000;
      } else {
        row.seconds_per_image = e.seconds_per_image;
      }
      ++s.runnable;
      if (row.status == RunStatus::kNative) ++s.native;
    }
    ++s.total;
    s.rows.push_back(row);
  }
  s.basis = env.policy->Note("gpu.diffusion-basis", {});
  return s;
}

}  // namespace fitrank
