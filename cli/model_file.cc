#include "cli/model_file.h"

#include <deque>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "catalog/gguf.h"

namespace fitrank::cli {

FileModel LoadGgufModel(const Catalog& catalog, const std::string& path) {
  absl::StatusOr<GgufHeader> h = ReadGgufFile(path);
  if (!h.ok()) {
    throw UsageError(std::string(h.status().message()),
                     absl::IsNotFound(h.status())
                         ? "give the path of a .gguf file"
                         : "is the download complete? llama.cpp refuses this file too");
  }
  absl::StatusOr<GgufModel> gm = ModelFromGguf(*h, path);
  if (!gm.ok()) throw UsageError(std::string(gm.status().message()));
  FileModel out;
  out.file_type = gm->file_type;
  if (!gm->file_type.empty()) out.quant = catalog.QuantById(gm->file_type);
  if (out.quant == nullptr) {
    gm->model.file_quant.clear();
    out.bpw = gm->model.params_b > 0 ? gm->weights_bytes * 8.0 / (gm->model.params_b * 1e9) : 0;
  }
  static std::mutex mu;
  static auto* store = new std::deque<Model>();
  std::lock_guard<std::mutex> lock(mu);
  store->push_back(std::move(gm->model));
  out.model = &store->back();
  return out;
}

}  // namespace fitrank::cli
