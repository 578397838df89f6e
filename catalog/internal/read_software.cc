// Quantizations and runtimes.
#include "absl/strings/str_cat.h"
#include "catalog/internal/records.h"
#include "catalog/vocabulary.h"

namespace fitrank::catalog_internal {

void ReadQuant(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Quant* q, Places* places) {
  places->what = EntryWhat(node, "quant", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  // Quant ids keep their customary spelling: Q4_K_M, IQ3_XXS, FP8.
  ReadId(r, /*any_case=*/true, &q->id, places);
  ReadAliases(r, &q->aliases, places);
  r.Enum("family", QuantFamilies(), &q->family, /*required=*/true);
  r.Required("bits", &q->bits, 1, 32);
  r.Required("bpw", &q->bpw, 1, 32);
  r.Optional("variable_bpw", &q->variable_bpw);
  r.Required("quality_retention", &q->quality_retention, 0.05, 1);
  r.Required("quality_source", &q->quality_source);
  if (r.Optional("runtimes", &q->runtimes)) {
    YamlNode list = r.Child("runtimes");
    for (size_t i = 0; i < list.size() && i < q->runtimes.size(); ++i) {
      places->refs.emplace_back(q->runtimes[i], list.Item(i).Where(r.file()));
    }
  } else if (r.ok() && !r.Has("runtimes")) {
    r.Missing("runtimes", "[llama.cpp, ...]");
  }
  std::vector<std::string> hw = {"FP8", "FP6", "FP4", "INT8", "INT4", "BF16"};
  r.Enum("requires_precision", hw, &q->requires_precision, /*required=*/false);
  r.Optional("quantize_with", &q->quantize_with);
  r.Optional("notes", &q->notes);
  ReadSource(r, frame, &q->source);
  r.CheckUnknownKeys();
  if (q->bpw > 0 && q->bits > 0 && q->bpw + 0.01 < q->bits * 0.5) {
    Inconsistent(r, "bpw",
                 absl::StrCat("quant `", q->id, "`: effective bpw ", q->bpw,
                              " is less than half its nominal ", q->bits, " bits"),
                 "bpw is bits per weight measured on real files, scales included");
  }
}

void ReadRuntime(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
                 Runtime* rt, Places* places) {
  places->what = EntryWhat(node, "runtime", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  ReadId(r, /*any_case=*/false, &rt->id, places);
  if (r.Required("name", &rt->name)) places->name = r.WhereOf("name");
  ReadAliases(r, &rt->aliases, places);
  ReadWordList(r, "platforms", Platforms(), /*required=*/true, &rt->platforms);
  ReadWordList(r, "quant_families", QuantFamilies(), /*required=*/true, &rt->quant_families);
  ReadWordList(r, "parallelism", ParallelismKinds(), /*required=*/false, &rt->parallelism);
  r.Optional("serving", &rt->serving);
  r.Required("command", &rt->command);
  r.Optional("tag_quant", &rt->tag_quant);
  r.Optional("server_command", &rt->server_command);
  r.Optional("notes", &rt->notes);
  ReadSource(r, frame, &rt->source);
  r.CheckUnknownKeys();
}

}  // namespace fitrank::catalog_internal
