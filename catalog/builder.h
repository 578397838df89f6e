// Assembles a Catalog from records. The loader uses it once every file has been validated;
// tests of other modules use it to build a small catalog in code:
//
//   CatalogBuilder b;
//   b.Add(gpu).Add(model);
//   std::unique_ptr<Catalog> c = std::move(b).Build();
//
// Build() indexes ids and names for lookup and derives each model's release_month from its
// release_date where it is 0 (catalog/release_month.h). It does not validate: records are taken
// as given (a duplicate id keeps the first record for id lookups).
#ifndef FITRANK_CATALOG_BUILDER_H_
#define FITRANK_CATALOG_BUILDER_H_

#include <memory>

#include "catalog/catalog.h"

namespace fitrank {

class CatalogBuilder {
 public:
  CatalogBuilder() : catalog_(new Catalog()) {}

  CatalogBuilder& Add(Gpu g) { return catalog_->gpus_.push_back(std::move(g)), *this; }
  CatalogBuilder& Add(Model m) { return catalog_->models_.push_back(std::move(m)), *this; }
  CatalogBuilder& Add(DiffusionModel d) {
    return catalog_->diffusion_.push_back(std::move(d)), *this;
  }
  CatalogBuilder& Add(Quant q) { return catalog_->quants_.push_back(std::move(q)), *this; }
  CatalogBuilder& Add(Runtime r) { return catalog_->runtimes_.push_back(std::move(r)), *this; }
  CatalogBuilder& Add(Interconnect i) {
    return catalog_->interconnects_.push_back(std::move(i)), *this;
  }
  CatalogBuilder& Add(Price p) { return catalog_->prices_.push_back(std::move(p)), *this; }

  // Whole vectors at once (the loader's path).
  void SetGpus(std::vector<Gpu> v) { catalog_->gpus_ = std::move(v); }
  void SetModels(std::vector<Model> v) { catalog_->models_ = std::move(v); }
  void SetDiffusion(std::vector<DiffusionModel> v) { catalog_->diffusion_ = std::move(v); }
  void SetQuants(std::vector<Quant> v) { catalog_->quants_ = std::move(v); }
  void SetRuntimes(std::vector<Runtime> v) { catalog_->runtimes_ = std::move(v); }
  void SetInterconnects(std::vector<Interconnect> v) { catalog_->interconnects_ = std::move(v); }
  void SetPrices(std::vector<Price> v) { catalog_->prices_ = std::move(v); }

  // The normalised names of the lookup index as a catalog image recorded them
  // (catalog/image.h): Build() then takes each kind's `by_norm` from `index` instead of
  // normalising every id, name and alias again. The rest of the index is built as usual.
  void SetBakedIndex(std::shared_ptr<catalog_internal::CatalogIndex> index) {
    baked_index_ = std::move(index);
  }
  // The GGUF sizes of every (model, quantization) pair as a catalog image recorded them,
  // models outer and quants inner, read in place (they must outlive the catalog): GgufSizeOf
  // then looks them up instead of working each out on first use. Null: worked out on use.
  void SetBakedGgufSizes(const GgufSize* table) { baked_gguf_sizes_ = table; }
  // The YAML tree the records' CatalogText views (catalog/types.h), kept by the catalog.
  void KeepText(std::unique_ptr<const YamlTree> tree) { catalog_->text_ = std::move(tree); }
  // The index of a built catalog, for writing an image of it.
  static const catalog_internal::CatalogIndex& IndexOf(const Catalog& c) { return *c.index_; }

  // The finished, indexed catalog. The builder is spent afterwards.
  std::unique_ptr<Catalog> Build() &&;

 private:
  std::unique_ptr<Catalog> catalog_;
  std::shared_ptr<catalog_internal::CatalogIndex> baked_index_;
  const GgufSize* baked_gguf_sizes_ = nullptr;
};

}  // namespace fitrank

#endif  // FITRANK_CATALOG_BUILDER_H_
