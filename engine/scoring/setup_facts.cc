#include "engine/scoring/setup_facts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "catalog/vocabulary.h"

namespace fitrank {

namespace {

bool Has(const std::vector<std::string>& v, absl::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

bool HasFp8(const Gpu& gpu) { return gpu.fp8_tflops > 0 || Has(gpu.precisions, "FP8"); }
bool HasFp4(const Gpu& gpu) { return gpu.fp4_tflops > 0 || Has(gpu.precisions, "FP4"); }
bool IsPcieCard(const Gpu& gpu) { return absl::StartsWith(gpu.form_factor, "pcie"); }

double GpuPriceUsd(const Catalog& catalog, const Gpu& gpu, std::string* basis) {
  const Price* p = catalog.PriceFor(gpu.id);
  if (p != nullptr && p->street_usd > 0) {
    if (basis) *basis = absl::StrCat("street ", p->as_of);
    return p->street_usd;
  }
  if (gpu.msrp_usd > 0) {
    if (basis) *basis = "MSRP";
    return gpu.msrp_usd;
  }
  if (basis) basis->clear();
  return 0;
}

std::string InterconnectName(const Catalog& catalog, const Gpu& gpu) {
  const Interconnect* ic = catalog.InterconnectById(gpu.interconnect);
  return ic != nullptr ? ic->name : gpu.interconnect;
}

SetupPrice PriceOfSetup(const Catalog& catalog, const Setup& setup) {
  SetupPrice price;
  price.known = true;
  for (const DeviceGroup& g : setup.devices) {
    const bool first = &g == &setup.devices.front();
    const double usd = GpuPriceUsd(catalog, *g.gpu, first ? &price.basis : nullptr);
    if (usd <= 0) price.known = false;
    price.setup_usd += usd * g.count;
    if (const Price* p = catalog.PriceFor(g.gpu->id)) {
      price.cloud_usd_per_hour += p->cloud_usd_per_hour * g.count;
    }
    if (first) price.gpu_usd = usd;
  }
  return price;
}


SetupSubject::SetupSubject(const Catalog& catalog, const Estimator& estimator,
                           const Setup& s)
    : setup(&s), gpu(s.devices.front().gpu) {
  interconnect_name = InterconnectName(catalog, *gpu);
  gpu_usable_gb = estimator.UsableMemoryGb(*gpu);
  for (const DeviceGroup& g : s.devices) {
    setup_memory_gb += g.count * g.gpu->memory_gb;
    setup_usable_gb += g.count * estimator.UsableMemoryGb(*g.gpu);
  }
  price = PriceOfSetup(catalog, s);
  for (const Runtime& rt : catalog.runtimes()) {
    bool on = false;
    for (const std::string& p : rt.platforms) on |= p != "CPU" && Has(gpu->platforms, p);
    (on ? runtimes : other_runtimes).push_back(rt.name);
  }
}

namespace {

using S = SetupSubject;
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// A catalog figure where 0 means "not known".
double Known(double v) { return v > 0 ? v : kUnknown; }

SetupFactRow Num(absl::string_view name, absl::string_view unit, absl::string_view doc,
                 double (*get)(const S&)) {
  SetupFactRow r{name, rules::Type::kNumber, unit, doc};
  r.number = get;
  return r;
}
SetupFactRow Bool(absl::string_view name, absl::string_view doc, bool (*get)(const S&)) {
  SetupFactRow r{name, rules::Type::kBool, "", doc};
  r.boolean = get;
  return r;
}
SetupFactRow Text(absl::string_view name, absl::string_view doc,
                  absl::string_view (*get)(const S&)) {
  SetupFactRow r{name, rules::Type::kString, "", doc};
  r.text = get;
  return r;
}
SetupFactRow List(absl::string_view name, absl::string_view doc,
                  absl::Span<const std::string> (*get)(const S&)) {
  SetupFactRow r{name, rules::Type::kStringList, "", doc};
  r.list = get;
  return r;
}

const std::vector<SetupFactRow>& Rows() {
  static const auto* kRows = new std::vector<SetupFactRow>{
      // gpu.*: the catalog record of the first GPU
      Text("gpu.id", "Catalog id of the (first) GPU, e.g. geforce-rtx-4090",
           [](const S& s) -> absl::string_view { return s.gpu->id; }),
      Text("gpu.name", "GPU name, e.g. GeForce RTX 4090",
           [](const S& s) -> absl::string_view { return s.gpu->name; }),
      Text("gpu.vendor", "NVIDIA | AMD | Intel | Apple | Qualcomm | CPU",
           [](const S& s) -> absl::string_view { return s.gpu->vendor; }),
      Text("gpu.architecture", "GPU architecture, e.g. Ada Lovelace",
           [](const S& s) -> absl::string_view { return s.gpu->architecture; }),
      Text("gpu.segment", "consumer | workstation | datacenter | apple | apu | embedded | cpu",
           [](const S& s) { return SegmentName(s.gpu->segment); }),
      Text("gpu.memory_type", "GDDR6X, HBM3e, LPDDR5X, ...",
           [](const S& s) -> absl::string_view { return s.gpu->memory_type; }),
      Text("gpu.form_factor", "pcie-card, sxm5, oam, soc-unified, ...",
           [](const S& s) -> absl::string_view { return s.gpu->form_factor; }),
      Text("gpu.interconnect", "GPU-to-GPU link by name, e.g. NVLink 4, PCIe 4.0 x16",
           [](const S& s) -> absl::string_view { return s.interconnect_name; }),
      Num("gpu.memory_gb", "GB", "Memory of one GPU, as sold",
          [](const S& s) { return s.gpu->memory_gb; }),
      Num("gpu.usable_gb", "GB", "Memory models may use on one GPU",
          [](const S& s) { return s.gpu_usable_gb; }),
      Num("gpu.bandwidth_gbps", "GB/s", "Peak memory bandwidth of one GPU",
          [](const S& s) { return s.gpu->bandwidth_gbps; }),
      Num("gpu.fp32_tflops", "TFLOPS", "FP32 vector rate (unset: unknown)",
          [](const S& s) { return Known(s.gpu->fp32_tflops); }),
      Num("gpu.fp16_tflops", "TFLOPS", "Dense FP16 matrix throughput of one GPU",
          [](const S& s) { return s.gpu->fp16_tflops; }),
      Num("gpu.fp8_tflops", "TFLOPS", "Dense FP8 rate, 0 without FP8 hardware",
          [](const S& s) { return s.gpu->fp8_tflops; }),
      Num("gpu.fp4_tflops", "TFLOPS", "Dense FP4 rate, 0 without FP4 hardware",
          [](const S& s) { return s.gpu->fp4_tflops; }),
      Num("gpu.tdp_w", "W", "Board power of one GPU (unset: unknown)",
          [](const S& s) { return Known(s.gpu->tdp_w); }),
      Num("gpu.launch_year", "", "Year the GPU launched (unset: unknown)",
          [](const S& s) { return Known(s.gpu->launch_year); }),
      Num("gpu.interconnect_gbps", "GB/s", "GPU-to-GPU bandwidth (0: PCIe host link only)",
          [](const S& s) { return s.gpu->interconnect_gbps; }),
      Bool("gpu.fp8", "The GPU runs FP8 in hardware",
           [](const S& s) { return HasFp8(*s.gpu); }),
      Bool("gpu.fp4", "The GPU runs FP4 in hardware",
           [](const S& s) { return HasFp4(*s.gpu); }),
      Bool("gpu.unified_memory", "Memory shared with the CPU (Apple, APUs)",
           [](const S& s) { return s.gpu->unified_memory; }),
      Bool("gpu.pcie", "A PCIe card: fits an ordinary workstation or server",
           [](const S& s) { return IsPcieCard(*s.gpu); }),
      List("gpu.platforms", "Compute platforms: CUDA, ROCm, Metal, Vulkan, SYCL",
           [](const S& s) { return absl::MakeConstSpan(s.gpu->platforms); }),
      List("gpu.precisions", "Hardware precisions: FP16, BF16, FP8, FP4, INT8, ...",
           [](const S& s) { return absl::MakeConstSpan(s.gpu->precisions); }),
      List("gpu.runtimes", "Runtimes that run on one of its platforms (CPU aside), by name",
           [](const S& s) { return absl::MakeConstSpan(s.runtimes); }),
      List("gpu.other_runtimes", "Runtimes that run on none of its platforms, by name",
           [](const S& s) { return absl::MakeConstSpan(s.other_runtimes); }),
      // setup.*: every GPU of the setup
      Text("setup.label", "The setup, e.g. 2x GeForce RTX 3090",
           [](const S& s) -> absl::string_view { return s.setup->label; }),
      Text("setup.parallelism", "How the model is split over GPUs: layer | tensor",
           [](const S& s) { return ParallelismName(s.setup->parallelism); }),
      Text("setup.link", "GPU-to-GPU link, e.g. NVLink 4, PCIe 4.0 x16",
           [](const S& s) -> absl::string_view { return s.setup->link_name; }),
      Num("setup.gpu_count", "", "GPUs in the setup",
          [](const S& s) { return double(s.setup->device_count); }),
      Num("setup.memory_gb", "GB", "Accelerator memory of every GPU, spec sheet",
          [](const S& s) { return s.setup_memory_gb; }),
      Num("setup.usable_gb", "GB", "Memory models may use on the whole setup",
          [](const S& s) { return s.setup_usable_gb; }),
      Num("setup.host_ram_gb", "GB", "Host RAM installed, for offload",
          [](const S& s) { return s.setup->host_ram_gb; }),
      Num("setup.link_gbps", "GB/s", "GPU-to-GPU link bandwidth per GPU",
          [](const S& s) { return s.setup->link_bandwidth_gbps; }),
      Bool("setup.mixed", "More than one kind of GPU", [](const S& s) { return s.setup->mixed; }),
      Bool("setup.unified", "A single unified-memory device (Apple, APU)",
           [](const S& s) { return s.setup->unified; }),
      // price.*: street price if known, else launch MSRP
      Num("price.gpu_usd", "USD", "Price of one GPU: street, else MSRP (unset: unknown)",
          [](const S& s) { return Known(s.price.gpu_usd); }),
      Text("price.basis", "What price.gpu_usd is: \"street 2026-03\" or \"MSRP\"",
           [](const S& s) -> absl::string_view { return s.price.basis; }),
      Num("price.usd_per_usable_gb", "USD/GB", "price.gpu_usd per GB models may use on it",
          [](const S& s) {
            return s.price.gpu_usd > 0 && s.gpu_usable_gb > 0 ? s.price.gpu_usd / s.gpu_usable_gb
                                                               : kUnknown;
          }),
      Num("price.setup_usd", "USD", "Price of every GPU of the setup",
          [](const S& s) { return s.price.setup_usd; }),
      Num("price.cloud_usd_per_hour", "USD/h", "Cloud on-demand price of the GPUs",
          [](const S& s) { return s.price.cloud_usd_per_hour; }),
      Bool("price.known", "Every GPU of the setup has a price",
           [](const S& s) { return s.price.known; }),
  };
  return *kRows;
}

constexpr RenamedFact kRenamed[] = {
    {"price.usd", "price.gpu_usd"},
    {"gpu.price_usd", "price.gpu_usd"},
    {"gpu.price_basis", "price.basis"},
};

}  // namespace

absl::Span<const SetupFactRow> SetupFactTable() { return Rows(); }
absl::Span<const RenamedFact> RenamedSetupFacts() { return kRenamed; }

SetupFacts::SetupFacts(rules::FactSchema* schema) {
  for (const SetupFactRow& row : SetupFactTable()) {
    const int32_t index = schema->Declare(row.name, row.type, row.doc, row.unit);
    handles_.push_back({schema->facts()[index].slot, index});
  }
  for (const RenamedFact& r : RenamedSetupFacts()) schema->Rename(r.old_name, r.new_name);
}

std::vector<uint8_t> SetupFacts::RowsReadBy(const rules::CompiledRules& book) const {
  std::vector<uint8_t> rows;
  for (const Handle& h : handles_) rows.push_back(book.ReadsToScore(h.index) ? 1 : 0);
  return rows;
}

void SetupFacts::Fill(const SetupSubject& subject, rules::FactValues* v,
                      const uint8_t* read) const {
  absl::Span<const SetupFactRow> rows = SetupFactTable();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (read != nullptr && read[i] == 0) continue;
    const SetupFactRow& row = rows[i];
    const Handle h = handles_[i];
    switch (row.type) {
      case rules::Type::kNumber:
        v->Set(rules::NumberFact{h.slot, h.index}, row.number(subject));
        break;
      case rules::Type::kBool:
        v->Set(rules::BoolFact{h.slot, h.index}, row.boolean(subject));
        break;
      case rules::Type::kString:
        v->Set(rules::StringFact{h.slot, h.index}, row.text(subject));
        break;
      default:
        v->Set(rules::StringListFact{h.slot, h.index}, row.list(subject));
        break;
    }
  }
}

}  // namespace fitrank
