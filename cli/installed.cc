#include "cli/installed.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace fitrank::cli {

std::vector<LocalModel> InstalledModels(const Catalog& catalog, std::vector<std::string>* notes) {
  std::vector<LocalModel> out = ScanHfCache(catalog, HfHubDir(), notes);
  for (LocalModel& m : ListOllama(catalog, OllamaHostPort(notes), 1500, notes)) out.push_back(std::move(m));
  return out;
}

void KeepInstalled(const std::vector<LocalModel>& installed, int top_k, RecommendReport* report) {
  // Catalog model id -> where it is installed: "Ollama `llama3.1:8b` (Q4_K_M, 4.9 GB)".
  std::map<std::string, std::vector<std::string>> where;
  std::map<std::string, std::vector<std::string>> quants;
  std::vector<std::string> unmapped;
  for (const LocalModel& m : installed) {
    if (m.catalog == nullptr) {
      unmapped.push_back(absl::StrCat("`", m.name, "`"));
      continue;
    }
    std::string w = absl::StrCat(m.source == "ollama" ? "Ollama" : "the Hugging Face cache", " `", m.name, "`");
    if (!m.quant.empty()) absl::StrAppend(&w, " at ", m.quant);
    where[m.catalog->id].push_back(std::move(w));
    if (!m.quant.empty()) quants[m.catalog->id].push_back(m.quant);
  }
  for (WorkloadPicks& wp : report->workloads) {
    std::vector<Pick> kept;
    for (Pick& p : wp.picks) {
      auto it = where.find(p.model_id);
      if (it == where.end()) continue;
      if (static_cast<int>(kept.size()) >= top_k) continue;
      p.rank = static_cast<int>(kept.size()) + 1;
      std::string reason = absl::StrCat("Installed: ", absl::StrJoin(it->second, ", "), ".");
      const std::vector<std::string>& q = quants[p.model_id];
      if (!q.empty() && std::find(q.begin(), q.end(), p.quant) == q.end()) {
        absl::StrAppend(&reason, " These numbers are for ", p.quant, ", not the installed ",
                        absl::StrJoin(q, ", "), ".");
      }
      p.reasons.insert(p.reasons.begin(), std::move(reason));
      kept.push_back(std::move(p));
    }
    if (kept.empty()) {
      report->notes.push_back(absl::StrCat("No installed model qualifies for ", wp.label, "."));
    }
    wp.picks = std::move(kept);
  }
  report->candidates = static_cast<int>(where.size());
  if (installed.empty()) {
    report->notes.push_back(
        "No installed model found (Hugging Face cache, Ollama): `fitrank detect` shows where fitrank looked.");
  }
  if (!unmapped.empty()) {
    report->notes.push_back(absl::StrCat("Installed but not in the catalog, so not ranked: ",
                                         absl::StrJoin(unmapped, ", "), "."));
  }
}

}  // namespace fitrank::cli
