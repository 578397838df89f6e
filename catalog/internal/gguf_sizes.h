// Catalog::GgufSizeOf's table (catalog/catalog.h): EstimateGgufSize per (model, quantization)
// of one catalog, filled a model's row at a time on first use. Rows are published with a
// compare-and-swap: two threads that reach a new row together both work it out and one copy
// is kept, so readers never wait.
#ifndef FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_
#define FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "catalog/gguf_recipe.h"
#include "catalog/types.h"

namespace fitrank::catalog_internal {

class GgufSizes {
 public:
  ~GgufSizes();
  // The entry of models[model] at quants[quant] (ok false: not a GGUF file type, or shapes
  // inconsistent). `models` and `quants` are the same vectors (or copies) at every call.
  const GgufSize& Get(const std::vector<Model>& models, const std::vector<Quant>& quants,
                      size_t model, size_t quant);

 private:
  std::once_flag init_;
  size_t n_models_ = 0;
  std::unique_ptr<std::atomic<const GgufSize*>[]> rows_;
};

}  // namespace fitrank::catalog_internal

#endif  // FITRANK_CATALOG_INTERNAL_GGUF_SIZES_H_
