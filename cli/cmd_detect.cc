// `fitrank detect`: this machine's GPUs, host and installed models, and how each GPU maps to
// the catalog (cli/detect.h, cli/detect_match.h, cli/local_models.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/commands.h"
#include "cli/detect.h"
#include "cli/detect_setup.h"
#include "cli/local_models.h"
#include "cli/render_text.h"
#include "cli/resolve.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

// JSON memory in GiB rounded to what the sources can claim; unknown (< 0 or 0 where 0 means
// unknown) is null.
nlohmann::json Gib(double gib, bool zero_is_unknown = false) {
  if (!(gib >= 0) || (zero_is_unknown && gib == 0)) return nullptr;
  return std::round(gib * 100) / 100;
}

// Model files are sized like the estimator's weights, in GB (1e9 bytes).
nlohmann::json Gb(double gb) {
  if (!(gb > 0)) return nullptr;
  return std::round(gb * 100) / 100;
}

// Said under the tables: which unit, and how it relates to the catalog's "24 GB".
constexpr char kUnitNote[] =
    "Memory is in GiB (2^30 bytes), the unit cards and RAM are sold in: a \"24 GB\" card shows "
    "about 24 GiB here, the \"24 GB\" of its GPU page. Model sizes are GB (10^9 bytes), like the "
    "estimates.";

