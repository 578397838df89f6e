// /compare, /upgrade and /recommend: the query string is the CLI's flags; the page shows the
// report with its chart.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/pages.h"
#include "cli/serve/svg.h"

namespace fitrank::cli::serve {

namespace {

using internal::QueryString;

double Num(const Json& v) { return v.is_number() ? v.get<double>() : NAN; }

std::string GpuLink(const std::string& c, const void*) { return GpuPath(c); }

std::string Strings(const Json& a) {
  std::vector<std::string> v;
  if (a.is_array()) {
    for (const Json& x : a) v.push_back(Text(x));
  }
  return List(v);
}

}  // namespace

// The upgrade options' table and their "$ per unlocked model" chart (the GPU page uses it too).
std::string UpgradeTable(const Json& ups) {
  if (!ups.is_array() || ups.empty()) return "<p>No upgrade option unlocks more here.</p>";
  std::vector<std::vector<std::string>> rows;
  std::vector<Bar> bars;
  for (const Json& o : ups) {
    std::string label = Text(o["setup"]["label"]);
    rows.push_back({absl::StrCat(T(o["action"]), "<br><small>", Html(label), "</small>"),
                    Html(Money(o["price_usd"])),
                    T(o["unlock_count"]),
                    o["usd_per_unlocked_model"].is_null()
                        ? "—"
                        : absl::StrCat("$", T(o["usd_per_unlocked_model"], 0)),
                    T(o["best_model_after"]), absl::StrCat(T(o["best_decode_tok_s_after"]), " tok/s")});
    bars.push_back({label, Num(o["usd_per_unlocked_model"]),
                    o["usd_per_unlocked_model"].is_null()
                        ? "—"
                        : absl::StrCat("$", Text(o["usd_per_unlocked_model"], 0)),
                    false});
  }
  return absl::StrCat(BarChart("Dollars per unlocked model (lower is better)", "USD", bars),
                      Table({"Option", "Price", "Unlocks", "$ per model", "Best model after",
                             "Its speed"},
                            rows));
}

PageResult ComparePage(const Snapshot& snap, const std::vector<QueryParam>& q) {
  ApiResult r = CallApi(snap.run, "compare", q);
  if (r.status != 200) return internal::ErrorPage(r, "Cannot compare", GpuLink, nullptr);
  const Json& j = r.json;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> spec_rows;
  for (const Json& g : j["gpus"]) {
    names.push_back(Text(g["name"]));
    spec_rows.push_back({Link(GpuPath(Text(g["name"])), Text(g["name"])),
                         Capacity(g["memory_gb"]),
                         absl::StrCat(T(g["bandwidth_gbps"], 0), " GB/s"),
                         absl::StrCat(T(g["fp16_tflops"]), " TFLOPS"),
                         absl::StrCat(T(g["models_fit"]), " / ", T(g["models_total"])),
                         Html(Money(g["price_usd"])),
                         absl::StrCat(T(g["best_model"]), " ", GradeBadge(g["best_grade"]))});
  }
  std::string main = absl::StrCat("<h1>", Html(absl::StrJoin(names, " vs ")), "</h1>");
  main += internal::ModeChooser(snap, Text(j["mode"]), internal::Without(q, {"mode"}), "/compare");
  main += Section("side-by-side", "Side by side",
                  Table({"GPU", "Memory", "Bandwidth", "FP16", "Models that fit", "Price",
                         "Best model"},
                        spec_rows));
  std::vector<std::string> cats;
  std::vector<std::vector<double>> values(names.size());
  std::vector<std::vector<std::string>> ref_rows;
  for (const Json& m : j["reference_models"]) {
    cats.push_back(Text(m["label"]));
    std::vector<std::string> row = {T(m["model"])};
    size_t i = 0;
    for (const Json& c : m["results"]) {
      if (i < values.size()) values[i].push_back(Num(c["decode_tok_s"]));
      row.push_back(absl::StrCat(T(c["decode_tok_s"]), " tok/s <small>", T(c["fit"]["kind"]),
                                 ", ", T(c["quant"]), "</small>"));
      ++i;
    }
    ref_rows.push_back(row);
  }
  std::vector<std::string> headers = {"Reference model"};
  headers.insert(headers.end(), names.begin(), names.end());
  main += Section("reference", "Reference models",
                  absl::StrCat(GroupedBarChart("Decode speed on reference models", "tok/s", cats,
                                               names, values),
                               Table(headers, ref_rows)));
  std::vector<std::vector<std::string>> cost_rows;
  for (const Json& c : j["cost"]["rows"]) {
    cost_rows.push_back({T(c["gpu_id"]), T(c["throughput_model"]),
                         absl::StrCat(T(c["throughput_tok_s"]), " tok/s"),
                         c["usd_per_mtok_owned"].is_null() ? "—" : absl::StrCat("$", T(c["usd_per_mtok_owned"], 4)),
                         c["usd_per_mtok_cloud"].is_null() ? "—" : absl::StrCat("$", T(c["usd_per_mtok_cloud"], 4))});
  }
  main += Section("cost", "Cost per million tokens",
                  absl::StrCat(Table({"GPU", "Model", "Throughput", "Owned", "Cloud"}, cost_rows),
                               "<p class=\"note\">", T(j["cost"]["basis"]), "</p>"));
  std::string dec;
  for (const Json& d : j["decisions"]) {
    absl::StrAppend(&dec, "<h3>Pick ", T(d["gpu"]), " if</h3>", Strings(d["reasons"]));
  }
  main += Section("decisions", "Which to pick", dec);
  PageResult p;
  p.body = Page(absl::StrJoin(names, " vs "), main);
  return p;
}

PageResult UpgradePage(const Snapshot& snap, const std::vector<QueryParam>& q) {
  ApiResult r = CallApi(snap.run, "upgrade", q);
  if (r.status != 200) return internal::ErrorPage(r, "Cannot plan upgrades", GpuLink, nullptr);
  const Json& j = r.json;
  std::string label = Text(j["current"]["label"]);
  std::string main = absl::StrCat("<h1>Upgrades from ", Html(label), "</h1><p class=\"lede\">Now: ",
                                  T(j["current"]["native_models"]), " models fit natively; best: ",
                                  T(j["current"]["best_model"]), ".</p>");
  // Upgrades are judged for one workload in one mode: both choosable, like the other pages.
  main += internal::WorkloadChooser(snap, Text(j["workload"]), internal::Without(q, {"workload"}),
                                    "/upgrade");
  main += internal::ModeChooser(snap, Text(j["mode"]), internal::Without(q, {"mode"}), "/upgrade");
  main += Section("options", "Upgrade options", UpgradeTable(j["options"]));
  std::vector<std::vector<std::string>> rows;
  for (const Json& s : j["itinerary"]) {
    rows.push_back({T(s["step"]), T(s["action"]),
                    absl::StrCat("$", T(s["cumulative_usd"], 0)), T(s["why"])});
  }
  main += Section("itinerary", "Itinerary", Table({"Step", "Buy", "Spent so far", "Why"}, rows));
  main += Section("notes", "Notes", Strings(j["notes"]));
  PageResult p;
  p.body = Page(absl::StrCat("Upgrades from ", label), main);
  return p;
}

PageResult RecommendPage(const Snapshot& snap, const std::vector<QueryParam>& q) {
  ApiResult r = CallApi(snap.run, "recommend", q);
  if (r.status != 200) return internal::ErrorPage(r, "Cannot recommend", GpuLink, nullptr);
  const Json& j = r.json;
  std::string label = Text(j["setup"]["label"]);
  std::string gpu_for_links = label;
  if (auto g = Last(q, "gpu"); g && All(q, "gpu").size() == 1) gpu_for_links = *g;
  std::string main = absl::StrCat("<h1>Best models for ", Html(label), "</h1>");
  main += internal::ModeChooser(snap, Text(j["mode"]), internal::Without(q, {"mode"}), "/recommend");
  std::vector<std::vector<std::string>> rows;
  std::vector<Bar> bars;
  for (const Json& p : j["picks"]) {
    rows.push_back({T(p.value("workload", j["workload"])), T(p["rank"]),
                    Link(FitPath(Text(p["model"]), gpu_for_links), Text(p["model"])),
                    GradeBadge(p["grade"]), T(p["quant"]),
                    absl::StrCat(T(p["decode_tok_s"]), " tok/s"), T(p["context"]),
                    T(p["fit"]["kind"]), RunCommand(Text(p["run_command"]))});
    bars.push_back({Text(p["model"]), Num(p["decode_tok_s"]),
                    absl::StrCat(Text(p["decode_tok_s"]), " tok/s"), false});
  }
  main += Section("picks", "Picks",
                  absl::StrCat(Table({"Workload", "Rank", "Model", "Grade", "Quant", "Decode",
                                      "Context", "Fit", "Run"},
                                     rows),
                               BarChart("Decode speed of the picks", "tok/s", bars)));
  main += Section("notes", "Notes", Strings(j["notes"]));
  PageResult p;
  p.body = Page(absl::StrCat("Best models for ", label), main);
  return p;
}

}  // namespace fitrank::cli::serve
