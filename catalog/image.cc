// The image is a header (layout tag, source file sizes, the newest data date), the records'
// fields in catalog/internal/fields.h order, each written raw (numbers and enums as their
// bytes, strings and lists as a length and their items), the normalised-name index sorted by
// name so that one catalog always bakes to the same bytes, and last the GGUF sizes of every
// (model, quantization) pair as raw GgufSize structs at an 8-byte aligned offset, read in place.
#include "catalog/image.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "catalog/builder.h"
#include "catalog/data_date.h"
#include "catalog/gguf_recipe.h"
#include "catalog/internal/fields.h"
#include "catalog/internal/index.h"

namespace fitrank {
namespace {

using catalog_internal::NameIndex;

constexpr char kMagic[8] = {'F', 'R', 'C', 'A', 'T', 'I', 'M', '1'};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

// A cheap guard against reading an image of other records: their sizes.
uint64_t LayoutTag() {
  return sizeof(Gpu) * 1'000'003ull + sizeof(Model) * 10'007ull + sizeof(DiffusionModel) * 101 +
         sizeof(Quant) * 7 + sizeof(Runtime) * 3 + sizeof(Interconnect) + sizeof(Price) +
         sizeof(GgufSize) * 1'000'000'007ull;
}

static_assert(std::is_trivially_copyable_v<GgufSize>, "GGUF sizes are stored raw");
constexpr size_t kGgufAlign = alignof(GgufSize);

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  template <class T>
  void operator()(const T& x) {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, absl::string_view>) {
      Count(x.size());
      out_->append(x.data(), x.size());
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
      out_->append(reinterpret_cast<const char*>(&x), sizeof(T));
    } else if constexpr (IsVector<T>::value) {
      Count(x.size());
      for (const auto& item : x) (*this)(item);
    } else {
      catalog_internal::Fields(*this, x);
    }
  }
  void Count(size_t n) { (*this)(static_cast<uint32_t>(n)); }
  // Zero bytes up to a multiple of `align` from the image's start.
  void Pad(size_t align) { out_->append((align - out_->size() % align) % align, '\0'); }
  void Raw(const void* p, size_t n) { out_->append(static_cast<const char*>(p), n); }

 private:
  std::string* out_;
};

class Reader {
 public:
  explicit Reader(absl::string_view in) : in_(in) {}

  template <class T>
  void operator()(T& x) {
    if constexpr (std::is_same_v<T, std::string>) {
      const uint32_t n = Count();
      if (!Take(n)) return;
      x.assign(in_.data() + pos_ - n, n);
    } else if constexpr (std::is_same_v<T, absl::string_view>) {
      const uint32_t n = Count();
      if (Take(n)) x = absl::string_view(in_.data() + pos_ - n, n);  // in place (CatalogText)
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
      if (Take(sizeof(T))) std::memcpy(&x, in_.data() + pos_ - sizeof(T), sizeof(T));
    } else if constexpr (IsVector<T>::value) {
      const uint32_t n = Count();
      // Every item takes at least one byte: a count beyond the rest is a broken image.
      if (n > in_.size() - pos_) {
        ok_ = false;
        return;
      }
      x.resize(n);
      for (auto& item : x) (*this)(item);
    } else {
      catalog_internal::Fields(*this, x);
    }
  }
  uint32_t Count() {
    uint32_t n = 0;
    (*this)(n);
    return n;
  }
  bool ok() const { return ok_; }
  void Fail() { ok_ = false; }
  bool done() const { return pos_ == in_.size(); }
  // Skips what Writer::Pad wrote; `offset` is where `in_` starts in the image.
  void Pad(size_t offset, size_t align) { Take((align - (offset + pos_) % align) % align); }
  // The next `n` bytes, in place (null if fewer are left).
  const char* Raw(size_t n) { return Take(n) ? in_.data() + pos_ - n : nullptr; }

 private:
  bool Take(size_t n) {
    if (!ok_ || n > in_.size() - pos_) return ok_ = false;
    pos_ += n;
    return true;
  }

