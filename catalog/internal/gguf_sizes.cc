#include "catalog/internal/gguf_sizes.h"

#include <thread>

#include "catalog/catalog.h"

namespace fitrank {
namespace catalog_internal {

GgufSizes::~GgufSizes() {
  for (size_t i = 0; i < n_models_; ++i) delete[] rows_[i].load();
}

const GgufSize& GgufSizes::Get(const std::vector<Model>& models, const std::vector<Quant>& quants,
                               size_t model, size_t quant) {
  if (baked_ != nullptr) return baked_[model * n_quants_ + quant];
  Entry* row = rows_[model].load(std::memory_order_acquire);
  if (row == nullptr) {
    Entry* fresh = new Entry[quants.size()];
    if (rows_[model].compare_exchange_strong(row, fresh, std::memory_order_acq_rel)) {
      row = fresh;
    } else {
      delete[] fresh;  // another thread's row won; `row` now points to it
    }
  }
  Entry& e = row[quant];
  uint8_t state = e.state.load(std::memory_order_acquire);
  if (state == 2) return e.size;
  if (state == 0 && e.state.compare_exchange_strong(state, 1, std::memory_order_acq_rel)) {
    e.size = EstimateGgufSize(models[model], quants[quant].id);  // not ok if not a GGUF type
    e.state.store(2, std::memory_order_release);
    return e.size;
  }
  while (e.state.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  return e.size;
}

}  // namespace catalog_internal

const GgufSize* Catalog::GgufSizeOf(const Model& m, const Quant& q) const {
  if (gguf_sizes_ == nullptr || &m < models_.data() || &m >= models_.data() + models_.size() ||
      &q < quants_.data() || &q >= quants_.data() + quants_.size()) {
    return nullptr;
  }
  return &gguf_sizes_->Get(models_, quants_, &m - models_.data(), &q - quants_.data());
}

}  // namespace fitrank
