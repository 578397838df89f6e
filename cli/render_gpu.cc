#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/vocabulary.h"
#include "cli/render_doc.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

namespace {

// The segment as the page title says it (catalog/vocabulary.h SegmentName is the YAML word).
const char* SegmentLabel(Segment s) {
  static const char* kNames[] = {"consumer", "workstation", "datacenter", "Apple silicon",
                                 "APU",      "embedded",    "CPU"};
  return kNames[static_cast<int>(s)];
}

std::string CapabilityDetail(const CapabilityRow& c) {
  return c.detail.empty() ? std::string(kDash) : c.detail;
}

std::string StatusLabel(RunStatus status) {
  switch (status) {
    case RunStatus::kNative: return "runs natively";
    case RunStatus::kOffload: return "with offload";
    case RunStatus::kNo: return "no";
    case RunStatus::kUnknown: break;
  }
  return "unknown";
}

Json CapabilityJson(const CapabilityRow& c) {
  return Json{{"id", c.id},
              {"label", c.label},
              {"status", std::string(RunStatusName(c.status))},
              {"model", c.model},
              {"model_id", c.model_id},
              {"quant", c.quant},
              {"decode_tok_s", JNum(c.decode_tok_s, 1)},
              {"seconds_per_image", JNum(c.seconds_per_image, 2)},
              {"ms_per_frame", JNum(c.ms_per_frame, 0)},
              {"memory_gb", JNum(c.memory_gb, 2)},
              {"detail", c.detail}};
}

}  // namespace

Json GpuJson(const GpuReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["specs"] = SpecsJson(r.specs);
  j["setup"] = SetupJson(r.setup);
  if (r.mode != nullptr) {
    j["mode"] = {{"id", r.mode->id}, {"name", r.mode->name}, {"description", r.mode->description},
                 {"changes", r.mode_changes}};
  }
  Json cap = Json::array();
  for (const CapabilityRow& c : r.capability_matrix) cap.push_back(CapabilityJson(c));
  j["capability_matrix"] = cap;
  Json rec = Json::object();
  for (const WorkloadPicks& w : r.recommendations) {
    Json picks = Json::array();
    for (const Pick& p : w.picks) picks.push_back(PickJson(p, r.grades));
    rec[IdOf(w.workload)] = picks;
  }
  j["recommendations"] = rec;
  Json oor = Json::array();
  for (const OutOfReach& o : r.out_of_reach) {
    oor.push_back({{"model", o.model},
                   {"model_id", o.model_id},
                   {"params_b", JNum(o.params_b, 2)},
                   {"active_params_b", JNum(o.active_params_b, 2)},
                   {"quality", JNum(o.quality, 1)},
                   {"quant", o.quant},
                   {"needs_gb", JNum(o.needs_gb, 1)},
                   {"missing_gb", JNum(o.missing_gb, 1)},
                   {"scale_out", o.scale_out_gpus > 0
                                     ? Json{{"gpus", o.scale_out_gpus},
                                            {"via", o.scale_out_via},
                                            {"parallel", o.scale_out_parallel},
                                            {"decode_tok_s", JNum(o.scale_out_decode_tok_s, 1)}}
                                     : Json()},
                   {"unlocked_by", o.unlocked_by.empty()
                                       ? Json()
                                       : Json{{"action", o.unlocked_by},
                                              {"price_usd", JNum(o.unlocked_by_usd, 0)}}}});
  }
  j["out_of_reach"] = oor;
  Json diff = Json::array();
  for (const DiffusionRow& d : r.diffusion.rows) {
    diff.push_back({{"model", d.model},
                    {"model_id", d.model_id},
                    {"kind", std::string(DiffusionKindName(d.kind))},
                    {"status", std::string(RunStatusName(d.status))},
                    {"precision", d.precision},
                    {"width", d.width},
                    {"height", d.height},
                    {"steps", d.steps},
                    {"frames", d.frames},
                    {"memory_gb", JNum(d.memory_gb, 2)},
                    {"seconds_per_image", JNum(d.seconds_per_image, 2)},
                    {"ms_per_frame", JNum(d.ms_per_frame, 0)}});
  }
  j["diffusion"] = {{"runnable", r.diffusion.runnable}, {"native", r.diffusion.native},
                    {"total", r.diffusion.total},       {"basis", r.diffusion.basis},
                    {"models", diff}};
  Json rows = Json::array();
  for (const ScalingRow& row : r.multi_gpu.rows) {
    rows.push_back({{"gpus", row.gpu_count},
                    {"memory_gb", JNum(row.memory_gb, 1)},
                    {"models_fit", row.models_fit},
                    {"models_total", row.models_total},
                    {"bandwidth_gbps", JNum(row.bandwidth_gbps, 0)},
                    {"decode_speedup", JNum(row.decode_speedup, 2)}});
  }
  j["multi_gpu"] = {{"interconnect", r.multi_gpu.interconnect},
                    {"interconnect_gbps", JNum(r.multi_gpu.interconnect_gbps, 1)},
                    {"scaling_efficiency", JNum(r.multi_gpu.scaling_efficiency, 3)},
                    {"basis", r.multi_gpu.basis},
                    {"rows", rows}};
  j["strengths"] = r.strengths;
  j["strength_rules"] = r.strength_rules;  // same index: the rule that wrote each sentence
  j["considerations"] = r.considerations;
  j["consideration_rules"] = r.consideration_rules;
  const BuyingAdvice& b = r.buying_advice;
  j["buying_advice"] = {{"verdict_id", b.verdict_id}, {"verdict", b.verdict},
                        {"summary", b.summary},       {"runs_well", b.runs_well},
                        {"top_n", b.top_n},           {"limiter_id", b.limiter_id},
                        {"limiter", b.limiter},       {"red_flags", b.red_flags},
                        {"itinerary", b.itinerary}};
  Json up = Json::array();
  for (const UpgradeOption& o : r.upgrades) up.push_back(UpgradeOptionJson(o));
  j["upgrades"] = up;
  return j;
}

