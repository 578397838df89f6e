// Catalog::GgufSizeOf's table (catalog/catalog.h): EstimateGgufSize per (model, quantization)
// of one catalog, each entry worked out on first use (a ranking sizes only the quantizations it
// gets to, often a fifth of a model's). A model's row of entries is allocated on first use and
// published with a compare-and-swap; an entry is claimed by one thread, and another that asks
// for it meanwhile waits the microsecond it takes. A catalog read from its baked image
// (catalog/image.h) brings every entry worked out at build time: a lookup in place.
#ifndef FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_
#define FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "catalog/gguf_recipe.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

class GgufSizes {
 public:
  // `baked`: null, or the models x quants entries (models outer), immutable and outliving this.
  GgufSizes(size_t models, size_t quants, const GgufSize* baked = nullptr)
      : rows_(baked != nullptr ? nullptr : std::make_unique<std::atomic<Entry*>[]>(models)),
        n_models_(baked != nullptr ? 0 : models),
        n_quants_(quants),
        baked_(baked) {}
  ~GgufSizes();
  // The entry of models[model] at quants[quant] (ok false: not a GGUF file type, or shapes
  // inconsistent). `models` (of the size given at construction) and `quants` are the same
  // vectors (or copies) at every call.
  const GgufSize& Get(const std::vector<Model>& models, const std::vector<Quant>& quants,
                      size_t model, size_t quant);

 private:
  struct Entry {
    std::atomic<uint8_t> state{0};  // 0 empty, 1 being worked out, 2 ready
    GgufSize size;
  };

  std::unique_ptr<std::atomic<Entry*>[]> rows_;  // [model]: null until first asked
  size_t n_models_;  // rows_'s size (0 when baked)
  size_t n_quants_;
  const GgufSize* baked_;  // [model * n_quants_ + quant], or null
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_
