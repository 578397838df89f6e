#include "cli/installed.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace fitrank::cli {

std::vector<LocalModel> InstalledModels(const Catalog& catalog, std::vector<std::string>* notes) {
  std::vector<LocalModel> out = ScanHfCache(catalog, HfHubDir(), notes);
  for (LocalModel& m : ListOllama(catalog, OllamaHostPort(notes), 1500, notes))
    out.push_back(std::move(m));
  return out;
}

std::vector<Pick> FilePicks(const ReportEnv& env, const Setup& setup, const Model& model,
                            const Quant* quant, const std::string& path,
                            const RecommendReport& report) {
  std::vector<Pick> picks;
  for (const WorkloadPicks& wp : report.workloads) {
    FitQuery q;
    q.model = &model;
    q.quant = quant;
    q.workload = wp.workload;
    q.mode = report.mode;
    absl::StatusOr<FitReport> f = BuildFitReport(env, setup, q);
    if (!f.ok() || f->grade_index < 0 || f->decode_tok_s <= 0) continue;
    Pick p;
    p.workload = wp.workload;
    p.model = &model;
    p.quant = f->quant;
    p.grade_index = f->grade_index;
    p.score = f->score;
    p.decode_tok_s = f->decode_tok_s;
    p.decode_low_tok_s = f->decode_low_tok_s;
    p.decode_high_tok_s = f->decode_high_tok_s;
    p.ttft_ms = f->ttft_ms;
    p.context = f->safe_context;
    p.fit = f->fit;
    p.runtime = f->runtime;
    p.kv_cache = f->kv_cache;
    if (!f->run_commands.empty()) p.run_command = f->run_commands.front().command;
    p.reasons.push_back(env.policy->Note("installed.file", {{"path", path}}));
    for (const std::string& r : f->reasons) p.reasons.push_back(r);
    picks.push_back(std::move(p));
  }
  return picks;
}

void KeepInstalled(const ReportPolicy& pol, const std::vector<LocalModel>& installed,
                   std::vector<Pick> file_picks, int top_k, RecommendReport* report) {
  // Catalog model id -> where it is installed: "Ollama `llama3.1:8b` (Q4_K_M, 4.9 GB)".
  std::map<std::string, std::vector<std::string>> where;
  std::map<std::string, std::vector<std::string>> quants;
  std::vector<std::string> unmapped;
  const bool has_file = !file_picks.empty();
  for (const LocalModel& m : installed) {
    if (m.catalog == nullptr) {
      unmapped.push_back(absl::StrCat("`", m.name, "`"));
      continue;
    }
    std::string w = pol.Note(m.source == "ollama" ? "installed.ollama" : "installed.hf-cache",
                             {{"name", m.name}});
    if (!m.quant.empty()) absl::StrAppend(&w, pol.Note("installed.at-quant", {{"quant", m.quant}}));
    where[m.catalog->id].push_back(std::move(w));
    if (!m.quant.empty()) quants[m.catalog->id].push_back(m.quant);
  }
  for (WorkloadPicks& wp : report->workloads) {
    std::vector<Pick> kept;
    for (Pick& p : file_picks) {
      if (p.workload == wp.workload) kept.push_back(std::move(p));
    }
    for (Pick& p : wp.picks) {
      auto it = where.find(p.model->id);
      if (it == where.end()) continue;
      std::string reason =
          pol.Note("installed.where", {{"places", absl::StrJoin(it->second, ", ")}});
      const std::vector<std::string>& q = quants[p.model->id];
      if (!q.empty() && std::find(q.begin(), q.end(), p.quant->id) == q.end()) {
        absl::StrAppend(&reason, pol.Note("installed.other-quant",
                                          {{"quant", p.quant->id},
                                           {"installed", absl::StrJoin(q, ", ")}}));
      }
      p.reasons.insert(p.reasons.begin(), std::move(reason));
      kept.push_back(std::move(p));
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Pick& a, const Pick& b) { return a.score > b.score; });
    if (static_cast<int>(kept.size()) > top_k) kept.resize(top_k);
    for (size_t i = 0; i < kept.size(); ++i) kept[i].rank = static_cast<int>(i) + 1;
    if (kept.empty()) {
      report->notes.push_back(
          pol.Note("installed.none-qualifies", {{"workload", wp.workload->name}}));
    }
    wp.picks = std::move(kept);
  }
  report->candidates = static_cast<int>(where.size());
  if (installed.empty() && !has_file) {
    report->notes.push_back(pol.Note("installed.none-found", {}));
  }
  if (!unmapped.empty()) {
    report->notes.push_back(
        pol.Note("installed.unmapped", {{"names", absl::StrJoin(unmapped, ", ")}}));
  }
}

}  // namespace fitrank::cli
