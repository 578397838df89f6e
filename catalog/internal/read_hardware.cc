// GPUs, interconnects and prices.
#include "absl/strings/str_cat.h"
#include "catalog/internal/records.h"
#include "catalog/vocabulary.h"

namespace fitrank::catalog_internal {

void ReadGpu(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
             Gpu* g, Places* places) {
  places->what = EntryWhat(node, "gpu", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  ReadId(r, /*any_case=*/false, &g->id, places);
  if (r.Required("name", &g->name)) places->name = r.WhereOf("name");
  r.Enum("vendor", GpuVendors(), &g->vendor, /*required=*/true);
  ReadAliases(r, &g->aliases, places);
  r.Required("family", &g->family);
  r.Required("architecture", &g->architecture);
  std::string segment;
  if (r.Enum("segment", SegmentNames(), &segment, /*required=*/true)) {
    g->segment = *ParseSegment(segment);
  }
  r.Optional("form_factor", &g->form_factor);

  r.Required("memory_gb", &g->memory_gb, 0.5, 4096);
  r.Required("memory_type", &g->memory_type);
  OptionalNum(r, "memory_bus_bits", &g->memory_bus_bits, 16, 16384);
  r.Required("bandwidth_gbps", &g->bandwidth_gbps, 1, 100000);

  OptionalNum(r, "fp32_tflops", &g->fp32_tflops, 0, 10000);
  r.Required("fp16_tflops", &g->fp16_tflops, 0.001, 50000);
  OptionalNum(r, "fp16_fp32acc_tflops", &g->fp16_fp32acc_tflops, 0, 50000);
  OptionalNum(r, "int8_tops", &g->int8_tops, 0, 100000);
  OptionalNum(r, "fp8_tflops", &g->fp8_tflops, 0, 100000);
  OptionalNum(r, "fp4_tflops", &g->fp4_tflops, 0, 200000);
  ReadWordList(r, "precisions", Precisions(), /*required=*/false, &g->precisions);
  ReadWordList(r, "platforms", Platforms(), /*required=*/true, &g->platforms);
  OptionalNum(r, "gpu_cores", &g->gpu_cores, 1, 1000000);

  if (r.Optional("interconnect", &g->interconnect)) {
    places->refs.emplace_back(g->interconnect, r.WhereOf("interconnect"));
  }
  OptionalNum(r, "interconnect_gbps", &g->interconnect_gbps, 0, 20000);
  OptionalNum(r, "pcie_gbps", &g->pcie_gbps, 0, 1000);

  OptionalNum(r, "tdp_w", &g->tdp_w, 1, 20000);
  r.Required("launch_year", &g->launch_year, 1995, 2035);
  OptionalNum(r, "msrp_usd", &g->msrp_usd, 0, 10000000);
  r.Optional("unified_memory", &g->unified_memory);
  r.Optional("gpu_memory_share", &g->gpu_memory_share, 0.05, 1);
  r.Optional("notes", &g->notes);
  ReadSource(r, frame, &g->source);
  r.CheckUnknownKeys();

  // A hardware precision without its throughput (or the reverse) is a half-filled entry.
  auto has = [&](absl::string_view p) {
    for (const std::string& s : g->precisions) {
      if (s == p) return true;
    }
    return false;
  };
  if (g->fp8_tflops > 0 && !g->precisions.empty() && !has("FP8")) {
    Inconsistent(r, "fp8_tflops",
                 absl::StrCat("gpu `", g->id, "` has `fp8_tflops` but FP8 is not in `precisions`"),
                 "add FP8 to `precisions`, or drop `fp8_tflops`");
  }
  if (g->fp4_tflops > 0 && !g->precisions.empty() && !has("FP4")) {
    Inconsistent(r, "fp4_tflops",
                 absl::StrCat("gpu `", g->id, "` has `fp4_tflops` but FP4 is not in `precisions`"),
                 "add FP4 to `precisions`, or drop `fp4_tflops`");
  }
}

void ReadInterconnect(YamlNode node, int index, const FileFrame& frame,
                      Diagnostics* diags, Interconnect* ic, Places* places) {
  places->what = EntryWhat(node, "interconnect", index);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  ReadId(r, /*any_case=*/false, &ic->id, places);
  if (r.Required("name", &ic->name)) places->name = r.WhereOf("name");
  r.Required("bandwidth_gbps", &ic->bandwidth_gbps, 0, 20000);  // 0: no GPU-to-GPU link
  OptionalNum(r, "latency_us", &ic->latency_us, 0, 10000);
  ReadSource(r, frame, &ic->source);
  r.CheckUnknownKeys();
}

void ReadPrice(YamlNode node, int index, const FileFrame& frame, Diagnostics* diags,
               Price* p, Places* places) {
  places->what = absl::StrCat("price #", index + 1);
  MapReader r(node, frame.file, diags, places->what, std::string(kCatalogDoc));
  places->entry = r.Where();
  if (!r.ok()) return;
  places->entry = r.Where();
  if (r.Required("gpu_id", &p->gpu_id)) {
    places->id = r.WhereOf("gpu_id");
    places->refs.emplace_back(p->gpu_id, places->id);
  }
  OptionalNum(r, "street_usd", &p->street_usd, 0, 10000000);
  OptionalNum(r, "cloud_usd_per_hour", &p->cloud_usd_per_hour, 0, 1000);
  ReadDate(r, "as_of", /*required=*/true, &p->as_of);
  ReadSource(r, frame, &p->source);
  r.CheckUnknownKeys();
  if (r.ok() && p->street_usd == 0 && p->cloud_usd_per_hour == 0 && !p->gpu_id.empty()) {
    diags->Error("missing-field", r.Where(),
                 absl::StrCat("price of `", p->gpu_id, "` has neither `street_usd` nor "
                              "`cloud_usd_per_hour`"),
                 "give at least one of them, or drop the entry");
  }
}

}  // namespace fitrank::catalog_internal
