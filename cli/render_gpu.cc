#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

namespace {

const char* SegmentName(Segment s) {
  static const char* kNames[] = {"consumer", "workstation", "datacenter", "Apple silicon",
                                 "APU",      "embedded",    "CPU"};
  return kNames[static_cast<int>(s)];
}

std::string CapabilityDetail(const CapabilityRow& c) {
  return c.detail.empty() ? std::string(kDash) : c.detail;
}

std::string StatusLabel(const std::string& status) {
  if (status == "native") return "runs natively";
  if (status == "offload") return "with offload";
  if (status == "no") return "no";
  return "unknown";
}

Json CapabilityJson(const CapabilityRow& c) {
  return Json{{"id", c.id},
              {"label", c.label},
              {"status", c.status},
              {"model", c.model},
              {"model_id", c.model_id},
              {"quant", c.quant},
              {"decode_tok_s", JNum(c.decode_tok_s, 1)},
              {"seconds_per_image", JNum(c.seconds_per_image, 2)},
              {"ms_per_frame", JNum(c.ms_per_frame, 0)},
              {"memory_gb", JNum(c.memory_gb, 2)},
              {"detail", c.detail}};
}

void PrintTable(const TextTable& t, OutputFormat f, std::ostream& out) {
  if (f == OutputFormat::kMarkdown) {
    t.PrintMarkdown(out);
  } else {
    t.Print(out);
  }
}

void Section(const std::string& title, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kMarkdown) {
    out << "\n## " << title << "\n\n";
  } else {
    out << "\n" << s.Heading(title) << "\n";
  }
}

void Bullets(const std::vector<std::string>& items, std::ostream& out) {
  for (const std::string& i : items) out << Wrap(i, 96, "  - ");
}

}  // namespace

