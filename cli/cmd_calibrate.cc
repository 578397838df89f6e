// `fitrank calibrate`: the estimator's error against a file of measurements.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/commands.h"
#include "cli/input_file.h"
#include "cli/resolve.h"
#include "cli/setup_flags.h"
#include "engine/estimator/calibration.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

nlohmann::json StatsJson(const CalibrationStats& s) {
  auto r = [](double v) { return std::round(v * 10) / 10; };
  return {{"rows", s.rows}, {"median_ape_pct", r(s.median_ape)}, {"mean_ape_pct", r(s.mean_ape)},
          {"within_25_pct", r(s.within_25)}};
}

std::string StatsCells(const CalibrationStats& s) {
  if (s.rows == 0) return absl::StrFormat("%5s %8s %8s %7s", "0", "-", "-", "-");
  return absl::StrFormat("%5d %7.1f%% %7.1f%% %6.0f%%", s.rows, s.median_ape, s.mean_ape, s.within_25);
}

int RunCalibrate(Context& ctx) {
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "give the file with --measurements FILE.tsv");
  }
  std::optional<std::string> path = ctx.args.Get("measurements");
  if (!path) throw UsageError("no measurements file", "add --measurements FILE.tsv");
  const std::string text = ReadInputFile(
      ctx, *path, "give a TSV with the columns of shared/calibration/measured.tsv");
  Diagnostics diags;
  std::vector<MeasuredRow> rows;
  if (!ParseMeasurements(text, *path, &rows, &diags)) {
    *ctx.err << diags.Render();
    return 2;
  }
  const Catalog& catalog = LoadCatalog(ctx);
  const Estimator& est = LoadEstimator(ctx);
  CalibrationReport rep = RunCalibration(catalog, est, rows);
  const bool show_rows = ctx.args.Has("rows");

  if (ctx.format == OutputFormat::kJson) {
    nlohmann::json j;
    j["file"] = *path;
    j["rows"] = rows.size();
    j["unmapped_rows"] = rep.unmapped;
    j["groups"] = nlohmann::json::array();
    for (const CalibrationGroup& g : rep.groups) {
      j["groups"].push_back({{"group", g.name}, {"decode", StatsJson(g.decode)}, {"prefill", StatsJson(g.prefill)}});
    }
    j["overall"] = j["groups"][0];
    j["unmapped"] = nlohmann::json::array();
    j["estimates"] = nlohmann::json::array();
    for (const CalibrationRow& r : rep.rows) {
      if (!r.mapped) {
        j["unmapped"].push_back({{"line", r.row.line}, {"gpu", r.row.gpu}, {"model", r.row.model},
                                 {"quant", r.row.quant}, {"runtime", r.row.runtime}, {"reason", r.reason}});
        continue;
      }
      nlohmann::json e = {{"line", r.row.line}, {"gpu", r.gpu_id}, {"gpu_count", r.row.gpu_count},
                          {"model", r.model_id}, {"quant", r.quant_id}, {"runtime", r.runtime_id},
                          {"backend", r.backend}, {"decode_measured", r.row.decode_tok_s},
                          {"decode_estimate", std::round(r.decode_pred * 100) / 100},
                          {"prefill_measured", r.row.prefill_tok_s},
                          {"prefill_estimate", std::round(r.prefill_pred * 10) / 10},
                          {"notes", r.notes}};
      j["estimates"].push_back(std::move(e));
    }
    *ctx.out << j.dump(2) << "\n";
    return 0;
  }
  std::ostream& o = *ctx.out;
  o << "Calibration against " << *path << ": " << rows.size() << " rows, "
    << rows.size() - rep.unmapped << " estimated, " << rep.unmapped << " unmapped\n\n";
  o << absl::StrFormat("%-34s %-31s  %-31s\n", "", "decode (tok/s)", "prefill (tok/s)");
  o << absl::StrFormat("%-34s %5s %8s %8s %7s  %5s %8s %8s %7s\n", "group", "rows", "median", "mean",
                       "±25%", "rows", "median", "mean", "±25%");
  for (const CalibrationGroup& g : rep.groups) {
    o << absl::StrFormat("%-34s %s  %s\n", g.name, StatsCells(g.decode), StatsCells(g.prefill));
  }
  o << "\n(median/mean: absolute percentage error; ±25%: share of rows within 25% of the measurement)\n";
  if (rep.unmapped > 0) {
    o << "\nUnmapped rows (not estimated):\n";
    for (const CalibrationRow& r : rep.rows) {
      if (!r.mapped) o << "  line " << r.row.line << ": " << r.row.gpu << " / " << r.row.model << " / "
                       << r.row.quant << " / " << r.row.runtime << ": " << r.reason << "\n";
    }
  }
  if (show_rows) {
    o << "\nRows (line, setup, model, quant, runtime: measured -> estimated):\n";
    for (const CalibrationRow& r : rep.rows) {
      if (!r.mapped) continue;
      o << absl::StrFormat("  %3d %dx %-28s %-30s %-10s %-18s decode %7.1f -> %7.1f (%+4.0f%%)",
                           r.row.line, r.row.gpu_count, r.gpu_id, r.model_id, r.quant_id,
                           absl::StrCat(r.runtime_id, "/", r.backend), r.row.decode_tok_s, r.decode_pred,
                           r.row.decode_tok_s > 0 ? (r.decode_pred / r.row.decode_tok_s - 1) * 100 : 0);
      if (r.row.prefill_tok_s > 0) {
        o << absl::StrFormat("  prefill %7.0f -> %7.0f (%+4.0f%%)", r.row.prefill_tok_s, r.prefill_pred,
                             (r.prefill_pred / r.row.prefill_tok_s - 1) * 100);
      }
      o << "\n";
      for (const std::string& n : r.notes) o << "        note: " << n << "\n";
    }
  }
  return 0;
}

}  // namespace

Command CalibrateCommand() {
  return {"calibrate",
          "the estimator's error against measured speeds (per vendor, runtime, GPU count, MoE)",
          "fitrank calibrate --measurements FILE.tsv [--rows] [--json]",
          {{"measurements", "FILE", "TSV with the columns of shared/calibration/measured.tsv"},
           {"rows", "", "also list every row's measured and estimated speeds"}},
          RunCalibrate, kTableOrJson};
}

}  // namespace fitrank::cli
