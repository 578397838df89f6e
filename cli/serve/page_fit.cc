// /fit/{model}/{gpu}: one model on one setup, from `fitrank fit --json`.
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
using internal::Without;

struct FitNames {
  std::string model, gpu;
};

// Candidates for an unknown name: we do not know whether the model or the GPU was unknown,
// so each candidate link keeps the other name; the message says which one it was.
std::string CandidateLink(const std::string& c, const void* ctx) {
  const FitNames* n = static_cast<const FitNames*>(ctx);
  return n->gpu.empty() ? FitPath(n->model, c) : FitPath(c, n->gpu);
}

double Num(const Json& v) { return v.is_number() ? v.get<double>() : NAN; }

std::string FitLabel(const Json& fit) {
  std::string kind = Text(fit["kind"]);
  if (kind == "offload") {
    return absl::StrCat("offload (", Text(fit["offload_pct"]), "% to host RAM, ",
                        Text(fit["host_ram_gb"]), " GB)");
  }
  return kind;
}

std::string Stat(absl::string_view label, absl::string_view value_html) {
  return absl::StrCat("<div class=\"stat\"><dt>", Html(label), "</dt><dd>", value_html, "</dd></div>");
}

std::string Headline(const Json& j) {
  const Json& m = j["memory"];
  std::string out = "<dl class=\"stats\">";
  out += Stat("Grade", GradeBadge(j["grade"]));
  out += Stat("Fit", Html(FitLabel(j["fit"])));
  out += Stat("Decode", absl::StrCat(T(j["decode_tok_s"]), " tok/s <small>(", T(j["decode_range"]["low"]),
                                     "–", T(j["decode_range"]["high"]), ")</small>"));
  out += Stat("Time to first token", absl::StrCat(T(j["ttft_ms"], 0), " ms"));
  out += Stat("Safe context", T(j["safe_context"]));
  out += Stat("Memory", absl::StrCat(T(m["total_gb"]), " / ", T(m["usable_gb"]), " GB"));
  out += "</dl>";
  out += StackedBar("Memory needed vs usable", "GB",
                    {{"weights", Num(m["weights_gb"])},
                     {"KV cache", Num(m["kv_gb"])},
                     {"overhead", Num(m["overhead_gb"])}},
                    {Num(m["usable_gb"]), absl::StrCat("usable ", Text(m["usable_gb"]), " GB")});
  return out;
}

std::string Advice(const Json& j) {
  std::string out;
  if (j["summary"].is_string()) absl::StrAppend(&out, "<p>", T(j["summary"]), "</p>");
  if (j.contains("reasons") && !j["reasons"].empty()) {
    out += List(j["reasons"].get<std::vector<std::string>>(), "reasons");
  }
  for (const Json& a : j["advice"]) {
    absl::StrAppend(&out, "<div class=\"advice\"><h3>", T(a["title"]), "</h3><p>", T(a["detail"]),
                    "</p></div>");
  }
  return out;
}

std::string Workloads(const Json& j, const std::string& model, const std::string& gpu,
                      const std::vector<QueryParam>& q) {
  std::vector<std::vector<std::string>> rows;
  for (const Json& w : j["workloads"]) {
    std::vector<QueryParam> link = Without(q, {"workload"});
    link.push_back({"workload", Text(w["workload"])});
    rows.push_back({Link(absl::StrCat(FitPath(model, gpu), "?", QueryString(link)), Text(w["workload"])),
                    GradeBadge(w["grade"]), Html(FitLabel(w["fit"])),
                    absl::StrCat(T(w["decode_tok_s"]), " tok/s"), absl::StrCat(T(w["ttft_ms"], 0), " ms"),
                    T(w["context"])});
  }
  return Table({"Workload", "Grade", "Fit", "Decode", "TTFT", "Context"}, rows);
}

