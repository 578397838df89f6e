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

std::string Gb(double gb) { return FormatGb(gb); }

std::string TimeText(double seconds) { return seconds > 0 ? FormatSeconds(seconds) : ""; }

std::string FrameText(double seconds_per_frame) {
  return seconds_per_frame > 0 ? absl::StrCat(FormatSeconds(seconds_per_frame), "/frame") : "";
}

CapabilityRow LlmRow(const ReportEnv& env, const Setup& setup, const CapabilitySpec& spec,
                     const Mode& mode) {
  CapabilityRow row;
  row.id = spec.id;
  row.label = spec.label;
  const Model* m = FirstKnownModel(*env.catalog, spec.models);
  const Quant* q = spec.quant.found;
  if (m == nullptr || q == nullptr) {
    row.status = RunStatus::kUnknown;
    row.detail = "no representative model in the catalog";
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
    row.detail = absl::StrCat(q->id, " cannot run on this setup");
    return row;
  }
  row.status = RunStatusOf(e.fit.kind);
  row.decode_tok_s = e.decode_tok_s;
  if (row.status == RunStatus::kNative) {
    row.detail = absl::StrFormat("%.0f tok/s; %s of %s", e.decode_tok_s, Gb(e.memory.total_gb),
                                 Gb(e.memory.usable_gb));
  } else if (row.status == RunStatus::kOffload) {
    row.detail = absl::StrFormat("%.1f tok/s; %.0f%% in host RAM", e.decode_tok_s,
                                 e.fit.offload_pct);
  } else {
    row.detail = absl::StrCat("needs ", Gb(e.memory.total_gb), ", has ", Gb(e.memory.usable_gb));
  }
  return row;
}

CapabilityRow DiffusionRowFor(const ReportEnv& env, const Setup& setup,
                              const CapabilitySpec& spec) {
  CapabilityRow row;
  row.id = spec.id;
  row.label = spec.label;
  const DiffusionModel* d = FirstKnownDiffusion(*env.catalog, spec.models);
  if (d == nullptr) {
    row.status = RunStatus::kUnknown;
    row.detail = "no representative model in the catalog";
    return row;
  }
  row.model = d->name;
  row.model_id = d->id;
  DiffusionInput in;
  in.setup = &setup;
  in.model = d;
  if (spec.kind == "video") in.frames = spec.frames;
  DiffusionEstimate e;
  env.estimator->RunDiffusion(in, &e);
  row.status = RunStatusOf(e.fit);
  row.memory_gb = e.total_gb;
  row.quant = std::string(e.precision);  // shown beside the model name
  if (row.status == RunStatus::kNo) {
    row.detail = absl::StrCat("needs ", Gb(e.total_gb), ", has ", Gb(e.usable_gb));
    return row;
  }
  if (spec.kind == "video") {
    row.ms_per_frame = e.seconds_per_frame * 1000;
    row.detail = absl::StrCat("~", FrameText(e.seconds_per_frame), " at ", e.width, "x",
                              e.height, ", ", e.frames, " frames");
  } else {
    row.seconds_per_image = e.seconds_per_image;
    row.detail = absl::StrCat("~", TimeText(e.seconds_per_image), " per image at ", e.width, "x",
                              e.height, ", ", e.steps, " steps");
  }
  if (row.status == RunStatus::kOffload) row.detail += " (with offload)";
  return row;
}

}  // namespace

std::vector<CapabilityRow> BuildCapabilityMatrix(const ReportEnv& env, const Setup& setup,
                                                 const Mode& mode) {
  std::vector<CapabilityRow> rows;
  for (const CapabilitySpec& spec : env.policy->capability_rows) {
    rows.push_back(spec.kind == "llm" ? LlmRow(env, setup, spec, mode)
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
    row.frames = d.kind == "video" ? e.frames : 0;
    row.memory_gb = e.total_gb;
    if (row.status != RunStatus::kNo) {
      if (d.kind == "video") {
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
  s.basis =
      "Each model at its default resolution, steps and frame count, with the denoiser at the "
      "highest precision that stays on the GPU (BF16, else FP8 or GGUF Q8_0, else Q4_0; text "
      "encoders at 16 bits, run before sampling); \"offload\" parks the text encoders in host "
      "RAM, or streams the denoiser from it every step (much slower).";
  return s;
}

}  // namespace fitrank
