// Catalog::GgufSizeOf's table (catalog/catalog.h): EstimateGgufSize per (model, quantization)
// of one catalog, each entry worked out on first use (a ranking sizes only the quantizations it
// gets to, often a fifth of a model's). A model's row of entries is allocated on first use and
// published with a compare-and-swap; an entry is claimed by one thread, and another that asks
// for it meanwhile waits the microsecond it takes.
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
  explicit GgufSizes(size_t models) : rows_(std::make_unique<std::atomic<Entry*>[]>(models)),
                                      n_models_(models) {}
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
  size_t n_models_;
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_
