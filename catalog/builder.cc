#include "catalog/builder.h"

#include <algorithm>

#include "base/text.h"
#include "catalog/internal/gguf_sizes.h"
#include "catalog/internal/index.h"
#include "catalog/release_month.h"

namespace fitrank {
namespace catalog_internal {

void NameIndex::SortNorms() {
  // Stable: of the equal names, the first added (its first owner's) stays first and is kept.
  std::stable_sort(by_norm.begin(), by_norm.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  by_norm.erase(std::unique(by_norm.begin(), by_norm.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                by_norm.end());
}

int64_t NameIndex::FindNorm(absl::string_view norm) const {
  auto it = std::lower_bound(by_norm.begin(), by_norm.end(), norm,
                             [](const auto& entry, absl::string_view n) { return entry.first < n; });
  if (it == by_norm.end() || it->first != norm) return -1;
  return it->second;
}

void NameIndex::Add(absl::string_view id, absl::string_view name,
                    const std::vector<std::string>& aliases, bool normalise) {
  const size_t i = display.size();
  by_id.try_emplace(id, i);
  display.push_back(name.empty() ? id : name);
  if (!normalise) return;
  auto add = [&](std::string norm) {
    norm_store.push_back(std::move(norm));
    by_norm.emplace_back(norm_store.back(), static_cast<uint32_t>(i));
  };
  add(NormalizeName(id));
  if (!name.empty()) add(NormalizeName(name));
  for (const std::string& a : aliases) add(NormalizeName(a));
}

void AddForms(absl::string_view id, absl::string_view name,
              const std::vector<std::string>& aliases, const std::string& brand,
              std::vector<NameForm>* out) {
  auto add = [&](absl::string_view text) {
    if (!text.empty()) out->push_back(MakeForm(text));
  };
  add(id);
  if (name != id) add(name);
  for (const std::string& a : aliases) add(a);
  // "NVIDIA GeForce RTX 4090", "Meta Llama 3.1 8B Instruct", "NVIDIA H200" (an alias): the
  // brand costs nothing.
  if (!brand.empty() && !name.empty()) out->push_back(MakeForm(name, brand));
  if (!brand.empty()) {
    for (const std::string& a : aliases) out->push_back(MakeForm(a, brand));
  }
}

}  // namespace catalog_internal

std::unique_ptr<Catalog> CatalogBuilder::Build() && {
  const bool normalise = baked_index_ == nullptr;
  std::shared_ptr<catalog_internal::CatalogIndex> index =
      normalise ? std::make_shared<catalog_internal::CatalogIndex>() : std::move(baked_index_);
  Catalog& c = *catalog_;
  // Read once here, not at every age computed from them (a baked image carries them).
  for (Model& m : c.models_) {
    if (m.release_month == 0) m.release_month = ReleaseMonth(m.release_date);
  }
  for (const Gpu& g : c.gpus_) index->gpus.Add(g.id, g.name, g.aliases, normalise);
  for (const Model& m : c.models_) index->models.Add(m.id, m.name, m.aliases, normalise);
  for (const DiffusionModel& d : c.diffusion_) {
    index->diffusion.Add(d.id, d.name, d.aliases, normalise);
  }
  for (const Quant& q : c.quants_) index->quants.Add(q.id, q.id, q.aliases, normalise);
  for (const Runtime& r : c.runtimes_) index->runtimes.Add(r.id, r.name, r.aliases, normalise);
  for (const Interconnect& i : c.interconnects_) {
    index->interconnects.Add(i.id, i.name, {}, normalise);
  }
  if (normalise) {
    for (catalog_internal::NameIndex* kind : index->Kinds()) kind->SortNorms();
  }
  for (size_t i = 0; i < c.prices_.size(); ++i) {
    index->price_by_gpu.try_emplace(c.prices_[i].gpu_id, i);
  }
  c.index_ = std::move(index);
  c.gguf_sizes_ = std::make_shared<catalog_internal::GgufSizes>(c.models_.size(),
                                                                 c.quants_.size(),
                                                                 baked_gguf_sizes_);
  return std::move(catalog_);
}

}  // namespace fitrank
