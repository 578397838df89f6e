// /gpu/{id}: the GPU page, every block of `fitrank gpu --json`.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_text.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/pages.h"
#include "cli/serve/svg.h"

namespace fitrank::cli::serve {

namespace {

using internal::QueryString;

std::string GpuLink(const std::string& name, const void*) { return GpuPath(name); }

// A link from this page to a model's fit page on the same setup: the page's setup and mode
// parameters (gpus, ram, mode) travel with it, so the fit page answers for the same hardware.
std::vector<QueryParam> SetupParams(const std::vector<QueryParam>& q,
                                    const std::string& workload) {
  std::vector<QueryParam> keep;
  for (const QueryParam& p : q) {
    if (p.name == "gpus" || p.name == "ram" || p.name == "mode") keep.push_back(p);
  }
  if (!workload.empty()) keep.push_back({"workload", workload});
  return keep;
}

std::string FitLink(const std::string& model, const std::string& gpu_name,
                    const std::vector<QueryParam>& q, const std::string& workload) {
  const std::string query = QueryString(SetupParams(q, workload));
  return absl::StrCat(FitPath(model, gpu_name), query.empty() ? "" : "?", query);
}

// The query of a link to /upgrade or /recommend for this GPU on the same setup.
std::vector<QueryParam> SameSetup(const std::string& gpu_name, const std::vector<QueryParam>& q,
                                  const std::string& workload) {
  std::vector<QueryParam> out = {{"gpu", gpu_name}};
  for (QueryParam& p : SetupParams(q, workload)) out.push_back(std::move(p));
  return out;
}

std::string Specs(const Json& s) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Vendor", Text(s["vendor"])},
      {"Family", Text(s["family"])},
      {"Architecture", Text(s["architecture"])},
      {"Segment", Text(s["segment"])},
      {"Memory", absl::StrCat(FormatCapacity(s["memory_gb"].is_number() ? s["memory_gb"].get<double>() : 0), " ", Text(s["memory_type"]))},
      {"Usable for models", absl::StrCat(Text(s["usable_gb"]), " GB")},
      {"Bandwidth", absl::StrCat(Text(s["bandwidth_gbps"], 0), " GB/s")},
      {"FP16", absl::StrCat(Text(s["fp16_tflops"]), " TFLOPS")},
      {"INT8", absl::StrCat(Text(s["int8_tops"]), " TOPS")},
      {"Interconnect", Text(s["interconnect"])},
      {"TDP", absl::StrCat(Text(s["tdp_w"], 0), " W")},
      {"Launch", Text(s["launch_year"])},
      {"MSRP", Money(s["msrp_usd"])},
      {"Street price", Money(s["street_usd"])},
  };
  std::string out = "<dl class=\"specs\">";
  for (const auto& [k, v] : rows) absl::StrAppend(&out, "<dt>", Html(k), "</dt><dd>", Html(v), "</dd>");
  out += "</dl>";
  if (s.contains("source")) absl::StrAppend(&out, "<p class=\"source\">Source: ", T(s["source"]), "</p>");
  return out;
}

std::string Picks(const Json& rec, const std::string& gpu_name, const std::vector<QueryParam>& q,
                  const Snapshot& snap) {
  std::string out;
  for (auto it = rec.begin(); it != rec.end(); ++it) {
    std::string wname = it.key();
    for (const NamedId& w : snap.workloads) {
      if (w.id == it.key()) wname = w.name;
    }
    absl::StrAppend(&out, "<h3>", Html(wname), "</h3>");
    if (it.value().empty()) {
      out += "<p>No model fits this workload here.</p>";
      continue;
    }
    out += "<ol class=\"picks\">";
    for (const Json& p : it.value()) {
      absl::StrAppend(&out, "<li class=\"pick\" data-workload=\"", Html(it.key()), "\">",
                      GradeBadge(p["grade"]), " <a class=\"model\" href=\"",
                      Html(FitLink(Text(p["model"]), gpu_name, q, it.key())), "\">",
                      T(p["model"]), "</a> <span class=\"meta\">", T(p["quant"]), " · ",
                      T(p["decode_tok_s"]), " tok/s · ", T(p["context"]), " ctx · ",
                      T(p["runtime"]), " · <abbr title=\"estimate\">EST.</abbr></span>");
      if (p.contains("reasons") && !p["reasons"].empty()) {
        std::vector<std::string> reasons;
        for (const Json& r : p["reasons"]) reasons.push_back(Text(r));
        absl::StrAppend(&out, "<p class=\"why\">", Html(absl::StrJoin(reasons, " ")), "</p>");
      }
      if (!Text(p["run_command"]).empty() && p["run_command"].is_string() &&
          !p["run_command"].get<std::string>().empty()) {
        out += RunCommand(p["run_command"].get<std::string>());
      }
      out += "</li>";
    }
    out += "</ol>";
  }
  return out;
}