void RenderGpu(const GpuReport& r, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    Json j = GpuJson(r);
    if (f == OutputFormat::kJsonl) out << j.dump() << "\n";
    else PrintJson(out, j);
    return;
  }
  if (f == OutputFormat::kCsv) {
    // Rows that make sense: the recommendations of every workload.
    TextTable t({"workload", "rank", "model", "model_id", "grade", "score", "quant",
                 "decode_tok_s", "ttft_ms", "context", "fit", "runtime"});
    for (const WorkloadPicks& w : r.recommendations) {
      for (const Pick& p : w.picks) {
        t.Add({IdOf(w.workload), absl::StrCat(p.rank), NameOf(p.model), IdOf(p.model),
               GradeLetter(r.grades, p.grade_index),
               CsvNumber(p.score, 1), IdOf(p.quant), CsvNumber(p.decode_tok_s, 1),
               CsvNumber(p.ttft_ms, 0), absl::StrCat(p.context), std::string(FitKindName(p.fit.kind)), IdOf(p.runtime)});
      }
    }
    t.PrintCsv(out);
    return;
  }
  const Gpu& g = r.specs.gpu;
  Doc doc(f, s, out);
  const bool md = doc.markdown();
  // The page is about the setup it computed: N of the GPU or a mixed rig.
  const bool rig = r.setup.gpu_count > 1;
  const std::string& title = rig ? r.setup.label : g.name;
  doc.Title(title, absl::StrCat(g.vendor, " · ", SegmentLabel(g.segment), " · ", g.architecture));
  if (r.mode != nullptr) {
    doc.Paragraph(absl::StrCat("Mode: ", r.mode->name, " — ", r.mode->description), "");
  }
  if (md) {
    doc.Bullets(r.mode_changes);
  } else {
    for (const std::string& c : r.mode_changes) out << "  " << c << "\n";
  }

  doc.Section("Specifications");
  std::vector<std::pair<std::string, std::string>> spec;
  if (rig) {
    spec.push_back({"Setup", absl::StrCat(r.setup.label, ": ", FormatCapacity(r.setup.memory_gb),
                                          " in total (", FormatGb(r.setup.usable_gb),
                                          " usable for models), ",
                                          FormatCapacity(r.setup.host_ram_gb), " host RAM")});
    spec.push_back({"Per device", r.setup.gpu_ids.size() > 1 && r.setup.label.find(" + ") != std::string::npos
                                ? absl::StrCat("below: the first GPU, ", g.name)
                                : absl::StrCat("below: each ", g.name)});
  }
  spec.push_back({"Memory", absl::StrCat(FormatCapacity(g.memory_gb), " ", g.memory_type, " (",
                                   FormatGb(r.specs.usable_gb), " usable for models)",
                                   g.unified_memory ? ", unified" : "")});
  spec.push_back({"Bandwidth", absl::StrCat(FormatNumber(g.bandwidth_gbps, 0), " GB/s")});
  std::string compute = absl::StrCat(FormatNumber(g.fp16_tflops, 1), " TFLOPS FP16");
  if (g.int8_tops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.int8_tops, 0), " TOPS INT8");
  if (g.fp8_tflops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.fp8_tflops, 0), " TFLOPS FP8");
  if (g.fp4_tflops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.fp4_tflops, 0), " TFLOPS FP4");
  spec.push_back({"Compute", compute});
  spec.push_back({"Precisions", absl::StrJoin(g.precisions, ", ")});
  spec.push_back({"Platforms", absl::StrJoin(g.platforms, ", ")});
  spec.push_back({"Interconnect", r.specs.interconnect_name.empty()
                                ? std::string(kDash)
                                : absl::StrCat(r.specs.interconnect_name,
                                               g.interconnect_gbps > 0
                                                   ? absl::StrCat(", ", FormatNumber(g.interconnect_gbps, 0), " GB/s")
                                                   : "")});
  std::string price = absl::StrCat("MSRP ", FormatUsd(g.msrp_usd));
  if (r.specs.street_usd > 0) {
    absl::StrAppend(&price, " · street ", FormatUsd(r.specs.street_usd), " (", r.specs.price_as_of, ")");
  }
  if (r.specs.cloud_usd_per_hour > 0) {
    absl::StrAppend(&price, " · cloud ", FormatUsd(r.specs.cloud_usd_per_hour), "/h");
  }
  spec.push_back({"Price", price});
  spec.push_back({"Power, launch", absl::StrCat(FormatNumber(g.tdp_w, 0), " W · ", g.launch_year)});
  doc.Facts(spec);

  if (!r.strengths.empty()) {
    doc.Section("Strengths");
    doc.Bullets(r.strengths);
  }
  if (!r.considerations.empty()) {
    doc.Section("Considerations");
    doc.Bullets(r.considerations);
  }

  doc.Section("AI capability matrix");
  TextTable cap({"Capability", "Status", "Representative model", "Detail"});
  for (const CapabilityRow& c : r.capability_matrix) {
    Color col = c.status == RunStatus::kNative    ? Color::kGreen
                : c.status == RunStatus::kOffload ? Color::kYellow
                                                                             : Color::kRed;
    cap.Add({c.label, s.Paint(StatusLabel(c.status), col),
             c.model.empty() ? std::string(kDash)
                             : (c.quant.empty() ? c.model : absl::StrCat(c.model, " ", c.quant)),
             CapabilityDetail(c)});
  }
  doc.Table(cap);

  doc.Section("Recommendations by workload");
  for (const WorkloadPicks& w : r.recommendations) {
    if (md) {
      doc.Subsection(NameOf(w.workload));
    } else {
      out << "\n" << s.Heading(NameOf(w.workload)) << "\n";
    }
    if (w.picks.empty()) {
      doc.Line("  (nothing runs well enough to recommend)");
      continue;
    }
    doc.Table(PicksTable(w.picks, r.grades, s));
    if (!w.picks[0].reasons.empty()) {
      doc.Paragraph(absl::StrCat("Top pick: ", absl::StrJoin(w.picks[0].reasons, " ")));
    }
    if (!w.picks[0].usable_note.empty()) {
      doc.Note(absl::StrCat("Memory: ", w.picks[0].usable_note, "."), "  ");
    }

  }

  doc.Section("Just out of reach");
  if (r.out_of_reach.empty()) {
    doc.Line("  Every strong model in the catalog already runs natively here.");
  } else {
    TextTable t({"Model", "Params", "Quality", "Needs", "Short by", "Runs on", "Cheapest upgrade"},
                {false, true, true, true, true, false, false});
    for (const OutOfReach& o : r.out_of_reach) {
      std::string runs =
          o.scale_out_gpus > 0
              ? absl::StrCat(o.scale_out_gpus, "x via ", o.scale_out_via, " (", o.scale_out_parallel,
                             "), ", FormatTokS(o.scale_out_decode_tok_s))
              : absl::StrCat("more than ", r.multi_gpu.max_gpus, "x");
      t.Add({o.model, FormatParams(o.params_b), FormatNumber(o.quality, 0),
             absl::StrCat(FormatGb(o.needs_gb), " at ", o.quant), FormatGb(o.missing_gb), runs,
             o.unlocked_by.empty() ? std::string(kDash)
                                   : absl::StrCat(o.unlocked_by, " (", FormatUsd(o.unlocked_by_usd), ")")});
    }
    doc.Table(t);
  }

  doc.Section("Image and video generation");
  doc.Line(absl::StrCat("  ", r.diffusion.runnable, " of ", r.diffusion.total,
                        " diffusion models run on this ", rig ? "setup" : "GPU", " (",
                        r.diffusion.native, " natively)."));
  if (!r.diffusion.rows.empty()) {
    TextTable t({"Model", "Kind", "Resolution", "Status", "Weights", "Memory", "Time"},
                {false, false, false, false, false, true, true});
    for (const DiffusionRow& d : r.diffusion.rows) {
      std::string time = d.kind == DiffusionKind::kVideo
                             ? (d.ms_per_frame > 0 ? absl::StrCat(FormatSeconds(d.ms_per_frame / 1000), "/frame")
                                                   : std::string(kDash))
                             : (d.seconds_per_image > 0
                                    ? absl::StrCat(FormatSeconds(d.seconds_per_image), "/image")
                                    : std::string(kDash));
      t.Add({d.model, std::string(DiffusionKindName(d.kind)), absl::StrCat(d.width, "x", d.height, d.frames > 0 ? absl::StrCat(", ", d.frames, "f") : ""),
             StatusLabel(d.status), d.precision, FormatGb(d.memory_gb), time});
    }
    doc.Table(t);
  }
  doc.Paragraph(r.diffusion.basis);

  doc.Section("Multi-GPU scaling");
  std::string via =
      absl::StrCat("  Via ", r.multi_gpu.interconnect.empty() ? "PCIe" : r.multi_gpu.interconnect);
  if (r.multi_gpu.interconnect_gbps > 0 && r.multi_gpu.interconnect.find("GB/s") == std::string::npos) {
    absl::StrAppend(&via, " (", FormatNumber(r.multi_gpu.interconnect_gbps, 0), " GB/s)");
  }
  doc.Line(absl::StrCat(via, "."));
  TextTable sc({"Config", "Usable memory", "Models that fit", "Est. bandwidth", "Decode speed-up"},
               {false, true, true, true, true});
  for (const ScalingRow& row : r.multi_gpu.rows) {
    sc.Add({absl::StrCat(row.gpu_count, "x"), FormatGb(row.memory_gb),
            absl::StrCat(row.models_fit, "/", row.models_total),
            absl::StrCat(FormatNumber(row.bandwidth_gbps, 0), " GB/s"),
            row.decode_speedup > 0 ? absl::StrCat(FormatNumber(row.decode_speedup, 2), "x")
                                   : std::string(kDash)});
  }
  doc.Table(sc);
  doc.Paragraph(r.multi_gpu.basis);

  const BuyingAdvice& b = r.buying_advice;
  doc.Section("Buying advice");
  Color vc = b.verdict_id == "excellent" || b.verdict_id == "good" ? Color::kGreen
             : b.verdict_id == "limited"                           ? Color::kYellow
                                                                   : Color::kRed;
  doc.Line(absl::StrCat("  ", s.Paint(b.verdict, vc)));
  doc.Paragraph(b.summary);
  doc.Paragraph(absl::StrCat("What will limit you first: ", b.limiter));
  if (b.red_flags.empty()) {
    doc.Line("  No major red flags.");
  } else {
    doc.Line("  Red flags:");
    doc.Bullets(b.red_flags, "    - ");
  }
  if (!b.itinerary.empty()) {
    doc.Line("  Best upgrade itinerary:");
    doc.Numbered(b.itinerary, "    ");
  }

  if (!r.upgrades.empty()) {
    doc.Section("Upgrade paths");
    TextTable t({"Option", "Price", "Unlocks", "$/model", "Best after"},
                {false, true, true, true, false});
    for (const UpgradeOption& o : r.upgrades) {
      t.Add({o.action, FormatUsd(o.price_usd), absl::StrCat(o.unlock_count),
             o.unlock_count > 0 ? FormatUsd(o.usd_per_unlocked_model) : std::string(kDash),
             NameOf(o.best_model_after)});
    }
    doc.Table(t);
  }
}

}  // namespace fitrank::cli
