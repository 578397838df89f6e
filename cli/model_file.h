// Models from local files for commands: --model-gguf PATH (a GGUF header, catalog/gguf.h).
#ifndef FITRANK_CLI_MODEL_FILE_H_
#define FITRANK_CLI_MODEL_FILE_H_

#include <string>

#include "catalog/catalog.h"
#include "cli/command.h"

namespace fitrank::cli {

struct FileModel {
  const Model* model = nullptr;  // owned by a process-wide store, valid until exit
  // The catalog quant the file is stored at (general.file_type), or nullptr when the catalog
  // has no such recipe (then `bpw` is the file's own: tensor bits / parameters).
  const Quant* quant = nullptr;
  double bpw = 0;
  std::string file_type;  // "Q4_K_M", or "" if the file does not say
};

// Reads the GGUF file at `path`: only its header. Throws UsageError (exit 2) with the file and
// the byte offset of the problem for a missing, corrupt or truncated file.
FileModel LoadGgufModel(const Catalog& catalog, const std::string& path);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_MODEL_FILE_H_
