#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_doc.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

namespace {

int MaxContextOf(const FitReport& r) { return r.model != nullptr ? r.model->max_context : 0; }

}  // namespace

Json FitJson(const FitReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["setup"] = SetupJson(r.setup);
  j["model"] = NameOf(r.model);
  j["model_id"] = IdOf(r.model);
  j["params_b"] = JNum(r.model != nullptr ? r.model->params_b : 0, 2);
  j["active_params_b"] = JNum(r.model != nullptr ? r.model->active_params_b : 0, 2);
  j["max_context"] = MaxContextOf(r);
  j["quant"] = IdOf(r.quant);
  j["runtime"] = IdOf(r.runtime);
  j["workload"] = IdOf(r.workload);
  j["mode"] = IdOf(r.mode);
  j["summary"] = r.summary;
  const MemoryView& m = r.memory;
  j["memory"] = {{"weights_gb", JNum(m.weights_gb, 2)}, {"kv_gb", JNum(m.kv_gb, 2)},
                 {"overhead_gb", JNum(m.overhead_gb, 2)}, {"total_gb", JNum(m.total_gb, 2)},
                 {"usable_gb", JNum(m.usable_gb, 2)},     {"over_gb", JNum(m.over_gb, 2)},
                 {"free_gb", JNum(m.free_gb, 2)},        {"usable_note", m.usable_note}};
  j["fit"] = FitJson(r.fit);
  j["decode_tok_s"] = JNum(r.decode_tok_s, 1);
  j["decode_range"] = {{"low", JNum(r.decode_low_tok_s, 1)}, {"high", JNum(r.decode_high_tok_s, 1)}};
  j["prefill_tok_s"] = JNum(r.prefill_tok_s, 0);
  j["ttft_ms"] = JNum(r.ttft_ms, 0);
  j["safe_context"] = r.safe_context;
  j["kv_cache"] = std::string(KvCacheTypeName(r.kv_cache));
  j["grade"] = GradeLetter(r.grades, r.grade_index);
  j["score"] = JNum(r.score, 1);
  j["reasons"] = r.reasons;
  Json advice = Json::array();
  for (const AdviceItem& a : r.advice) advice.push_back(AdviceJson(a));
  j["advice"] = advice;
  Json wl = Json::array();
  for (const FitWorkloadRow& w : r.workloads) {
    wl.push_back({{"workload", IdOf(w.workload)},
                  {"quant", w.quant},
                  {"grade", GradeLetter(r.grades, w.grade_index)},
                  {"score", JNum(w.score, 1)},
                  {"fit", FitJson(w.fit)},
                  {"decode_tok_s", JNum(w.decode_tok_s, 1)},
                  {"ttft_ms", JNum(w.ttft_ms, 0)},
                  {"context", w.context}});
  }
  j["workloads"] = wl;
  Json qs = Json::array();
  for (const QuantRow& q : r.quants) {
    qs.push_back({{"quant", IdOf(q.quant)},
                  {"bits", JNum(q.bits, 2)},
                  {"bpw", JNum(q.bpw, 3)},
                  {"memory_gb", JNum(q.memory_gb, 2)},
                  {"quality_retention", JNum(q.quality_retention, 3)},
                  {"quality_label", q.quality_label},
                  {"fit", FitJson(q.fit)},
                  {"decode_tok_s", JNum(q.decode_tok_s, 1)},
                  {"grade", GradeLetter(r.grades, q.grade_index)},
                  {"score", JNum(q.score, 1)},
                  {"supported", q.supported},
                  {"note", q.note},
                  {"best", q.best}});
  }
  j["quants"] = qs;
  Json rc = Json::array();
  for (const RunCommand& c : r.run_commands) {
    rc.push_back({{"runtime", IdOf(c.runtime)}, {"runtime_name", NameOf(c.runtime)},
                  {"command", c.command}, {"steps", c.steps}, {"quant", IdOf(c.quant)},
                  {"gpus", c.gpus}, {"note", c.note}});
  }
  j["run_commands"] = rc;
  j["basis"] = r.basis;
  return j;
}

namespace {

TextTable WorkloadTable(const FitReport& r, const Style& s) {
  TextTable t({"Workload", "Best quant", "Grade", "Fit", "Decode", "TTFT", "Context"},
              {false, false, false, false, true, true, true});
  for (const FitWorkloadRow& w : r.workloads) {
    t.Add({NameOf(w.workload), w.quant, s.Grade(GradeLetter(r.grades, w.grade_index)),
           s.Fit(w.fit.kind, FormatFit(w.fit.kind, w.fit.offload_pct, w.fit.host_ram_gb)),
           FormatTokS(w.decode_tok_s), FormatMs(w.ttft_ms), FormatContext(w.context)});
  }
  return t;
}

TextTable QuantTable(const FitReport& r, const Style& s) {
  TextTable t({"Quant", "Bits/weight", "Memory", "Quality", "Fit", "Decode", "Grade", ""},
              {false, true, true, false, false, true, false, false});
  for (const QuantRow& q : r.quants) {
    std::string fit = q.supported ? s.Fit(q.fit.kind, FormatFit(q.fit.kind, q.fit.offload_pct,
                                                                 q.fit.host_ram_gb))
                                  : s.Paint(q.note, Color::kDim);
    t.Add({q.best ? s.Heading(IdOf(q.quant)) : IdOf(q.quant), FormatNumber(q.bpw, 2),
           FormatGb(q.memory_gb),
           absl::StrCat(q.quality_label, " (", FormatPct(q.quality_retention * 100), ")"), fit,
           FormatTokS(q.decode_tok_s), s.Grade(GradeLetter(r.grades, q.grade_index)),
           q.best ? s.Paint("◀ best for this setup", Color::kGreen) : ""});
  }
  return t;
}

}  // namespace