  absl::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

void WriteNames(const NameIndex& index, Writer* w) {
  w->Count(index.by_norm.size());
  for (const auto& [name, i] : index.by_norm) {  // sorted by name, each once
    (*w)(std::string(name));
    (*w)(i);
  }
}

void ReadNames(size_t entries, Reader* r, NameIndex* index) {
  const uint32_t n = r->Count();
  if (!r->ok()) return;
  index->by_norm.reserve(std::min<uint32_t>(n, uint32_t{1} << 16));  // n is untrusted
  for (uint32_t k = 0; k < n && r->ok(); ++k) {
    uint32_t i = 0;
    const uint32_t len = r->Count();
    const char* bytes = r->Raw(len);  // the name in place: the image outlives the catalog
    (*r)(i);
    if (bytes == nullptr) return r->Fail();
    const absl::string_view name(bytes, len);
    if (i >= entries) return r->Fail();  // an entry past the records: a broken image
    // Out of order or twice: a broken image (FindNorm searches a sorted table).
    if (!index->by_norm.empty() && !(index->by_norm.back().first < name)) return r->Fail();
    index->by_norm.emplace_back(name, i);
  }
}

// Every pair's GgufSize, models outer, quants inner, padding bytes zero.
void WriteGgufSizes(const Catalog& c, Writer* w) {
  w->Count(c.models().size() * c.quants().size());
  w->Pad(kGgufAlign);
  for (const Model& m : c.models()) {
    for (const Quant& q : c.quants()) {
      const GgufSize* s = c.GgufSizeOf(m, q);
      alignas(GgufSize) unsigned char raw[sizeof(GgufSize)] = {};
      GgufSize* z = reinterpret_cast<GgufSize*>(raw);  // field by field: padding stays zero
      z->ok = s->ok;
      z->total_bytes = s->total_bytes;
      z->token_embd_bytes = s->token_embd_bytes;
      z->output_bytes = s->output_bytes;
      z->dense_bytes = s->dense_bytes;
      z->expert_bytes = s->expert_bytes;
      z->token_embd_type = s->token_embd_type;
      z->output_type = s->output_type;
      w->Raw(raw, sizeof(raw));
    }
  }
}

// The table in place, or null when the image is broken (then r fails) or the table is not
// aligned in memory (an image copied to an odd address: the catalog then works the sizes out).
const GgufSize* ReadGgufSizes(size_t pairs, Reader* r) {
  const uint32_t n = r->Count();
  if (!r->ok() || n != pairs) return r->Fail(), nullptr;
  r->Pad(sizeof(kMagic), kGgufAlign);
  const char* table = r->Raw(pairs * sizeof(GgufSize));
  if (table == nullptr || reinterpret_cast<uintptr_t>(table) % kGgufAlign != 0) return nullptr;
  return reinterpret_cast<const GgufSize*>(table);
}

// The header up to and including the data date; false if the image is not one of this build's
// for files of sizes `file_bytes`.
bool ReadHeader(const std::vector<uint64_t>& file_bytes, Reader* r, CatalogDataDate* date) {
  uint64_t layout = 0;
  std::vector<uint64_t> baked_bytes;
  (*r)(layout);
  (*r)(baked_bytes);
  if (!r->ok() || layout != LayoutTag() || baked_bytes != file_bytes) return false;
  (*r)(date->date);
  (*r)(date->entry);
  return r->ok();
}

bool HasMagic(absl::string_view image) {
  return image.size() >= sizeof(kMagic) && std::memcmp(image.data(), kMagic, sizeof(kMagic)) == 0;
}

}  // namespace

const std::vector<std::string>& CatalogImageFiles() {
  static const std::vector<std::string> kFiles = {
      "catalog/gpus.yaml",     "catalog/models.yaml",        "catalog/diffusion.yaml",
      "catalog/quants.yaml",   "catalog/runtimes.yaml",      "catalog/interconnects.yaml",
      "catalog/prices.yaml"};
  return kFiles;
}

