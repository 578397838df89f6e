// `recommend --installed`: the models installed on this machine (cli/local_models.h) and the
// filter that keeps only their picks.
#ifndef FITRANK_CLI_INSTALLED_H_
#define FITRANK_CLI_INSTALLED_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "cli/local_models.h"
#include "engine/report_builders.h"

namespace fitrank::cli {

// The Hugging Face cache's and the local Ollama server's models (1.5 s timeout for Ollama).
std::vector<LocalModel> InstalledModels(const Catalog& catalog, std::vector<std::string>* notes);

// Keeps the picks of `report` whose model is installed (mapped to the catalog), at most
// `top_k` per workload, renumbered; each kept pick gets a reason saying where it is installed
// and at which quantization. Installed models the catalog lacks, and workloads left without a
// pick, are said in the report's notes.
void KeepInstalled(const std::vector<LocalModel>& installed, int top_k, RecommendReport* report);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_INSTALLED_H_