Json GpuJson(const GpuReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["specs"] = SpecsJson(r.specs);
  j["setup"] = SetupJson(r.setup);
  j["mode"] = {{"id", r.mode.id}, {"name", r.mode.name}, {"description", r.mode.description},
               {"changes", r.mode.changes}};
  Json cap = Json::array();
  for (const CapabilityRow& c : r.capability_matrix) cap.push_back(CapabilityJson(c));
  j["capability_matrix"] = cap;
  Json rec = Json::object();
  for (const WorkloadPicks& w : r.recommendations) {
    Json picks = Json::array();
    for (const Pick& p : w.picks) picks.push_back(PickJson(p));
    rec[w.workload] = picks;
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
                    {"kind", d.kind},
                    {"status", d.status},
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
        t.Add({w.workload, absl::StrCat(p.rank), p.model, p.model_id, p.grade,
               CsvNumber(p.score, 1), p.quant, CsvNumber(p.decode_tok_s, 1),
               CsvNumber(p.ttft_ms, 0), absl::StrCat(p.context), p.fit.kind, p.runtime});
      }
    }
    t.PrintCsv(out);
    return;
  }
  const Gpu& g = r.specs.gpu;
  const bool md = f == OutputFormat::kMarkdown;
  // The page is about the setup it computed: N of the GPU or a mixed rig.
  const bool rig = r.setup.gpu_count > 1;
  const std::string& title = rig ? r.setup.label : g.name;
  if (md) {
    out << "# " << title << "\n\n";
  } else {
    out << s.Heading(title) << "  "
        << s.Paint(absl::StrCat(g.vendor, " · ", SegmentName(g.segment), " · ", g.architecture),
                   Color::kDim)
        << "\n";
  }
  out << "Mode: " << r.mode.name << " — " << r.mode.description << "\n";
  for (const std::string& c : r.mode.changes) out << "  " << c << "\n";

  Section("Specifications", f, s, out);
  TextTable spec({"", ""});
  if (rig) {
    spec.Add({"Setup", absl::StrCat(r.setup.label, ": ", FormatCapacity(r.setup.memory_gb),
                                    " in total (", FormatGb(r.setup.usable_gb),
                                    " usable for models), ", FormatCapacity(r.setup.host_ram_gb),
                                    " host RAM")});
    spec.Add({"Per device", r.setup.gpu_ids.size() > 1 && r.setup.label.find(" + ") != std::string::npos
                                ? absl::StrCat("below: the first GPU, ", g.name)
                                : absl::StrCat("below: each ", g.name)});
  }
  spec.Add({"Memory", absl::StrCat(FormatCapacity(g.memory_gb), " ", g.memory_type, " (",
                                   FormatGb(r.specs.usable_gb), " usable for models)",
                                   g.unified_memory ? ", unified" : "")});
  spec.Add({"Bandwidth", absl::StrCat(FormatNumber(g.bandwidth_gbps, 0), " GB/s")});
  std::string compute = absl::StrCat(FormatNumber(g.fp16_tflops, 1), " TFLOPS FP16");
  if (g.int8_tops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.int8_tops, 0), " TOPS INT8");
  if (g.fp8_tflops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.fp8_tflops, 0), " TFLOPS FP8");
  if (g.fp4_tflops > 0) absl::StrAppend(&compute, " · ", FormatNumber(g.fp4_tflops, 0), " TFLOPS FP4");
  spec.Add({"Compute", compute});
  spec.Add({"Precisions", absl::StrJoin(g.precisions, ", ")});
  spec.Add({"Platforms", absl::StrJoin(g.platforms, ", ")});
  spec.Add({"Interconnect", r.specs.interconnect_name.empty()
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
  spec.Add({"Price", price});
  spec.Add({"Power, launch", absl::StrCat(FormatNumber(g.tdp_w, 0), " W · ", g.launch_year)});
  {
    std::ostringstream tmp;
    if (md) spec.PrintMarkdown(tmp); else spec.Print(tmp);
    std::string text = tmp.str();
    if (!md) text = text.substr(text.find('\n', text.find('\n') + 1) + 1);  // no header rule
    out << text;
  }

  if (!r.strengths.empty()) {
    Section("Strengths", f, s, out);
    Bullets(r.strengths, out);
  }
  if (!r.considerations.empty()) {
    Section("Considerations", f, s, out);
    Bullets(r.considerations, out);
  }

  Section("AI capability matrix", f, s, out);
  TextTable cap({"Capability", "Status", "Representative model", "Detail"});
  for (const CapabilityRow& c : r.capability_matrix) {
    Color col = c.status == "native" ? Color::kGreen : c.status == "offload" ? Color::kYellow
                                                                             : Color::kRed;
    cap.Add({c.label, s.Paint(StatusLabel(c.status), col),
             c.model.empty() ? std::string(kDash)
                             : (c.quant.empty() ? c.model : absl::StrCat(c.model, " ", c.quant)),
             CapabilityDetail(c)});
  }
  PrintTable(cap, f, out);

  Section("Recommendations by workload", f, s, out);
  for (const WorkloadPicks& w : r.recommendations) {
    out << (md ? "\n### " : "\n") << (md ? w.label : s.Heading(w.label)) << "\n";
    if (w.picks.empty()) {
      out << "  (nothing runs well enough to recommend)\n";
      continue;
    }
    PrintTable(PicksTable(w.picks, s), f, out);
    if (!md && !w.picks.empty() && !w.picks[0].reasons.empty()) {
      out << Wrap(absl::StrCat("Top pick: ", absl::StrJoin(w.picks[0].reasons, " ")), 96, "  ");
    }
  }

  Section("Just out of reach", f, s, out);
  if (r.out_of_reach.empty()) {
    out << "  Every strong model in the catalog already runs natively here.\n";
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
    PrintTable(t, f, out);
  }

  Section("Image and video generation", f, s, out);
  out << "  " << r.diffusion.runnable << " of " << r.diffusion.total
      << " diffusion models run on this GPU (" << r.diffusion.native << " natively).\n";
  if (!r.diffusion.rows.empty()) {
    TextTable t({"Model", "Kind", "Resolution", "Status", "Weights", "Memory", "Time"},
                {false, false, false, false, false, true, true});
    for (const DiffusionRow& d : r.diffusion.rows) {
      std::string time = d.kind == "video"
                             ? (d.ms_per_frame > 0 ? absl::StrCat(FormatMs(d.ms_per_frame), "/frame")
                                                   : std::string(kDash))
                             : (d.seconds_per_image > 0
                                    ? absl::StrCat(FormatNumber(d.seconds_per_image, d.seconds_per_image < 10 ? 1 : 0), " s/image")
                                    : std::string(kDash));
      t.Add({d.model, d.kind, absl::StrCat(d.width, "x", d.height, d.frames > 0 ? absl::StrCat(", ", d.frames, "f") : ""),
             StatusLabel(d.status), d.precision, FormatGb(d.memory_gb), time});
    }
    PrintTable(t, f, out);
  }
  if (!r.diffusion.basis.empty()) out << Wrap(r.diffusion.basis, 96, "  ");

  Section("Multi-GPU scaling", f, s, out);
  out << "  Via " << (r.multi_gpu.interconnect.empty() ? "PCIe" : r.multi_gpu.interconnect);
  if (r.multi_gpu.interconnect_gbps > 0 && r.multi_gpu.interconnect.find("GB/s") == std::string::npos) {
    out << " (" << FormatNumber(r.multi_gpu.interconnect_gbps, 0) << " GB/s)";
  }
  out << ".\n";
  TextTable sc({"Config", "Usable memory", "Models that fit", "Est. bandwidth", "Decode speed-up"},
               {false, true, true, true, true});
  for (const ScalingRow& row : r.multi_gpu.rows) {
    sc.Add({absl::StrCat(row.gpu_count, "x"), FormatGb(row.memory_gb),
            absl::StrCat(row.models_fit, "/", row.models_total),
            absl::StrCat(FormatNumber(row.bandwidth_gbps, 0), " GB/s"),
            row.decode_speedup > 0 ? absl::StrCat(FormatNumber(row.decode_speedup, 2), "x")
                                   : std::string(kDash)});
  }
  PrintTable(sc, f, out);
  if (!r.multi_gpu.basis.empty()) out << Wrap(r.multi_gpu.basis, 96, "  ");

  const BuyingAdvice& b = r.buying_advice;
  Section("Buying advice", f, s, out);
  Color vc = b.verdict_id == "excellent" || b.verdict_id == "good" ? Color::kGreen
             : b.verdict_id == "limited"                           ? Color::kYellow
                                                                   : Color::kRed;
  out << "  " << s.Paint(b.verdict, vc) << "\n" << Wrap(b.summary, 96, "  ");
  out << Wrap(absl::StrCat("What will limit you first: ", b.limiter), 96, "  ");
  if (b.red_flags.empty()) {
    out << "  No major red flags.\n";
  } else {
    out << "  Red flags:\n";
    for (const std::string& rf : b.red_flags) out << Wrap(rf, 96, "    - ");
  }
  if (!b.itinerary.empty()) {
    out << "  Best upgrade itinerary:\n";
    int i = 1;
    for (const std::string& step : b.itinerary) out << Wrap(step, 96, absl::StrCat("    ", i++, ". "));
  }

  if (!r.upgrades.empty()) {
    Section("Upgrade paths", f, s, out);
    TextTable t({"Option", "Price", "Unlocks", "$/model", "Best after"},
                {false, true, true, true, false});
    for (const UpgradeOption& o : r.upgrades) {
      t.Add({o.action, FormatUsd(o.price_usd), absl::StrCat(o.unlock_count),
             o.unlock_count > 0 ? FormatUsd(o.usd_per_unlocked_model) : std::string(kDash),
             o.best_model_after});
    }
    PrintTable(t, f, out);
  }
}

}  // namespace fitrank::cli
