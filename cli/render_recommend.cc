#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

TextTable PicksTable(const std::vector<Pick>& picks, const Style& s) {
  TextTable t({"#", "Model", "Grade", "Score", "Quant", "Decode", "TTFT", "Context", "Fit",
               "Runtime"},
              {true, false, false, true, false, true, true, true, false, false});
  for (const Pick& p : picks) {
    t.Add({absl::StrCat(p.rank), p.model, s.Grade(p.grade), FormatNumber(p.score, 0), p.quant,
           FormatTokS(p.decode_tok_s), FormatMs(p.ttft_ms), FormatContext(p.context),
           s.Fit(p.fit.kind, FormatFit(p.fit.kind, p.fit.offload_pct, p.fit.host_ram_gb)),
           p.runtime});
  }
  return t;
}

void PrintPickDetails(const std::vector<Pick>& picks, const Style& s, std::ostream& out) {
  for (const Pick& p : picks) {
    out << "  " << s.Heading(absl::StrCat(p.rank, ". ", p.model)) << " "
        << s.Paint(absl::StrCat("(", FormatParams(p.params_b),
                                p.active_params_b > 0 && p.active_params_b < p.params_b
                                    ? absl::StrCat(", ", FormatParams(p.active_params_b), " active")
                                    : "",
                                ", ", p.quant, ")"),
                   Color::kDim)
        << "\n";
    std::string why = absl::StrJoin(p.reasons, " ");
    if (!why.empty()) out << Wrap(why, 96, "     ");
    if (p.run_command.empty()) continue;
    for (const std::string& step : p.run_steps) {
      out << "     " << s.Paint((step[0] == '#' ? "" : "$ ") + step, Color::kDim) << "\n";
    }
    out << "     " << s.Paint("$ " + p.run_command, Color::kCyan) << "\n";
  }
}

Json RecommendJson(const RecommendReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["setup"] = SetupJson(r.setup);
  j["mode"] = r.mode;
  j["workload"] = r.workloads.size() == 1 ? Json(r.workloads[0].workload) : Json("all");
  Json picks = Json::array();
  for (const WorkloadPicks& w : r.workloads) {
    for (const Pick& p : w.picks) picks.push_back(PickJson(p));
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
  if (f == OutputFormat::kCsv || f == OutputFormat::kMarkdown) {
    TextTable t({"workload", "rank", "model", "model_id", "params_b", "grade", "score", "quant",
                 "decode_tok_s", "ttft_ms", "context", "fit", "offload_pct", "runtime", "gpus",
                 "run_command"});
    for (const WorkloadPicks& w : r.workloads) {
      for (const Pick& p : w.picks) {
        t.Add({w.workload, absl::StrCat(p.rank), p.model, p.model_id, CsvNumber(p.params_b, 2),
               p.grade, CsvNumber(p.score, 1), p.quant, CsvNumber(p.decode_tok_s, 1),
               CsvNumber(p.ttft_ms, 0), absl::StrCat(p.context), p.fit.kind,
               CsvNumber(p.fit.offload_pct, 1), p.runtime, absl::StrCat(p.gpus), p.run_command});
      }
    }
    if (f == OutputFormat::kCsv) {
      t.PrintCsv(out);
    } else {
      t.PrintMarkdown(out);
    }
    return;
  }
  out << s.Heading(absl::StrCat("Best models for ", r.setup.label)) << "  "
      << s.Paint(absl::StrCat(FormatGb(r.setup.usable_gb), " usable, ",
                              FormatCapacity(r.setup.host_ram_gb), " host RAM · mode ", r.mode),
                 Color::kDim)
      << "\n";
  for (const WorkloadPicks& w : r.workloads) {
    out << "\n" << s.Heading(w.label) << "\n";
    if (w.picks.empty()) {
      out << "  (no model qualifies)\n";
      continue;
    }
    PicksTable(w.picks, s).Print(out);
    out << "\n";
    PrintPickDetails(w.picks, s, out);
  }
  for (const std::string& n : r.notes) out << "\n" << Wrap(n, 96, "note: ");
  out << "\n"
      << s.Paint(absl::StrCat(r.candidates, " models considered. Estimates: decode at the "
                              "workload's context, TTFT at its prompt length."),
                 Color::kDim)
      << "\n";
}

}  // namespace fitrank::cli
