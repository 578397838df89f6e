// Models already on this machine: the Hugging Face cache and a local Ollama server, each mapped
// to the catalog. Used by `fitrank detect` (listed) and `recommend --installed` (ranked).
//
// Hugging Face: $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub; every
//   models--ORG--NAME/snapshots/*/config.json (the newest snapshot by name is read).
// Ollama: GET /api/tags on $OLLAMA_HOST ("host:port", "http://host:port"; default
//   127.0.0.1:11434), loopback hosts only (127.x, localhost, ::1), with a short timeout. No
//   server is not an error: no models.
#ifndef FITRANK_CLI_LOCAL_MODELS_H_
#define FITRANK_CLI_LOCAL_MODELS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "catalog/catalog.h"

namespace fitrank::cli {

struct LocalModel {
  std::string source;              // "ollama" | "hf-cache"
  std::string name;                // "llama3.1:8b", "meta-llama/Llama-3.1-8B-Instruct"
  std::string quant;               // "Q4_K_M" (Ollama's quantization_level); "" unknown
  double size_gb = 0;              // Ollama's size (bytes / 1e9); 0 unknown
  std::string path;                // hf-cache: the config.json read
  const Model* catalog = nullptr;  // the catalog model it is, or nullptr
  std::string how;                 // "by Ollama tag", "by repo", "by name", "not in the catalog"
};

// The Hugging Face hub directory from the environment (see above).
std::string HfHubDir();

// Models under `hub_dir`. Unreadable entries are skipped with a note.
std::vector<LocalModel> ScanHfCache(const Catalog& catalog, const std::string& hub_dir,
                                    std::vector<std::string>* notes);

// "127.0.0.1:11434" from $OLLAMA_HOST; empty with a note if it points off this machine.
std::string OllamaHostPort(std::vector<std::string>* notes);

// Models the Ollama server at `host_port` lists; none (and no note) if nothing listens. A
// server that answers garbage or an error status gives a note.
std::vector<LocalModel> ListOllama(const Catalog& catalog, const std::string& host_port,
                                   int timeout_ms, std::vector<std::string>* notes);

// Parses an /api/tags body (for tests and ListOllama).
std::vector<LocalModel> ParseOllamaTags(const Catalog& catalog, absl::string_view json,
                                        std::vector<std::string>* notes);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_LOCAL_MODELS_H_
