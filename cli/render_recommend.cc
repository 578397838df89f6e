#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_doc.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

TextTable PicksTable(const std::vector<Pick>& picks, const GradeScale* grades, const Style& s) {
  TextTable t({"#", "Model", "Grade", "Score", "Quant", "Decode", "TTFT", "Context", "Fit",
               "Runtime"},
              {true, false, false, true, false, true, true, true, false, false});
  for (const Pick& p : picks) {
    t.Add({absl::StrCat(p.rank), NameOf(p.model), s.Grade(GradeLetter(grades, p.grade_index)),
           FormatNumber(p.score, 0), IdOf(p.quant),
           FormatTokS(p.decode_tok_s), FormatMs(p.ttft_ms), FormatContext(p.context),
           s.Fit(p.fit.kind, FormatFit(p.fit.kind, p.fit.offload_pct, p.fit.host_ram_gb)),
           IdOf(p.runtime)});
  }
  return t;
}

std::string PickHeading(const Pick& p) {
  return absl::StrCat(p.rank, ". ", NameOf(p.model));
}

std::string PickSubtitle(const Pick& p) {
  const double params_b = p.model != nullptr ? p.model->params_b : 0;
  const double active_b = p.model != nullptr ? p.model->active_params_b : 0;
  return absl::StrCat("(", FormatParams(params_b),
                      active_b > 0 && active_b < params_b
                          ? absl::StrCat(", ", FormatParams(active_b), " active")
                          : "",
                      ", ", IdOf(p.quant), ")");
}

void PrintPickDetails(const std::vector<Pick>& picks, Doc& doc) {
  const Style& s = doc.style();
  for (const Pick& p : picks) {
    if (doc.markdown()) {
      doc.Subsection(absl::StrCat(PickHeading(p), " ", PickSubtitle(p)));
      doc.Paragraph(absl::StrJoin(p.reasons, " "));
    } else {
      doc.Line(absl::StrCat("  ", s.Heading(PickHeading(p)), " ",
                            s.Paint(PickSubtitle(p), Color::kDim)));
      doc.Paragraph(absl::StrJoin(p.reasons, " "), "     ");
    }
    if (!p.usable_note.empty()) doc.Note(absl::StrCat("Memory: ", p.usable_note, "."), "     ");
    if (p.run_command.empty()) continue;
    doc.Commands(p.run_steps, p.run_command, "     ");
  }
}

Json RecommendJson(const RecommendReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["setup"] = SetupJson(r.setup);
  j["mode"] = IdOf(r.mode);
  j["workload"] = r.workloads.size() == 1 ? Json(IdOf(r.workloads[0].workload)) : Json("all");
  Json picks = Json::array();
  for (const WorkloadPicks& w : r.workloads) {
    for (const Pick& p : w.picks) picks.push_back(PickJson(p, r.grades));
  }
  j["picks"] = picks;
  j["candidates"] = r.candidates;
  j["excluded"] = r.excluded;
  j["notes"] = r.notes;
  return j;
}

void RenderRecommend(const RecommendReport& r, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    Json j = RecommendJson(r);
    if (f == OutputFormat::kJsonl) {
      out << j.dump() << "\n";
    } else {
      PrintJson(out, j);
    }
    return;
  }
  if (f == OutputFormat::kCsv) {
    TextTable t({"workload", "rank", "model", "model_id", "params_b", "grade", "score", "quant",
                 "decode_tok_s", "ttft_ms", "context", "fit", "offload_pct", "runtime", "gpus",
                 "run_command"});
    for (const WorkloadPicks& w : r.workloads) {
      for (const Pick& p : w.picks) {
        t.Add({IdOf(w.workload), absl::StrCat(p.rank), NameOf(p.model), IdOf(p.model),
               CsvNumber(p.model != nullptr ? p.model->params_b : 0, 2),
               GradeLetter(r.grades, p.grade_index), CsvNumber(p.score, 1), IdOf(p.quant),
               CsvNumber(p.decode_tok_s, 1),
               CsvNumber(p.ttft_ms, 0), absl::StrCat(p.context), std::string(FitKindName(p.fit.kind)),
               CsvNumber(p.fit.offload_pct, 1), IdOf(p.runtime), absl::StrCat(p.gpus), p.run_command});
      }
    }
    t.PrintCsv(out);
    return;
  }
  Doc doc(f, s, out);
  doc.Title(absl::StrCat("Best models for ", r.setup.label),
            absl::StrCat(FormatGb(r.setup.usable_gb), " usable, ",
                         FormatCapacity(r.setup.host_ram_gb), " host RAM · mode ", IdOf(r.mode)));
  for (const WorkloadPicks& w : r.workloads) {
    doc.Section(NameOf(w.workload));
    if (w.picks.empty()) {
      doc.Line("  (no model qualifies)");
      continue;
    }
    doc.Table(PicksTable(w.picks, r.grades, s));
    if (!doc.markdown()) out << "\n";
    PrintPickDetails(w.picks, doc);
  }
  for (const std::string& n : r.notes) {
    if (!doc.markdown()) out << "\n";
    doc.Labeled("note: ", n);
  }
  if (!doc.markdown()) out << "\n";
  doc.Note(absl::StrCat(r.candidates, " models considered. Estimates: decode at the "
                        "workload's context, TTFT at its prompt length."));
}

}  // namespace fitrank::cli