std::string Capability(const Json& cap) {
  std::vector<std::vector<std::string>> rows;
  for (const Json& c : cap) {
    std::string status = Text(c["status"]);
    rows.push_back({T(c["label"]),
                    absl::StrCat("<span class=\"status status-", Html(status), "\">", Html(status),
                                 "</span>"),
                    absl::StrCat(T(c["model"]), c["quant"].is_string() && !c["quant"].get<std::string>().empty()
                                                    ? absl::StrCat(" ", T(c["quant"]))
                                                    : ""),
                    T(c["detail"])});
  }
  return Table({"Capability", "Status", "Representative model", "Detail"}, rows);
}

std::string OutOfReach(const Json& oor, const std::string& gpu_name,
                       const std::vector<QueryParam>& q) {
  if (oor.empty()) return "<p>Nothing notable is out of reach.</p>";
  std::vector<std::vector<std::string>> rows;
  for (const Json& o : oor) {
    std::string scale = "—";
    if (o["scale_out"].is_object()) {
      scale = absl::StrCat(Text(o["scale_out"]["gpus"]), "× via ", Text(o["scale_out"]["via"]),
                           " — ", Text(o["scale_out"]["decode_tok_s"]), " tok/s");
    }
    rows.push_back({Link(FitLink(Text(o["model"]), gpu_name, q, ""), Text(o["model"])),
                    absl::StrCat(T(o["params_b"]), "B"), T(o["quant"]),
                    absl::StrCat(T(o["needs_gb"]), " GB"), absl::StrCat(T(o["missing_gb"]), " GB"),
                    Html(scale)});
  }
  return Table({"Model", "Params", "Quant", "Needs", "Missing", "Scale out"}, rows);
}

std::string Diffusion(const Json& d) {
  std::string out = absl::StrCat("<p>", T(d["runnable"]), " of ", T(d["total"]),
                                 " image and video models run here (", T(d["native"]),
                                 " natively).</p>");
  std::vector<std::vector<std::string>> rows;
  for (const Json& m : d["models"]) {
    std::string speed = !m["seconds_per_image"].is_null()
                            ? absl::StrCat(Text(m["seconds_per_image"], 2), " s/image")
                            : !m["ms_per_frame"].is_null()
                                  ? absl::StrCat(Text(m["ms_per_frame"], 0), " ms/frame")
                                  : "—";
    rows.push_back({T(m["model"]), T(m["kind"]), T(m["status"]), T(m["precision"]),
                    absl::StrCat(T(m["width"]), "×", T(m["height"])),
                    absl::StrCat(T(m["memory_gb"]), " GB"), Html(speed)});
  }
  out += Table({"Model", "Kind", "Status", "Precision", "Size", "Memory", "Speed"}, rows);
  if (d.contains("basis")) absl::StrAppend(&out, "<p class=\"note\">", T(d["basis"]), "</p>");
  return out;
}

std::string Scaling(const Json& m, const std::string& gpu_short) {
  std::vector<std::vector<std::string>> rows;
  std::vector<Bar> bars;
  for (const Json& r : m["rows"]) {
    rows.push_back({absl::StrCat(T(r["gpus"]), "×"), absl::StrCat(T(r["memory_gb"]), " GB"),
                    absl::StrCat(T(r["models_fit"]), " / ", T(r["models_total"])),
                    absl::StrCat(T(r["bandwidth_gbps"], 0), " GB/s"),
                    absl::StrCat(T(r["decode_speedup"], 2), "×")});
    bars.push_back({absl::StrCat(Text(r["gpus"]), "× ", gpu_short),
                    r["models_fit"].is_number() ? r["models_fit"].get<double>() : -1,
                    absl::StrCat(Text(r["models_fit"]), " models"), false});
  }
  std::string out = absl::StrCat("<p>Interconnect: ", T(m["interconnect"]), " (",
                                 T(m["interconnect_gbps"]), " GB/s), scaling efficiency ",
                                 T(m["scaling_efficiency"], 2), ".</p>");
  std::vector<Bar> speed;
  for (const Json& r : m["rows"]) {
    speed.push_back({absl::StrCat(Text(r["gpus"]), "× ", gpu_short),
                     r["decode_speedup"].is_number() ? r["decode_speedup"].get<double>() : -1,
                     absl::StrCat(Text(r["decode_speedup"], 2), "×"), false});
  }
  out += "<div class=\"cols\">";
  out += BarChart("Models that fit at 1×, 2×, 4× and 8×", "models", bars);
  out += BarChart("Decode speed-up over one GPU", "×", speed);
  out += "</div>";
  out += Table({"Config", "Memory", "Models that fit", "Bandwidth", "Decode speed-up"}, rows);
  if (m.contains("basis")) absl::StrAppend(&out, "<p class=\"note\">", T(m["basis"]), "</p>");
  return out;
}