std::string BakeCatalog(const Catalog& c, const std::vector<uint64_t>& file_bytes) {
  std::string out(kMagic, sizeof(kMagic));
  Writer w(&out);
  w(LayoutTag());
  w(file_bytes);
  const CatalogDataDate date = NewestDataDate(c);
  w(date.date);
  w(date.entry);
  w(c.gpus());
  w(c.models());
  w(c.diffusion());
  w(c.quants());
  w(c.runtimes());
  w(c.interconnects());
  w(c.prices());
  const catalog_internal::CatalogIndex& index = CatalogBuilder::IndexOf(c);
  for (const NameIndex* names : index.Kinds()) WriteNames(*names, &w);
  WriteGgufSizes(c, &w);
  return out;
}

std::unique_ptr<Catalog> UnbakeCatalog(absl::string_view image,
                                       const std::vector<uint64_t>& file_bytes) {
  if (!HasMagic(image)) return nullptr;
  Reader r(image.substr(sizeof(kMagic)));
  CatalogDataDate date;
  if (!ReadHeader(file_bytes, &r, &date)) return nullptr;
  std::vector<Gpu> gpus;
  std::vector<Model> models;
  std::vector<DiffusionModel> diffusion;
  std::vector<Quant> quants;
  std::vector<Runtime> runtimes;
  std::vector<Interconnect> interconnects;
  std::vector<Price> prices;
  r(gpus);
  r(models);
  r(diffusion);
  r(quants);
  r(runtimes);
  r(interconnects);
  r(prices);
  auto index = std::make_shared<catalog_internal::CatalogIndex>();
  ReadNames(gpus.size(), &r, &index->gpus);
  ReadNames(models.size(), &r, &index->models);
  ReadNames(diffusion.size(), &r, &index->diffusion);
  ReadNames(quants.size(), &r, &index->quants);
  ReadNames(runtimes.size(), &r, &index->runtimes);
  ReadNames(interconnects.size(), &r, &index->interconnects);
  const GgufSize* gguf_sizes = ReadGgufSizes(models.size() * quants.size(), &r);
  if (!r.ok() || !r.done()) return nullptr;
  CatalogBuilder b;
  b.SetGpus(std::move(gpus));
  b.SetModels(std::move(models));
  b.SetDiffusion(std::move(diffusion));
  b.SetQuants(std::move(quants));
  b.SetRuntimes(std::move(runtimes));
  b.SetInterconnects(std::move(interconnects));
  b.SetPrices(std::move(prices));
  b.SetBakedIndex(std::move(index));
  b.SetBakedGgufSizes(gguf_sizes);
  return std::move(b).Build();
}

std::optional<CatalogDataDate> BakedDataDate(absl::string_view image,
                                             const std::vector<uint64_t>& file_bytes) {
  if (!HasMagic(image)) return std::nullopt;
  Reader r(image.substr(sizeof(kMagic)));
  CatalogDataDate date;
  if (!ReadHeader(file_bytes, &r, &date)) return std::nullopt;
  return date;
}

namespace {

// The baked image and the sizes of the embedded files `source` serves, if it serves each.
std::optional<std::pair<absl::string_view, std::vector<uint64_t>>> BakedImageFor(
    const FileSource& source) {
  const std::vector<EmbeddedFile>& images = BakedCatalogImages();
  if (images.empty()) return std::nullopt;
  std::vector<uint64_t> file_bytes;
  for (const std::string& path : CatalogImageFiles()) {
    std::optional<absl::string_view> embedded = source.Embedded(path);
    if (!embedded) return std::nullopt;
    file_bytes.push_back(embedded->size());
  }
  const EmbeddedFile& image = images[0];
  return std::make_pair(absl::string_view(image.begin, image.end - image.begin),
                        std::move(file_bytes));
}

}  // namespace

std::unique_ptr<Catalog> LoadBakedCatalog(const FileSource& source) {
  auto baked = BakedImageFor(source);
  return baked ? UnbakeCatalog(baked->first, baked->second) : nullptr;
}

std::optional<CatalogDataDate> LoadBakedDataDate(const FileSource& source) {
  auto baked = BakedImageFor(source);
  return baked ? BakedDataDate(baked->first, baked->second) : std::nullopt;
}

}  // namespace fitrank
