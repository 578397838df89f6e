// `recommend --installed`: the models installed on this machine (cli/local_models.h) and the
// filter that keeps only their picks.
#ifndef FITRANK_CLI_INSTALLED_H_
#define FITRANK_CLI_INSTALLED_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "cli/local_models.h"
#include "engine/report/builders.h"

namespace fitrank::cli {

// The Hugging Face cache's and the local Ollama server's models (1.5 s timeout for Ollama).
std::vector<LocalModel> InstalledModels(const Catalog& catalog, std::vector<std::string>* notes);

// The picks of a model from a local file (--model-gguf): per workload of `report`, its fit
// report at the file's quant turned into a pick (grade, score, speed, reasons), with a first
// reason naming the file. Workloads where it cannot run get no pick.
std::vector<Pick> FilePicks(const ReportEnv& env, const Setup& setup, const Model& model,
                            const Quant* quant, const std::string& path,
                            const RecommendReport& report);

// Keeps the picks of `report` whose model is installed (mapped to the catalog), merges in
// `file_picks` (by workload id, ordered by score), at most `top_k` per workload, renumbered;
// each kept catalog pick gets a reason saying where it is installed and at which quantization.
// Installed models the catalog lacks, and workloads left without a pick, are said in the
// report's notes. Every sentence is a note of `pol` (reports.yaml installed.*).
void KeepInstalled(const ReportPolicy& pol, const std::vector<LocalModel>& installed,
                   std::vector<Pick> file_picks, int top_k, RecommendReport* report);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_INSTALLED_H_