std::string Buying(const Json& b) {
  std::string out = absl::StrCat("<p class=\"verdict verdict-", Html(Text(b["verdict_id"])),
                                 "\"><strong>", T(b["verdict"]), "</strong></p><p>",
                                 T(b["summary"]), "</p>");
  if (!b["limiter"].is_null()) {
    absl::StrAppend(&out, "<h3>What will limit you first</h3><p>", T(b["limiter"]), "</p>");
  }
  auto strings = [](const Json& a) {
    std::vector<std::string> v;
    if (a.is_array()) {
      for (const Json& x : a) v.push_back(x.is_string() ? x.get<std::string>() : Text(x.value("title", Json())));
    }
    return v;
  };
  if (b.contains("red_flags") && !b["red_flags"].empty()) {
    absl::StrAppend(&out, "<h3>Red flags</h3>", List(strings(b["red_flags"])));
  }
  if (b.contains("itinerary") && !b["itinerary"].empty()) {
    absl::StrAppend(&out, "<h3>Best upgrade itinerary</h3>", List(strings(b["itinerary"])));
  }
  return out;
}

}  // namespace

std::string UpgradeTable(const Json& ups);  // page_misc.cc

PageResult GpuPage(const Snapshot& snap, const std::string& gpu, const std::vector<QueryParam>& q) {
  ApiResult r = CallApi(snap.run, absl::StrCat("gpu/", UrlEncode(gpu)), q);
  if (r.status != 200) return internal::ErrorPage(r, "Bad request", GpuLink, nullptr);
  const Json& j = r.json;
  const Json& s = j["specs"];
  std::string name = Text(s["name"]);
  std::string mode = Text(j["mode"]["id"]);
  std::string main = absl::StrCat(
      "<h1>", Html(name), "</h1><p class=\"lede\">", T(s["vendor"]), " · ", T(s["architecture"]),
      " · ", Capacity(s["memory_gb"]), " ", T(s["memory_type"]), " · ", T(s["bandwidth_gbps"], 0),
      " GB/s</p>");
  main += Section("mode", "Operating mode",
                  absl::StrCat(internal::ModeChooser(snap, mode, internal::Without(q, {"mode"}),
                                                     GpuPath(gpu)),
                               "<p class=\"current-mode\"><strong>", T(j["mode"]["name"]),
                               "</strong>: ", T(j["mode"]["description"]), "</p>"));
  main += Section("picks", "Recommendations by workload", Picks(j["recommendations"], name, q, snap));
  main += Section("capability", "AI capability matrix", Capability(j["capability_matrix"]));
  std::string traits = "<div class=\"cols\"><div><h3>Strengths</h3>";
  traits += List(j["strengths"].get<std::vector<std::string>>(), "strengths");
  traits += "</div><div><h3>Considerations</h3>";
  traits += List(j["considerations"].get<std::vector<std::string>>(), "considerations");
  traits += "</div></div>";
  main += Section("traits", "For AI workloads", traits);
  main += Section("specs", "Specifications", Specs(s));
  main += Section("out-of-reach", "Just out of reach", OutOfReach(j["out_of_reach"], name, q));
  main += Section("diffusion", "Image and video generation", Diffusion(j["diffusion"]));
  main += Section("scaling", "Multi-GPU scaling", Scaling(j["multi_gpu"], Text(s["name"])));
  main += Section("buying", "Buying advice", Buying(j["buying_advice"]));
  main += Section("upgrades", "Upgrade paths",
                  absl::StrCat(UpgradeTable(j["upgrades"]), "<p>",
                               Link(absl::StrCat("/upgrade?", QueryString(SameSetup(name, q, ""))),
                                    "All upgrade options"),
                               " · ",
                               Link(absl::StrCat("/recommend?",
                                                 QueryString(SameSetup(name, q, "all"))),
                                    "Every pick"),
                               "</p>"));
  PageResult p;
  p.body = Page(name, main);
  return p;
}

}  // namespace fitrank::cli::serve
