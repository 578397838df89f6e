// The loaded catalog: every GPU, model, diffusion model, quantization, runtime, interconnect and
// price, and forgiving lookup by name.
//
// Load() reads catalog/{gpus,models,diffusion,quants,runtimes,interconnects,prices}.yaml from a
// FileSource, validates every entry (types, ranges, required fields, unknown keys, duplicate ids
// and aliases, cross references) and reports every problem to `diags`. If any error was found
// it returns nullptr: nothing half-loaded is ever used. When `source` serves every one of these
// files from the data embedded in the binary (no --data overlay replaces one), Load() takes the
// catalog the build baked from them instead (catalog/image.h): the same records, already
// checked, without reading the YAML again.
//
// A loaded Catalog is immutable; pointers into it stay valid for its lifetime; all methods are
// thread-safe.
#ifndef FITRANK_CATALOG_CATALOG_H_
#define FITRANK_CATALOG_CATALOG_H_

#include <memory>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "base/diagnostics.h"
#include "base/file_source.h"
#include "base/yaml_tree.h"
#include "catalog/types.h"

namespace fitrank {

namespace catalog_internal {
struct CatalogIndex;
class GgufSizes;
}  // namespace catalog_internal

struct GgufSize;  // catalog/gguf_recipe.h

// The outcome of a forgiving name lookup.
template <class T>
struct Lookup {
  const T* found = nullptr;              // the one match, if unambiguous
  std::vector<const T*> ambiguous;       // several equally good matches: ask the user to choose
  std::vector<std::string> suggestions;  // nothing matched: up to three closest names
  bool exact = false;                    // `found` by its exact id, name or alias
  explicit operator bool() const { return found != nullptr; }
};

class Catalog {
 public:
  static std::unique_ptr<Catalog> Load(const FileSource& source, Diagnostics* diags);
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  const std::vector<Gpu>& gpus() const { return gpus_; }
  const std::vector<Model>& models() const { return models_; }
  const std::vector<DiffusionModel>& diffusion() const { return diffusion_; }
  const std::vector<Quant>& quants() const { return quants_; }
  const std::vector<Runtime>& runtimes() const { return runtimes_; }
  const std::vector<Interconnect>& interconnects() const { return interconnects_; }
  const std::vector<Price>& prices() const { return prices_; }

  // Forgiving lookup: "4090", "rtx4090", "GeForce RTX 4090", "mi325x", "M3 Max 128GB",
  // "llama 3.1 405b", "qwen3-30b-a3b". Exact id/name/alias (after NormalizeName) wins; then a
  // unique candidate whose normalised name/alias contains every word of the query; several
  // such candidates are `ambiguous`; none gives `suggestions`.
  // The word matching and its tie-breaks are in catalog/internal/name_match.h: a query word
  // may be the prefix of a name's word ("gef 4090"), numbers match only whole ("3" is not
  // "3.1"), the candidate with the fewest product-changing extra words wins ("4070" is the
  // 4070, not the 4070 Ti), and words that merely qualify (memory size, PCIe/SXM, brand,
  // "Instruct") never decide between candidates unless exactly one needs none ("3060" is
  // ambiguous between 3060 8GB and 3060 12GB; "llama 3.1 8b" finds Llama 3.1 8B Instruct).
  // When every variant of a product carries a qualifier (H200 SXM / H200 NVL), the catalog
  // data decides explicitly: the variant a bare product name means has that name as an alias
  // (written by tools/catalog_gpus.py), so "h200" is an exact match for H200 SXM and "h100"
  // for H100 SXM5; variants that differ in memory size ("a100") stay ambiguous.
  // A name longer than kMaxNameLength (base/text.h) finds nothing and gets no suggestions.
  Lookup<Gpu> FindGpu(absl::string_view name) const;
  Lookup<Model> FindModel(absl::string_view name) const;
  Lookup<DiffusionModel> FindDiffusion(absl::string_view name) const;
  Lookup<Quant> FindQuant(absl::string_view name) const;
  // The index of `quant` in quants(): the record itself, else the one with its id (a copy of
  // it); -1 if neither.
  int QuantIndex(const Quant& quant) const;
  Lookup<Runtime> FindRuntime(absl::string_view name) const;

  // Exact id lookups (nullptr if absent).
  const Gpu* GpuById(absl::string_view id) const;
  const Model* ModelById(absl::string_view id) const;
  const DiffusionModel* DiffusionById(absl::string_view id) const;
  const Quant* QuantById(absl::string_view id) const;
  const Runtime* RuntimeById(absl::string_view id) const;
  const Interconnect* InterconnectById(absl::string_view id) const;
  const Price* PriceFor(absl::string_view gpu_id) const;

  // EstimateGgufSize(m, q.id) (catalog/gguf_recipe.h) for a model and quantization of this
  // catalog, worked out on first use and kept (a sweep or a GPU page sizes each pair thousands
  // of times; ok false when `q` is not a GGUF file type); nullptr when `m` or `q` is not an
  // entry of this catalog. Thread-safe.
  const GgufSize* GgufSizeOf(const Model& m, const Quant& q) const;

 private:
  Catalog() = default;  // made by CatalogBuilder

  std::vector<Gpu> gpus_;
  std::vector<Model> models_;
  std::vector<DiffusionModel> diffusion_;
  std::vector<Quant> quants_;
  std::vector<Runtime> runtimes_;
  std::vector<Interconnect> interconnects_;
  std::vector<Price> prices_;
  // Id and name indexes over the vectors above: by position, viewing their ids and names (so a
  // Catalog is neither copied nor moved: its records stay where CatalogBuilder left them).
  std::shared_ptr<const catalog_internal::CatalogIndex> index_;
  // GgufSizeOf's table, by position.
  std::shared_ptr<catalog_internal::GgufSizes> gguf_sizes_;
  // The text the records' CatalogText views, when it is not the baked image: the YAML tree of
  // models.yaml (catalog/types.h).
  std::unique_ptr<const YamlTree> text_;
  friend class CatalogBuilder;  // catalog/builder.h fills the vectors and the index
};

// The share 0-1 of `model`'s quality kept at `quant`: the quant's quality_retention (measured
// against 16-bit weights), except that a model loses nothing at the quant it was published in
// (Model::release_quant) or at 16 bits and more (the published weights, upcast).
inline double QualityRetention(const Model& model, const Quant& quant) {
  if (!model.release_quant.empty() &&
      (quant.id == model.release_quant || quant.family == "float")) {
    return 1.0;
  }
  return quant.quality_retention;
}

// `model`'s quality figure for workload `workload_id` (chat, coding, agentic, rag, reasoning);
// other (analyst-defined) workloads read the chat figure.
// QualityMemberFor resolves the name once, for loops over many models.
inline WorkloadQuality WorkloadQualities::*QualityMemberFor(absl::string_view workload_id) {
  if (workload_id == "coding") return &WorkloadQualities::coding;
  if (workload_id == "agentic") return &WorkloadQualities::agentic;
  if (workload_id == "rag") return &WorkloadQualities::rag;
  if (workload_id == "reasoning") return &WorkloadQualities::reasoning;
  return &WorkloadQualities::chat;
}
inline const WorkloadQuality& QualityFor(const Model& model, absl::string_view workload_id) {
  return model.workload_quality.*QualityMemberFor(workload_id);
}

}  // namespace fitrank

#endif  // FITRANK_CATALOG_CATALOG_H_
