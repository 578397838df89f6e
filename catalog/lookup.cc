// Catalog lookups: exact ids, and the forgiving name matching of catalog.h.
#include <algorithm>
#include <limits>

#include "base/text.h"
#include "catalog/catalog.h"
#include "catalog/internal/index.h"

namespace fitrank {
namespace {

using catalog_internal::MatchScore;
using catalog_internal::NameIndex;

template <class T>
const T* ById(const std::vector<T>& items, const NameIndex& idx, absl::string_view id) {
  auto it = idx.by_id.find(id);
  return it == idx.by_id.end() ? nullptr : &items[it->second];
}

// Edit distance from `q` to the closest substring of `c` (free start and end in `c`), so
// "rtx4099" is one edit from "geforcertx4090".
int SubstringDistance(absl::string_view q, absl::string_view c) {
  std::vector<int> prev(c.size() + 1, 0), cur(c.size() + 1);
  for (size_t i = 1; i <= q.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= c.size(); ++j) {
      int substitute = prev[j - 1] + (q[i - 1] == c[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    std::swap(prev, cur);
  }
  return *std::min_element(prev.begin(), prev.end());
}

// Up to three entry names closest to `query`: fewest edits to a part of one of the entry's
// written forms, then fewest edits to a whole form; ties in catalog order. An unrelated query
// gets none.
template <class T>
std::vector<std::string> Suggest(const std::vector<T>& items, const NameIndex& idx,
                                 absl::string_view query) {
  const std::string q = NormalizeName(query);
  if (q.empty()) return {};
  const int limit = std::max<int>(1, (static_cast<int>(q.size()) + 2) / 4);
  struct Near {
    int part, whole;
    size_t entry;
  };
  std::vector<Near> near;
  for (size_t i = 0; i < items.size(); ++i) {
    Near best{std::numeric_limits<int>::max(), std::numeric_limits<int>::max(), i};
    auto consider = [&](absl::string_view text) {
      std::string c = NormalizeName(text);
      int part = SubstringDistance(q, c);
      if (part > limit || part > best.part) return;
      int whole = EditDistance(q, c);
      if (part < best.part || whole < best.whole) best = {part, whole, i};
    };
    consider(items[i].id);
    consider(idx.display[i]);
    for (const std::string& a : items[i].aliases) consider(a);
    if (best.part <= limit) near.push_back(best);
  }
  std::stable_sort(near.begin(), near.end(), [](const Near& a, const Near& b) {
    return a.part != b.part ? a.part < b.part : a.whole < b.whole;
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < near.size() && out.size() < 3; ++i) {
    out.emplace_back(idx.display[near[i].entry]);
  }
  return out;
}

// The brand put in front of a name for one more written form ("NVIDIA GeForce RTX 4090").
std::string Brand(const Gpu& g) { return g.vendor; }
std::string Brand(const Model& m) { return m.org; }
std::string Brand(const DiffusionModel& d) { return d.org; }
std::string Brand(const Quant&) { return ""; }
std::string Brand(const Runtime&) { return ""; }

template <class T>
Lookup<T> Find(const std::vector<T>& items, const NameIndex& idx, absl::string_view query) {
  Lookup<T> result;
  // Matching costs |query| x |name| per name: a query longer than any name matches nothing.
  if (query.size() > kMaxNameLength) return result;
  if (const int64_t at = idx.FindNorm(NormalizeName(query)); at >= 0) {
    result.found = &items[at];
    result.exact = true;
    return result;
  }
  const auto tokens = catalog_internal::QueryTokens(query);
  // Best score per entry over its forms; qualifiers decide only between forms of one entry.
  struct Hit {
    size_t entry;
    MatchScore score;
  };
  std::vector<Hit> hits;
  const auto& forms = tokens.empty() ? idx.forms
                                     : idx.Forms(items.size(), [&](size_t i, auto* out) {
                                         catalog_internal::AddForms(items[i].id, idx.display[i],
                                                                    items[i].aliases,
                                                                    Brand(items[i]), out);
                                       });
  for (size_t i = 0; i < forms.size() && !tokens.empty(); ++i) {
    std::optional<MatchScore> best;
    for (const auto& form : forms[i]) {
      auto s = catalog_internal::ScoreForm(tokens, form);
      if (!s) continue;
      if (!best || *s < *best || (*s == *best && s->qualifiers < best->qualifiers)) best = s;
    }
    if (best) hits.push_back({i, *best});
  }
  if (hits.empty()) {
    result.suggestions = Suggest(items, idx, query);
    return result;
  }
  MatchScore top = hits[0].score;
  for (const Hit& h : hits) top = std::min(top, h.score);
  std::vector<const Hit*> tied;
  for (const Hit& h : hits) {
    if (h.score == top) tied.push_back(&h);
  }
  if (tied.size() > 1 && top.extras == 0) {
    // The query names the product; the one candidate that needs no qualifier at all beats
    // its qualified variants ("h200" -> H200 rather than H200 NVL); otherwise the user has
    // to choose.
    const Hit* bare = nullptr;
    int bare_count = 0;
    for (const Hit* h : tied) {
      if (h->score.qualifiers == 0) bare = h, ++bare_count;
    }
    if (bare_count == 1) tied = {bare};
  }
  if (tied.size() == 1) {
    result.found = &items[tied[0]->entry];
    return result;
  }
  for (const Hit* h : tied) result.ambiguous.push_back(&items[h->entry]);
  return result;
}

}  // namespace

Lookup<Gpu> Catalog::FindGpu(absl::string_view name) const {
  return Find(gpus_, index_->gpus, name);
}
Lookup<Model> Catalog::FindModel(absl::string_view name) const {
  return Find(models_, index_->models, name);
}
Lookup<DiffusionModel> Catalog::FindDiffusion(absl::string_view name) const {
  return Find(diffusion_, index_->diffusion, name);
}
int Catalog::QuantIndex(const Quant& quant) const {
  if (!quants_.empty() && &quant >= quants_.data() && &quant < quants_.data() + quants_.size()) {
    return static_cast<int>(&quant - quants_.data());
  }
  for (size_t i = 0; i < quants_.size(); ++i) {
    if (quants_[i].id == quant.id) return static_cast<int>(i);
  }
  return -1;
}

Lookup<Quant> Catalog::FindQuant(absl::string_view name) const {
  return Find(quants_, index_->quants, name);
}
Lookup<Runtime> Catalog::FindRuntime(absl::string_view name) const {
  return Find(runtimes_, index_->runtimes, name);
}

const Gpu* Catalog::GpuById(absl::string_view id) const { return ById(gpus_, index_->gpus, id); }
const Model* Catalog::ModelById(absl::string_view id) const {
  return ById(models_, index_->models, id);
}
const DiffusionModel* Catalog::DiffusionById(absl::string_view id) const {
  return ById(diffusion_, index_->diffusion, id);
}
const Quant* Catalog::QuantById(absl::string_view id) const {
  return ById(quants_, index_->quants, id);
}
const Runtime* Catalog::RuntimeById(absl::string_view id) const {
  return ById(runtimes_, index_->runtimes, id);
}
const Interconnect* Catalog::InterconnectById(absl::string_view id) const {
  return ById(interconnects_, index_->interconnects, id);
}
const Price* Catalog::PriceFor(absl::string_view gpu_id) const {
  auto it = index_->price_by_gpu.find(gpu_id);
  return it == index_->price_by_gpu.end() ? nullptr : &prices_[it->second];
}

}  // namespace fitrank
