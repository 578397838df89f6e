// `/`: the search form. Autocomplete is a <datalist> of the catalog's names (works without
// JavaScript); the forms submit GET so every result is a shareable URL.
#include "absl/strings/str_cat.h"
#include "cli/serve/escape.h"
#include "cli/serve/html.h"
#include "cli/serve/layout.h"
#include "cli/serve/pages.h"

namespace fitrank::cli::serve {

namespace {

std::string DataList(const std::string& id, const std::vector<std::string>& names) {
  std::string out = absl::StrCat("<datalist id=\"", Html(id), "\">");
  for (const std::string& n : names) absl::StrAppend(&out, "<option value=\"", Html(n), "\">");
  return out + "</datalist>";
}

std::string Select(const std::string& id, const std::string& name, const std::string& label,
                   const std::vector<NamedId>& items, const std::string& current,
                   const std::string& extra_value = "", const std::string& extra_label = "") {
  std::string out = absl::StrCat("<label for=\"", Html(id), "\">", Html(label), "</label><select id=\"",
                                 Html(id), "\" name=\"", Html(name), "\">");
  if (!extra_value.empty()) {
    absl::StrAppend(&out, "<option value=\"", Html(extra_value), "\">", Html(extra_label), "</option>");
  }
  for (const NamedId& i : items) {
    absl::StrAppend(&out, "<option value=\"", Html(i.id), "\"", i.id == current ? " selected" : "",
                    ">", Html(i.name), "</option>");
  }
  return out + "</select>";
}

}  // namespace

PageResult SearchPage(const Snapshot& snap, const std::vector<QueryParam>& q) {
  std::string main =
      "<h1>Which AI models will run on your GPU?</h1><p class=\"lede\">Pick your GPUs (several "
      "for a rig), your RAM, what you do and how you serve; fitrank ranks the models that fit, "
      "with speeds and the commands to run them. Every number is an estimate from the "
      "hardware and the model's real layout.</p>";
  main += DataList("gpu-names", snap.gpu_names);
  main += DataList("model-names", snap.model_names);
  main += "<form class=\"search\" method=\"get\" action=\"/recommend\"><fieldset><legend>Your "
          "setup</legend>";
  for (int i = 1; i <= 3; ++i) {
    absl::StrAppend(&main, "<label for=\"gpu", i, "\">GPU ", i, i == 1 ? "" : " (optional)",
                    "</label><input id=\"gpu", i, "\" name=\"gpu\" list=\"gpu-names\" "
                    "autocomplete=\"off\"", i == 1 ? " required placeholder=\"RTX 4090\"" : "",
                    ">");
  }
  main += "<label for=\"ram\">Host RAM (GB, optional)</label><input id=\"ram\" name=\"ram\" "
          "type=\"number\" min=\"0\" max=\"4096\" step=\"1\" inputmode=\"numeric\">";
  main += Select("workload", "workload", "Workload", snap.workloads, "chat", "all", "All workloads");
  main += Select("mode", "mode", "Operating mode", snap.modes, snap.default_mode);
  main += "</fieldset><button type=\"submit\">Find models</button></form>";
  main += "<div class=\"cols\"><form class=\"search\" method=\"get\" action=\"/gpu\"><fieldset>"
          "<legend>A GPU's page</legend><label for=\"gpu-page\">GPU</label><input id=\"gpu-page\" "
          "name=\"gpu\" list=\"gpu-names\" autocomplete=\"off\" required placeholder=\"MI325X\">"
          "</fieldset><button type=\"submit\">Open</button></form>";
  main += "<form class=\"search\" method=\"get\" action=\"/fit\"><fieldset><legend>One model on "
          "one GPU</legend><label for=\"fit-model\">Model</label><input id=\"fit-model\" "
          "name=\"model\" list=\"model-names\" autocomplete=\"off\" required placeholder=\"llama "
          "3.3 70b\"><label for=\"fit-gpu\">GPU</label><input id=\"fit-gpu\" name=\"gpu\" "
          "list=\"gpu-names\" autocomplete=\"off\" required placeholder=\"RTX 4090\"></fieldset>"
          "<button type=\"submit\">Will it run?</button></form></div>";
  main += "<form class=\"search\" method=\"get\" action=\"/compare\"><fieldset><legend>Compare "
          "GPUs</legend><label for=\"cmp1\">GPU</label><input id=\"cmp1\" name=\"gpu\" "
          "list=\"gpu-names\" required placeholder=\"RTX 4090\"><label for=\"cmp2\">GPU</label>"
          "<input id=\"cmp2\" name=\"gpu\" list=\"gpu-names\" required placeholder=\"RTX 3090\">"
          "</fieldset><button type=\"submit\">Compare</button></form>";
  (void)q;
  PageResult p;
  p.body = Page("Will it run?", main);
  return p;
}

}  // namespace fitrank::cli::serve
