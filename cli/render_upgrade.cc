#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_doc.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

Json UpgradeJson(const UpgradeReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["current"] = SetupJson(r.current);
  j["current"]["native_models"] = r.current_native_models;
  j["current"]["fast_models"] = r.current_fast_models;
  j["current"]["best_model"] = NameOf(r.best_model_now);
  j["workload"] = IdOf(r.workload);
  j["mode"] = IdOf(r.mode);
  j["budget_usd"] = r.budget_usd > 0 ? JNum(r.budget_usd, 0) : Json();
  j["speed_target_tok_s"] = JNum(r.speed_target_tok_s, 1);
  Json opts = Json::array();
  for (const UpgradeOption& o : r.options) opts.push_back(UpgradeOptionJson(o));
  j["options"] = opts;
  Json it = Json::array();
  for (const ItineraryStep& s : r.itinerary) {
    Json step = UpgradeOptionJson(s.option);
    step["step"] = s.step;
    step["cumulative_usd"] = JNum(s.cumulative_usd, 0);
    step["why"] = s.why;
    it.push_back(step);
  }
  j["itinerary"] = it;
  j["notes"] = r.notes;
  return j;
}

void RenderUpgrade(const UpgradeReport& r, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    Json j = UpgradeJson(r);
    if (f == OutputFormat::kJsonl) out << j.dump() << "\n";
    else PrintJson(out, j);
    return;
  }
  if (f == OutputFormat::kCsv) {
    // One row per option, raw numbers, units in the headers.
    TextTable csv({"option", "kind", "price_usd", "unlock_count", "usd_per_unlocked_model",
                   "usable_gb", "best_model_after", "best_decode_tok_s_after"});
    for (const UpgradeOption& o : r.options) {
      csv.Add({o.action, o.kind, CsvNumber(o.price_usd, 0), absl::StrCat(o.unlock_count),
               o.unlock_count > 0 ? CsvNumber(o.usd_per_unlocked_model, 0) : "",
               CsvNumber(o.setup.usable_gb, 1), NameOf(o.best_model_after),
               CsvNumber(o.best_decode_tok_s_after, 1)});
    }
    csv.PrintCsv(out);
    return;
  }
  TextTable t({"Option", "Kind", "Price", "Unlocks", "$/unlocked", "Memory", "Best model after",
               "Decode"},
              {false, false, true, true, true, true, false, true});
  for (const UpgradeOption& o : r.options) {
    t.Add({o.action, o.kind, FormatUsd(o.price_usd), absl::StrCat(o.unlock_count),
           o.unlock_count > 0 ? FormatUsd(o.usd_per_unlocked_model) : std::string(kDash),
           FormatGb(o.setup.usable_gb), NameOf(o.best_model_after), FormatTokS(o.best_decode_tok_s_after)});
  }
  Doc doc(f, s, out);
  doc.Title(absl::StrCat("Upgrades from ", r.current.label),
            absl::StrCat(IdOf(r.workload), " · mode ", IdOf(r.mode),
                         r.budget_usd > 0 ? absl::StrCat(" · budget ", FormatUsd(r.budget_usd)) : ""));
  doc.Paragraph(absl::StrCat("Now: ", FormatGb(r.current.usable_gb), " usable, ",
                             r.current_native_models, " models run natively, ",
                             r.current_fast_models, " of them at ",
                             FormatTokS(r.speed_target_tok_s), " or faster; best model: ",
                             r.best_model_now == nullptr ? std::string(kDash) : r.best_model_now->name, "."),
                "");
  if (!doc.markdown()) out << "\n";
  if (r.options.empty()) {
    doc.Line("  No upgrade option fits the budget.");
  } else {
    doc.Table(t);
  }
  std::vector<std::string> unlock_lines;
  for (const UpgradeOption& o : r.options) {
    if (o.unlocks.empty()) continue;
    std::vector<std::string> names;
    for (size_t i = 0; i < o.unlocks.size() && i < 5; ++i) {
      names.push_back(absl::StrCat(o.unlocks[i].model, " (", FormatTokS(o.unlocks[i].decode_tok_s),
                                   o.unlocks[i].how == "reaches-speed" ? ", now fast enough" : "",
                                   ")"));
    }
    if (o.unlocks.size() > 5) names.push_back(absl::StrCat("+", o.unlocks.size() - 5, " more"));
    unlock_lines.push_back(absl::StrCat(o.action, " unlocks: ", absl::StrJoin(names, ", "), ".",
                                        o.runtime.empty() ? "" : absl::StrCat(" Runtime: ", o.runtime, ".")));
  }
  doc.Bullets(unlock_lines, "  ");
  doc.Section("Best itinerary");
  if (r.itinerary.empty()) {
    doc.Line("  Nothing within the budget unlocks a model.");
  }
  std::vector<std::string> steps;
  for (const ItineraryStep& st : r.itinerary) {
    steps.push_back(absl::StrCat(st.option.action, " — ", FormatUsd(st.option.price_usd), " (total ",
                                 FormatUsd(st.cumulative_usd), "). ", st.why));
  }
  doc.Numbered(steps);
  for (const std::string& n : r.notes) doc.Labeled("note: ", n);
}

}  // namespace fitrank::cli