// The quant explorer: a form (select + Apply) that reloads with ?quant=; app.js updates the
// panel in place from the options' data attributes. The table and charts show every quant.
std::string Quants(const Json& j, const std::string& model, const std::string& gpu,
                   const std::vector<QueryParam>& q) {
  std::string current = Text(j["quant"]);
  std::string out = absl::StrCat(
      "<form class=\"quant-explorer\" method=\"get\" action=\"", Html(FitPath(model, gpu)), "\">");
  for (const QueryParam& p : Without(q, {"quant"})) {
    absl::StrAppend(&out, "<input type=\"hidden\" name=\"", Html(p.name), "\" value=\"",
                    Html(p.value), "\">");
  }
  out += "<label for=\"quant-select\">Select a quantization to explore</label>"
         "<select id=\"quant-select\" name=\"quant\">";
  const Json* chosen = nullptr;
  for (const Json& r : j["quants"]) {
    std::string id = Text(r["quant"]);
    if (id == current) chosen = &r;
    absl::StrAppend(&out, "<option value=\"", Html(id), "\"", id == current ? " selected" : "",
                    " data-memory=\"", T(r["memory_gb"]), " GB\" data-decode=\"",
                    T(r["decode_tok_s"]), " tok/s\" data-grade=\"", T(r["grade"]),
                    "\" data-fit=\"", Html(FitLabel(r["fit"])), "\" data-quality=\"",
                    T(r["quality_label"]), "\">", Html(id),
                    r.value("best", false) ? " (best here)" : "", "</option>");
  }
  out += "</select><button type=\"submit\">Apply</button></form>";
  if (chosen != nullptr) {
    const Json& r = *chosen;
    absl::StrAppend(&out, "<dl class=\"stats quant-panel\" aria-live=\"polite\">",
                    Stat("Memory", absl::StrCat("<span data-field=\"memory\">", T(r["memory_gb"]), " GB</span>")),
                    Stat("Decode", absl::StrCat("<span data-field=\"decode\">", T(r["decode_tok_s"]), " tok/s</span>")),
                    Stat("Grade", absl::StrCat("<span data-field=\"grade\">", T(r["grade"]), "</span>")),
                    Stat("Fit", absl::StrCat("<span data-field=\"fit\">", Html(FitLabel(r["fit"])), "</span>")),
                    Stat("Quality", absl::StrCat("<span data-field=\"quality\">", T(r["quality_label"]), "</span>")),
                    "</dl>");
  }
  std::vector<Bar> speed, memory;
  std::vector<std::vector<std::string>> rows;
  for (const Json& r : j["quants"]) {
    std::string id = Text(r["quant"]);
    bool hi = id == current;
    bool runs = r.value("supported", true);
    speed.push_back({id, runs ? Num(r["decode_tok_s"]) : NAN,
                     runs ? absl::StrCat(Text(r["decode_tok_s"]), " tok/s") : "not supported here",
                     hi});
    memory.push_back({id, Num(r["memory_gb"]), absl::StrCat(Text(r["memory_gb"]), " GB"), hi});
    std::vector<QueryParam> link = Without(q, {"quant"});
    link.push_back({"quant", id});
    rows.push_back({Link(absl::StrCat(FitPath(model, gpu), "?", QueryString(link)),
                         absl::StrCat(id, r.value("best", false) ? " ★ best here" : "")),
                    T(r["bits"]), absl::StrCat(T(r["memory_gb"]), " GB"), T(r["quality_label"]),
                    Html(FitLabel(r["fit"])), absl::StrCat(T(r["decode_tok_s"]), " tok/s"),
                    GradeBadge(r["grade"]), T(r["note"])});
  }
  out += "<div class=\"cols\">";
  out += BarChart("Decode speed per quantization", "tok/s", speed);
  out += BarChart("Memory per quantization", "GB", memory,
                  RefLine{Num(j["memory"]["usable_gb"]),
                          absl::StrCat("usable ", Text(j["memory"]["usable_gb"]), " GB")});
  out += "</div>";
  out += Table({"Quant", "Bits", "Memory", "Quality", "Fit", "Decode", "Grade", "Note"}, rows);
  return out;
}