nlohmann::json OrNull(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

std::string Or(const std::string& s, absl::string_view def = kDash) {
  return s.empty() ? std::string(def) : s;
}

int RunDetect(Context& ctx) {
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "fitrank detect [--json] [--sysroot DIR]");
  }
  const Catalog& catalog = LoadCatalog(ctx);
  const DetectOptions options = DetectOptionsFromFlags(ctx);
  Detection d = Detect(options);
  const DetectedSetup setup = BuildDetectedSetup(catalog, d, false);
  std::vector<LocalModel> models = ScanHfCache(catalog, HfHubDir(), &d.notes);
  for (LocalModel& m : ListOllama(catalog, OllamaHostPort(&d.notes), 1500, &d.notes)) {
    models.push_back(std::move(m));
  }

  if (ctx.format == OutputFormat::kJson) {
    nlohmann::json j;
    // 2: memory in GiB under *_gib keys (1 had decimal GB under *_gb keys).
    j["schema_version"] = 2;
    j["gpus"] = nlohmann::json::array();
    for (size_t i = 0; i < d.gpus.size(); ++i) {
      const DetectedGpu& g = d.gpus[i];
      const GpuMatch& m = setup.matches[i];
      nlohmann::json c = {{"match", std::string(GpuMatchKindName(m.kind))}, {"how", m.how}};
      c["id"] = m.gpu != nullptr && m.kind != GpuMatchKind::kUnknown ? nlohmann::json(m.gpu->id)
                                                                     : nullptr;
      c["name"] = m.gpu != nullptr && m.kind != GpuMatchKind::kUnknown ? nlohmann::json(m.gpu->name)
                                                                       : nullptr;
      c["class_id"] = m.kind == GpuMatchKind::kUnknown ? nlohmann::json(m.gpu->id) : nullptr;
      j["gpus"].push_back({{"vendor", g.vendor},
                           {"name", g.name},
                           {"memory_total_gib", Gib(g.memory_total_gib, true)},
                           {"memory_free_gib", Gib(g.memory_free_gib)},
                           {"driver", OrNull(g.driver)},
                           {"pci_id", OrNull(g.pci_id)},
                           {"compute_capability", OrNull(g.compute_capability)},
                           {"gpu_cores", g.gpu_cores > 0 ? nlohmann::json(g.gpu_cores) : nullptr},
                           {"source", g.source},
                           {"catalog", std::move(c)}});
    }
    const DetectedHost& h = d.host;
    j["host"] = {
        {"cpu_model", OrNull(h.cpu_model)},
        {"logical_cores", h.logical_cores > 0 ? nlohmann::json(h.logical_cores) : nullptr},
        {"physical_cores", h.physical_cores > 0 ? nlohmann::json(h.physical_cores) : nullptr},
        {"ram_total_gib", Gib(h.ram_total_gib, true)},
        {"ram_available_gib", Gib(h.ram_available_gib)},
        {"memory_channels", h.memory_channels > 0 ? nlohmann::json(h.memory_channels) : nullptr},
        {"memory_channels_source", OrNull(h.memory_channels_source)}};
    j["setup"] = {{"label", setup.devices.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(SetupLabel(setup.devices))},
                  {"summary", setup.summary}};
    j["models"] = nlohmann::json::array();
    for (const LocalModel& m : models) {
      j["models"].push_back({{"source", m.source},
                             {"name", m.name},
                             {"quant", OrNull(m.quant)},
                             {"size_gb", Gb(m.size_gb)},
                             {"path", OrNull(m.path)},
                             {"catalog_id", m.catalog ? nlohmann::json(m.catalog->id) : nullptr},
                             {"match", m.how}});
    }
    j["notes"] = d.notes;
    *ctx.out << j.dump(2) << "\n";
    return 0;
  }

  std::ostream& o = *ctx.out;
  const Style style{ctx.color};
  o << style.Heading(absl::StrCat("GPUs (", d.gpus.size(), " detected)")) << "\n";
  if (d.gpus.empty()) {
    o << "  none (nvidia-smi, rocm-smi, xpu-smi, sysfs and system_profiler found no GPU)\n";
  } else {
    TextTable t({"#", "vendor", "name", "memory", "free", "driver", "PCI id", "compute", "source"},
                {true, false, false, true, true});
    for (size_t i = 0; i < d.gpus.size(); ++i) {
      const DetectedGpu& g = d.gpus[i];
      t.Add({absl::StrCat(i), g.vendor, g.name,
             g.memory_total_gib > 0 ? FormatGib(g.memory_total_gib) : std::string(kDash),
             g.memory_free_gib >= 0 ? FormatGib(g.memory_free_gib) : std::string(kDash),
             Or(g.driver),
             Or(g.pci_id),
             Or(g.gpu_cores > 0 ? absl::StrCat(g.gpu_cores, " cores") : g.compute_capability),
             g.source});
    }
    t.Print(o);
    o << "\n" << style.Heading("Catalog entries") << "\n";
    for (size_t i = 0; i < d.gpus.size(); ++i) {
      const GpuMatch& m = setup.matches[i];
      const std::string entry =
          m.gpu != nullptr && m.kind != GpuMatchKind::kUnknown ? m.gpu->name + ": " : "";
      o << "  " << i << "  " << entry << m.how << "\n";
    }
  }
  const DetectedHost& h = d.host;
  o << "\n" << style.Heading("Host") << "\n";
  o << "  CPU       " << Or(h.cpu_model, "unknown");
  if (h.logical_cores > 0) {
    o << " (" << (h.physical_cores > 0 ? absl::StrCat(h.physical_cores, " cores, ") : "")
      << h.logical_cores << " threads)";
  }
  o << "\n  RAM       "
    << (h.ram_total_gib > 0 ? FormatGib(h.ram_total_gib) + " total" : "unknown");
  if (h.ram_available_gib >= 0) o << ", " << FormatGib(h.ram_available_gib) << " available";
  o << "\n  channels  "
    << (h.memory_channels > 0
            ? absl::StrCat(h.memory_channels, " populated (", h.memory_channels_source, ")")
            : "unknown (not named by the EDAC driver in sysfs, nor by dmidecode, which needs root)")
    << "\n";
  o << "\n"
    << style.Heading("Setup") << "\n  " << setup.summary
    << (setup.devices.empty() ? "" : "; used by recommend, gpu, fit and upgrade without --gpu")
    << "\n";
  o << "\n" << style.Heading(absl::StrCat("Local models (", models.size(), ")")) << "\n";
  if (models.empty()) {
    o << "  none found (Hugging Face cache: " << Or(HfHubDir(), "unset")
      << "; Ollama: no server)\n";
  } else {
    TextTable t({"source", "model", "quant", "size", "catalog"}, {false, false, false, true});
    for (const LocalModel& m : models) {
      t.Add({m.source, m.name, Or(m.quant),
             m.size_gb > 0 ? FormatGb(m.size_gb) : std::string(kDash),
             m.catalog ? absl::StrCat(m.catalog->name, " (", m.how, ")") : m.how});
    }
    t.Print(o);
  }
  o << "\n" << Wrap(kUnitNote, 96, "");
  if (!d.notes.empty()) {
    o << "\n" << style.Heading("Notes") << "\n";
    for (const std::string& n : d.notes) o << "  " << n << "\n";
  }
  return 0;
}

}  // namespace

Command DetectCommand() {
  return {"detect",
          "this machine's GPUs (total and free memory), host, installed models, and their "
          "catalog entries",
          "fitrank detect [--json] [--sysroot DIR] [--probe-timeout-ms MS]", DetectFlagSpecs(),
          RunDetect, kTableOrJson};
}

}  // namespace fitrank::cli
