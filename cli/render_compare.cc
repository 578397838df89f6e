#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/render_doc.h"
#include "cli/render_reports.h"

namespace fitrank::cli {

Json CompareJson(const CompareReport& r) {
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["workload"] = IdOf(r.workload);
  j["mode"] = IdOf(r.mode);
  Json gpus = Json::array();
  for (const CompareGpu& g : r.gpus) {
    Json x = SpecsJson(g.specs);
    x["models_fit"] = g.models_fit;
    x["models_total"] = g.models_total;
    x["price_usd"] = JNum(g.price_usd, 0);
    x["price_basis"] = g.price_basis;
    x["best_model"] = NameOf(g.best_model);
    x["best_grade"] = GradeLetter(r.grades, g.best_grade_index);
    gpus.push_back(x);
  }
  j["gpus"] = gpus;
  Json refs = Json::array();
  for (const RefModelRow& m : r.reference_models) {
    Json cells = Json::array();
    for (size_t i = 0; i < m.cells.size(); ++i) {
      const RefModelCell& c = m.cells[i];
      cells.push_back({{"gpu_id", i < r.gpus.size() ? r.gpus[i].specs.gpu.id : ""},
                       {"fit", FitJson(c.fit)},
                       {"quant", c.quant},
                       {"memory_gb", JNum(c.memory_gb, 2)},
                       {"decode_tok_s", JNum(c.decode_tok_s, 1)},
                       {"ttft_ms", JNum(c.ttft_ms, 0)},
                       {"gpus_needed", c.gpus_needed}});
    }
    refs.push_back({{"label", m.label}, {"model", NameOf(m.model)}, {"model_id", IdOf(m.model)},
                    {"params_b", JNum(m.params_b, 2)}, {"results", cells}});
  }
  j["reference_models"] = refs;
  Json cost = Json::array();
  for (const CostRow& c : r.cost) {
    cost.push_back({{"gpu_id", c.gpu_id},
                    {"price_usd", JNum(c.price_usd, 0)},
                    {"lifetime_years", JNum(c.lifetime_years, 2)},
                    {"utilization", JNum(c.utilization, 2)},
                    {"power_w", JNum(c.power_w, 0)},
                    {"usd_per_kwh", JNum(c.usd_per_kwh, 3)},
                    {"throughput_model", NameOf(c.throughput_model)},
                    {"throughput_tok_s", JNum(c.throughput_tok_s, 1)},
                    {"usd_per_mtok_owned", c.usd_per_mtok_owned > 0 ? JNum(c.usd_per_mtok_owned, 4) : Json()},
                    {"cloud_usd_per_hour", c.cloud_usd_per_hour > 0 ? JNum(c.cloud_usd_per_hour, 2) : Json()},
                    {"usd_per_mtok_cloud", c.usd_per_mtok_cloud > 0 ? JNum(c.usd_per_mtok_cloud, 4) : Json()}});
  }
  j["cost"] = {{"basis", r.cost_basis}, {"rows", cost}};
  Json dec = Json::array();
  for (const Decision& d : r.decisions) {
    dec.push_back({{"gpu_id", d.gpu_id}, {"gpu", d.gpu}, {"reasons", d.reasons}, {"rules", d.rules}});
  }
  j["decisions"] = dec;
  return j;
}

void RenderCompare(const CompareReport& r, OutputFormat f, const Style& s, std::ostream& out) {
  if (f == OutputFormat::kJson || f == OutputFormat::kJsonl) {
    Json j = CompareJson(r);
    if (f == OutputFormat::kJsonl) out << j.dump() << "\n";
    else PrintJson(out, j);
    return;
  }
  if (f == OutputFormat::kCsv) {
    // One row per GPU, raw numbers, units in the headers; reference models as
    // ref_<label>_decode_tok_s columns.
    std::vector<std::string> header = {"gpu_id", "gpu", "memory_gb", "usable_gb",
                                       "bandwidth_gbps", "fp16_tflops", "tdp_w", "price_usd",
                                       "models_fit", "models_total", "best_model",
                                       "usd_per_mtok_owned", "usd_per_mtok_cloud"};
    for (const RefModelRow& m : r.reference_models) {
      header.push_back(absl::StrCat(CsvHeader(absl::StrCat("ref ", m.label)), "_decode_tok_s"));
    }
    TextTable t(header);
    for (size_t i = 0; i < r.gpus.size(); ++i) {
      const CompareGpu& g = r.gpus[i];
      const CostRow* c = nullptr;
      for (const CostRow& cost : r.cost) {
        if (cost.gpu_id == g.specs.gpu.id) c = &cost;
      }
      std::vector<std::string> row = {
          g.specs.gpu.id, g.specs.gpu.name, CsvNumber(g.specs.gpu.memory_gb, 1),
          CsvNumber(g.specs.usable_gb, 2), CsvNumber(g.specs.gpu.bandwidth_gbps, 0),
          CsvNumber(g.specs.gpu.fp16_tflops, 1), CsvNumber(g.specs.gpu.tdp_w, 0),
          g.price_usd > 0 ? CsvNumber(g.price_usd, 0) : "", absl::StrCat(g.models_fit),
          absl::StrCat(g.models_total), NameOf(g.best_model),
          c != nullptr && c->usd_per_mtok_owned > 0 ? CsvNumber(c->usd_per_mtok_owned, 3) : "",
          c != nullptr && c->usd_per_mtok_cloud > 0 ? CsvNumber(c->usd_per_mtok_cloud, 3) : ""};
      for (const RefModelRow& m : r.reference_models) {
        row.push_back(i < m.cells.size() && m.cells[i].decode_tok_s > 0
                          ? CsvNumber(m.cells[i].decode_tok_s, 1)
                          : "");
      }
      t.Add(row);
    }
    t.PrintCsv(out);
    return;
  }
  std::vector<std::string> header = {""};
  std::vector<bool> right = {false};
  for (const CompareGpu& g : r.gpus) {
    header.push_back(g.specs.gpu.name);
    right.push_back(true);
  }
  TextTable t(header, right);
  auto row = [&](const std::string& label, auto cell) {
    std::vector<std::string> v = {label};
    for (const CompareGpu& g : r.gpus) v.push_back(cell(g));
    t.Add(v);
  };
  row("Memory", [](const CompareGpu& g) {
    return absl::StrCat(FormatCapacity(g.specs.gpu.memory_gb), " ", g.specs.gpu.memory_type);
  });
  row("Usable", [](const CompareGpu& g) { return FormatGb(g.specs.usable_gb); });
  row("Bandwidth", [](const CompareGpu& g) {
    return absl::StrCat(FormatNumber(g.specs.gpu.bandwidth_gbps, 0), " GB/s");
  });
  row("FP16", [](const CompareGpu& g) {
    return absl::StrCat(FormatNumber(g.specs.gpu.fp16_tflops, 0), " TFLOPS");
  });
  row("FP8 / FP4", [](const CompareGpu& g) {
    return absl::StrCat(g.specs.gpu.fp8_tflops > 0 ? "yes" : "no", " / ",
                        g.specs.gpu.fp4_tflops > 0 ? "yes" : "no");
  });
  row("Platforms", [](const CompareGpu& g) { return absl::StrJoin(g.specs.gpu.platforms, ", "); });
  row("Interconnect", [](const CompareGpu& g) {
    return g.specs.interconnect_name.empty() ? std::string(kDash) : g.specs.interconnect_name;
  });
  row("Power", [](const CompareGpu& g) { return absl::StrCat(FormatNumber(g.specs.gpu.tdp_w, 0), " W"); });
  row("Price", [](const CompareGpu& g) {
    return g.price_usd > 0 ? absl::StrCat(FormatUsd(g.price_usd), " (", g.price_basis, ")")
                           : std::string(kDash);
  });
  row("Models that fit", [](const CompareGpu& g) {
    return absl::StrCat(g.models_fit, "/", g.models_total);
  });
  row(absl::StrCat("Best for ", IdOf(r.workload)), [&](const CompareGpu& g) {
    return g.best_model == nullptr
               ? std::string(kDash)
               : absl::StrCat(g.best_model->name, " (",
                              s.Grade(GradeLetter(r.grades, g.best_grade_index)), ")");
  });
  for (const RefModelRow& m : r.reference_models) {
    std::vector<std::string> v = {absl::StrCat(m.label, ": ", NameOf(m.model))};
    for (const RefModelCell& c : m.cells) {
      if (Runs(c.fit)) {
        v.push_back(s.Fit(c.fit.kind, absl::StrCat(FormatTokS(c.decode_tok_s), " · TTFT ",
                                                   FormatMs(c.ttft_ms),
                                                   c.fit.kind == FitKind::kOffload ? " (offload)" : "")));
      } else if (c.gpus_needed > 0) {
        v.push_back(s.Paint(absl::StrCat("needs ", c.gpus_needed, " GPUs"), Color::kRed));
      } else {
        v.push_back(s.Paint("does not fit", Color::kRed));
      }
    }
    t.Add(v);
  }
  if (!r.cost.empty()) {
    std::vector<std::string> owned = {"$/M tokens, owned"}, cloud = {"$/M tokens, cloud"};
    for (const CostRow& c : r.cost) {
      owned.push_back(c.usd_per_mtok_owned > 0 ? FormatUsd(c.usd_per_mtok_owned) : std::string(kDash));
      cloud.push_back(c.usd_per_mtok_cloud > 0
                          ? absl::StrCat(FormatUsd(c.usd_per_mtok_cloud), " (", FormatUsd(c.cloud_usd_per_hour), "/h)")
                          : std::string(kDash));
    }
    t.Add(owned);
    t.Add(cloud);
  }
  Doc doc(f, s, out);
  std::vector<std::string> names;
  for (const CompareGpu& g : r.gpus) names.push_back(g.specs.gpu.name);
  doc.Title(absl::StrJoin(names, " vs "),
            absl::StrCat(IdOf(r.workload), " · mode ", IdOf(r.mode)));
  if (!doc.markdown()) out << "\n";
  doc.Table(t);
  if (!r.cost_basis.empty()) {
    if (!doc.markdown()) out << "\n";
    doc.Paragraph(r.cost_basis);
  }
  doc.Section("Quick decision");
  for (const Decision& d : r.decisions) {
    if (doc.markdown()) {
      doc.Subsection(absl::StrCat("Pick ", d.gpu, " if:"));
    } else {
      out << "  Pick " << s.Heading(d.gpu) << " if:\n";
    }
    doc.Bullets(d.reasons, "    - ");
  }
}

}  // namespace fitrank::cli