std::string Commands(const Json& j) {
  std::string out;
  for (const Json& c : j["run_commands"]) {
    absl::StrAppend(&out, "<h3>", T(c["runtime_name"]), "</h3>", RunCommand(Text(c["command"])));
    if (c["note"].is_string() && !c["note"].get<std::string>().empty()) {
      absl::StrAppend(&out, "<p class=\"note\">", T(c["note"]), "</p>");
    }
  }
  return out.empty() ? "<p>No runtime here runs this model.</p>" : out;
}

std::string EmbedSnippet(const std::string& model, const std::string& gpu,
                         const std::vector<QueryParam>& q, const std::string& host) {
  std::string path = FitPath(model, gpu);
  std::string query = QueryString(Without(q, {"quant"}));
  std::string src = absl::StrCat(host, "/embed", path, query.empty() ? "" : "?", query);
  std::string snippet = absl::StrCat(
      "<iframe src=\"", src,
      "\" width=\"400\" height=\"180\" style=\"border:none;border-radius:12px;overflow:hidden\" "
      "title=\"fitrank: ",
      Html(model), " on ", Html(gpu), "\"></iframe>");
  std::string badge = absl::StrCat("<img src=\"", host, "/badge", path, ".svg\" alt=\"fitrank: ",
                                   Html(model), " on ", Html(gpu), "\">");
  return absl::StrCat("<p>Paste this into any page to show a live fit card:</p>",
                      RunCommand(snippet), "<p>Preview:</p>",
                      "<iframe class=\"embed-preview\" src=\"/embed", Html(path),
                      query.empty() ? "" : "?", Html(query),
                      "\" width=\"400\" height=\"180\" title=\"Fit card preview\"></iframe>",
                      "<p>Or a badge:</p>", RunCommand(badge), "<p><img src=\"/badge", Html(path),
                      ".svg\" alt=\"Fit badge\"></p>");
}

}  // namespace

PageResult FitPage(const Snapshot& snap, const std::string& model, const std::string& gpu,
                   const std::vector<QueryParam>& q, const std::string& base_url) {
  std::vector<QueryParam> api = {{"model", model}, {"gpu", gpu}};
  for (const QueryParam& p : q) api.push_back(p);
  ApiResult r = CallApi(snap.run, "fit", api);
  FitNames names{model, gpu};
  if (r.status != 200) {
    std::string msg = r.json.contains("error") ? r.json["error"].value("message", "") : "";
    if (msg.find("GPU") != std::string::npos) names.gpu.clear();
    return internal::ErrorPage(r, "Bad request", CandidateLink, &names);
  }
  const Json& j = r.json;
  std::string model_name = Text(j["model"]);
  std::string gpu_label = Text(j["setup"]["label"]);
  std::string main = absl::StrCat("<h1>", Html(model_name), " on ", Html(gpu_label),
                                  "</h1><p class=\"lede\">", T(j["params_b"]), "B parameters",
                                  j["active_params_b"].is_number() &&
                                          Num(j["active_params_b"]) != Num(j["params_b"])
                                      ? absl::StrCat(" (", T(j["active_params_b"]), "B active)")
                                      : "",
                                  " · ", T(j["quant"]), " · ", T(j["runtime"]), " · ",
                                  Link(GpuPath(gpu), "GPU page"), "</p>");
  main += Section("headline", "Will it run?", Headline(j));
  main += Section("advice", "Advice", Advice(j));
  main += Section("workloads", "Per workload", Workloads(j, model, gpu, q));
  main += Section("quants", "Quantization explorer", Quants(j, model, gpu, q));
  main += Section("run", "Run it", Commands(j));
  main += Section("embed", "Embed this result", EmbedSnippet(model, gpu, q, base_url));
  PageResult p;
  p.body = Page(absl::StrCat(model_name, " on ", gpu_label), main);
  return p;
}

}  // namespace fitrank::cli::serve
