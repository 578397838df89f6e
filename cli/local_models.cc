// The Hugging Face cache scan and the Ollama /api/tags parser (cli/local_models.h). The HTTP
// request itself is in local_models_ollama.cc, the one file that includes cpp-httplib.
#include "cli/local_models.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

bool IsFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void MapToCatalog(const Catalog& catalog, LocalModel* m, absl::string_view repo) {
  if (!repo.empty()) {
    for (const Model& c : catalog.models()) {
      if (!c.hf_repo.empty() && absl::EqualsIgnoreCase(c.hf_repo, repo)) {
        m->catalog = &c;
        m->how = "by repo";
        return;
      }
    }
  }
  if (m->source == "ollama") {
    absl::string_view tag = m->name;
    absl::ConsumeSuffix(&tag, ":latest");
    for (const Model& c : catalog.models()) {
      if (!c.ollama_tag.empty() && (c.ollama_tag == m->name || c.ollama_tag == tag)) {
        m->catalog = &c;
        m->how = "by Ollama tag";
        return;
      }
    }
  }
  // The name without its org ("Llama-3.1-8B-Instruct") or tag suffix, through the forgiving lookup.
  std::string query = std::string(repo.empty() ? absl::string_view(m->name) : repo);
  if (size_t slash = query.rfind('/'); slash != std::string::npos) query = query.substr(slash + 1);
  query = absl::StrReplaceAll(query, {{":", " "}, {"-", " "}, {"_", " "}});
  Lookup<Model> l = catalog.FindModel(query);
  if (l.found != nullptr) {
    m->catalog = l.found;
    m->how = "by name";
    return;
  }
  m->how = "not in the catalog";
}

}  // namespace

std::string HfHubDir() {
  if (const char* c = std::getenv("HF_HUB_CACHE"); c != nullptr && *c != '\0') return c;
  if (const char* h = std::getenv("HF_HOME"); h != nullptr && *h != '\0')
    return absl::StrCat(h, "/hub");
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return absl::StrCat(home, "/.cache/huggingface/hub");
  }
  return "";
}

std::vector<LocalModel> ScanHfCache(const Catalog& catalog, const std::string& hub_dir,
                                    std::vector<std::string>* notes) {
  std::vector<LocalModel> out;
  if (hub_dir.empty()) return out;
  for (const std::string& entry : ListDir(hub_dir)) {
    absl::string_view rest = entry;
    if (!absl::ConsumePrefix(&rest, "models--")) continue;
    // models--ORG--NAME: "--" separates the parts (Hugging Face names cannot contain it).
    const std::string repo = absl::StrReplaceAll(rest, {{"--", "/"}});
    const std::string snapshots = absl::StrCat(hub_dir, "/", entry, "/snapshots");
    std::vector<std::string> snaps = ListDir(snapshots);
    std::string config;
    for (auto it = snaps.rbegin(); it != snaps.rend() && config.empty(); ++it) {
      const std::string p = absl::StrCat(snapshots, "/", *it, "/config.json");
      if (IsFile(p)) config = p;
    }
    if (config.empty()) {
      notes->push_back(absl::StrCat("hf-cache: ", repo, ": no snapshot with a config.json"));
      continue;
    }
    LocalModel m;
    m.source = "hf-cache";
    m.name = repo;
    m.path = config;
    MapToCatalog(catalog, &m, repo);
    out.push_back(std::move(m));
  }
  return out;
}

std::string OllamaHostPort(std::vector<std::string>* notes) {
  const char* env = std::getenv("OLLAMA_HOST");
  std::string v = env != nullptr ? env : "";
  if (v.empty()) return "127.0.0.1:11434";
  absl::string_view s = v;
  absl::ConsumePrefix(&s, "http://");
  s = s.substr(0, s.find('/'));
  std::string host, port = "11434";
  if (absl::StartsWith(s, "[")) {  // [::1]:11434
    const size_t close = s.find(']');
    host = std::string(s.substr(1, close == absl::string_view::npos ? s.size() : close - 1));
    if (close != absl::string_view::npos && s.size() > close + 2)
      port = std::string(s.substr(close + 2));
  } else {
    std::vector<std::string> parts = absl::StrSplit(s, absl::MaxSplits(':', 1));
    host = parts[0];
    if (parts.size() > 1 && !parts[1].empty()) port = parts[1];
  }
  if (host.empty() || host == "0.0.0.0")
    host = "127.0.0.1";  // Ollama listens everywhere: ask locally
  const bool loopback = host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
  if (!loopback) {
    notes->push_back(absl::StrCat("ollama: OLLAMA_HOST points to `", host,
                                  "`, not this machine: not asked (fitrank only asks loopback)"));
    return "";
  }
  return absl::StrCat(host == "::1" ? "[::1]" : host, ":", port);
}

std::vector<LocalModel> ParseOllamaTags(const Catalog& catalog, absl::string_view text,
                                        std::vector<std::string>* notes) {
  std::vector<LocalModel> out;
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("models") || !j["models"].is_array()) {
    notes->push_back("ollama: /api/tags did not answer the JSON expected ({\"models\": [...]})");
    return out;
  }
  for (const nlohmann::json& e : j["models"]) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) continue;
    LocalModel m;
    m.source = "ollama";
    m.name = e["name"].get<std::string>();
    if (e.contains("size") && e["size"].is_number() && e["size"].get<double>() > 0) {
      m.size_gb = e["size"].get<double>() / 1e9;
    }
    if (e.contains("details") && e["details"].is_object()) {
      const nlohmann::json& d = e["details"];
      if (d.contains("quantization_level") && d["quantization_level"].is_string()) {
        m.quant = d["quantization_level"].get<std::string>();
      }
    }
    MapToCatalog(catalog, &m, "");
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace fitrank::cli