void RenderFit(const FitReport& r, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    Json j = FitJson(r);
    if (f == OutputFormat::kJsonl) out << j.dump() << "\n";
    else PrintJson(out, j);
    return;
  }
  if (f == OutputFormat::kCsv) {
    // Rows that make sense: one per quantization.
    TextTable t({"quant", "bits", "bpw", "memory_gb", "quality_retention", "fit", "offload_pct",
                 "decode_tok_s", "grade", "score", "supported", "best"});
    for (const QuantRow& q : r.quants) {
      t.Add({IdOf(q.quant), CsvNumber(q.bits, 1), CsvNumber(q.bpw, 3), CsvNumber(q.memory_gb, 2),
             CsvNumber(q.quality_retention, 3), std::string(FitKindName(q.fit.kind)), CsvNumber(q.fit.offload_pct, 1),
             CsvNumber(q.decode_tok_s, 1), GradeLetter(r.grades, q.grade_index), CsvNumber(q.score, 1),
             q.supported ? "yes" : "no", q.best ? "yes" : ""});
    }
    t.PrintCsv(out);
    return;
  }
  Doc doc(f, s, out);
  doc.Title(absl::StrCat(NameOf(r.model), " on ", r.setup.label),
            absl::StrCat(IdOf(r.workload), " · mode ", IdOf(r.mode), " · ", IdOf(r.quant), " · ",
                         IdOf(r.runtime)));
  doc.Paragraph(r.summary, "");
  if (!doc.markdown()) out << "\n";
  const MemoryView& m = r.memory;
  std::string capacity =
      m.over_gb > 0 ? s.Paint(absl::StrCat(FormatGb(m.over_gb), " over capacity"), Color::kRed)
                    : s.Paint(absl::StrCat(FormatGb(m.free_gb), " free"), Color::kGreen);
  std::vector<std::pair<std::string, std::string>> facts;
  facts.push_back({"Memory", absl::StrCat(FormatGb(m.total_gb), " needed / ", FormatGb(m.usable_gb),
                                          " usable (", capacity, ")")});
  if (!m.usable_note.empty()) facts.push_back({"  usable", m.usable_note});
  facts.push_back({"  breakdown", absl::StrCat("weights ", FormatGb(m.weights_gb), " · KV cache ",
                                               FormatGb(m.kv_gb), " · overhead ",
                                               FormatGb(m.overhead_gb))});
  facts.push_back(
      {"Fit", s.Fit(r.fit.kind, FormatFit(r.fit.kind, r.fit.offload_pct, r.fit.host_ram_gb))});
  facts.push_back({"Offload", FormatPct(r.fit.offload_pct)});
  facts.push_back({"Decode", absl::StrCat(FormatTokS(r.decode_tok_s),
                                          r.decode_high_tok_s > 0
                                              ? absl::StrCat(" (range ", FormatNumber(r.decode_low_tok_s, 1),
                                                             "–", FormatNumber(r.decode_high_tok_s, 1), ")")
                                              : "")});
  facts.push_back({"TTFT", FormatMs(r.ttft_ms)});
  facts.push_back({"Safe context", absl::StrCat(FormatContext(r.safe_context), " of ",
                                                FormatContext(MaxContextOf(r)), " max",
                                                r.kv_cache == KvCacheType::kF16
                                                    ? ""
                                                    : absl::StrCat(", with a ",
                                                                   KvCacheTypeName(r.kv_cache),
                                                                   " KV cache"))});
  if (r.grade_index >= 0) {
    facts.push_back({"Grade", absl::StrCat(s.Grade(GradeLetter(r.grades, r.grade_index)), " (",
                                           FormatNumber(r.score, 0), "/100)")});
  }
  doc.Facts(facts);
  if (!r.reasons.empty()) {
    doc.Section("Why");
    doc.Paragraph(absl::StrJoin(r.reasons, " "));
  }
  if (!r.advice.empty()) {
    doc.Section("Advice");
    if (doc.markdown()) {
      std::vector<std::string> items;
      for (const AdviceItem& a : r.advice) items.push_back(absl::StrCat(a.title, ": ", a.detail));
      doc.Bullets(items);
    } else {
      for (const AdviceItem& a : r.advice) {
        out << "  • " << s.Heading(a.title) << "\n";
        doc.Paragraph(a.detail, "    ");
      }
    }
  }
  if (!r.workloads.empty()) {
    doc.Section("By workload", "each at its best quantization");
    doc.Table(WorkloadTable(r, s));
  }
  if (!r.quants.empty()) {
    doc.Section("By quantization", absl::StrCat("at ", IdOf(r.workload), " settings"));
    doc.Table(QuantTable(r, s));
  }
  if (!r.run_commands.empty()) {
    doc.Section("Run it");
    for (const RunCommand& c : r.run_commands) {
      std::string name =
          absl::StrCat(NameOf(c.runtime), c.note.empty() ? "" : absl::StrCat(" (", c.note, ")"));
      if (doc.markdown()) {
        doc.Subsection(name);
      } else {
        doc.Paragraph(name);
      }
      doc.Commands(c.steps, c.command, "    ");
    }
  }
}

}  // namespace fitrank::cli
