// Catalog::Load: read the seven files, check each entry, then the checks across entries and
// files; build the catalog only if nothing was wrong.
#include <algorithm>
#include <functional>
#include <tuple>

#include "catalog/builder.h"
#include "catalog/catalog.h"
#include "catalog/image.h"
#include "catalog/internal/checks.h"
#include "catalog/internal/frame.h"
#include "catalog/internal/records.h"

namespace fitrank {
namespace {

using catalog_internal::FileFrame;
using catalog_internal::NameUse;
using catalog_internal::Places;

template <class T>
using ReadFn = void (*)(YamlNode, int, const FileFrame&, Diagnostics*, T*,
                        Places*);

// One file's entries and where they were.
template <class T>
struct Loaded {
  bool read = false;  // the file's entry list could be read (cross references are checked)
  std::vector<T> items;
  std::vector<Places> places;
  // The file's tree; the catalog keeps models.yaml's, which its records' CatalogText views.
  std::unique_ptr<const YamlTree> tree;
};

using Texts = std::vector<catalog_internal::FileText>;

template <class T>
Loaded<T> LoadKind(const FileSource& source, absl::string_view kind, ReadFn<T> read,
                   Diagnostics* diags, Texts* texts) {
  Loaded<T> out;
  std::optional<FileFrame> frame = catalog_internal::ReadFrame(source, kind, diags, texts);
  if (!frame) return out;
  out.read = true;
  const size_t n = frame->entries.size();
  out.items.resize(n);
  out.places.resize(n);
  for (size_t i = 0; i < n; ++i) {
    read(frame->entries.Item(i), static_cast<int>(i), *frame, diags, &out.items[i],
         &out.places[i]);
  }
  out.tree = std::move(frame->tree);
  return out;
}

// Ids, names and aliases of one kind must be unique.
template <class T>
void CheckNames(const Loaded<T>& l, std::function<const std::string&(const T&)> name,
                Diagnostics* diags) {
  std::vector<NameUse> uses;
  uses.reserve(l.items.size() * 4);
  for (size_t i = 0; i < l.items.size(); ++i) {
    const T& t = l.items[i];
    catalog_internal::AddNames(i, t.id, name(t), t.aliases, l.places[i], &uses);
  }
  catalog_internal::CheckUniqueNames(uses, l.places, diags);
}

template <class T>
std::vector<std::string> Ids(const Loaded<T>& l) {
  std::vector<std::string> ids;
  ids.reserve(l.items.size());
  for (const T& t : l.items) {
    if (!t.id.empty()) ids.push_back(t.id);
  }
  return ids;
}

const std::string kNoName;

}  // namespace

std::unique_ptr<Catalog> Catalog::Load(const FileSource& source, Diagnostics* out_diags) {
  // The shipped files, unchanged: the build already read and checked them (catalog/image.h).
  if (std::unique_ptr<Catalog> baked = LoadBakedCatalog(source)) return baked;
  namespace ci = catalog_internal;
  // Problems are collected here first so that each can get a catalog-specific hint.
  Diagnostics local;
  Diagnostics* diags = &local;
  Texts texts;

  auto gpus = LoadKind<Gpu>(source, "gpus", ci::ReadGpu, &local, &texts);
  CheckNames<Gpu>(gpus, [](const Gpu& g) -> const std::string& { return g.name; }, diags);
  auto models = LoadKind<Model>(source, "models", ci::ReadModel, &local, &texts);
  CheckNames<Model>(models, [](const Model& m) -> const std::string& { return m.name; }, diags);
  auto diffusion =
      LoadKind<DiffusionModel>(source, "diffusion", ci::ReadDiffusion, &local, &texts);
  CheckNames<DiffusionModel>(
      diffusion, [](const DiffusionModel& d) -> const std::string& { return d.name; }, diags);
  auto quants = LoadKind<Quant>(source, "quants", ci::ReadQuant, &local, &texts);
  CheckNames<Quant>(quants, [](const Quant&) -> const std::string& { return kNoName; }, diags);
  auto runtimes = LoadKind<Runtime>(source, "runtimes", ci::ReadRuntime, &local, &texts);
  CheckNames<Runtime>(runtimes, [](const Runtime& r) -> const std::string& { return r.name; },
                      diags);
  auto interconnects =
      LoadKind<Interconnect>(source, "interconnects", ci::ReadInterconnect, &local, &texts);
  {
    std::vector<NameUse> uses;
    for (size_t i = 0; i < interconnects.items.size(); ++i) {
      const Interconnect& ic = interconnects.items[i];
      ci::AddNames(i, ic.id, ic.name, {}, interconnects.places[i], &uses);
    }
    ci::CheckUniqueNames(uses, interconnects.places, diags);
  }
  auto prices = LoadKind<Price>(source, "prices", ci::ReadPrice, &local, &texts);
  {
    std::vector<NameUse> uses;
    for (size_t i = 0; i < prices.items.size(); ++i) {
      ci::AddNames(i, prices.items[i].gpu_id, "", {}, prices.places[i], &uses);
    }
    ci::CheckUniqueNames(uses, prices.places, diags);
  }

  // References into a file that could not be read would all be reported: skip them.
  if (interconnects.read) {
    ci::CheckRefs(gpus.places, Ids(interconnects), "interconnect", "catalog/interconnects.yaml",
                  diags);
  }
  if (runtimes.read) {
    ci::CheckRefs(quants.places, Ids(runtimes), "runtime", "catalog/runtimes.yaml", diags);
  }
  if (gpus.read) ci::CheckRefs(prices.places, Ids(gpus), "gpu", "catalog/gpus.yaml", diags);
  if (quants.read) ci::CheckRefs(models.places, Ids(quants), "quant", "catalog/quants.yaml", diags);

  if (!local.empty()) {
    // File by file (in the order problems first appear), top to bottom within a file.
    std::vector<Diagnostic> all = local.all();
    std::vector<std::string> file_order;
    for (const Diagnostic& d : all) {
      if (std::find(file_order.begin(), file_order.end(), d.where.file) == file_order.end()) {
        file_order.push_back(d.where.file);
      }
    }
    auto rank = [&](const Diagnostic& d) {
      return std::find(file_order.begin(), file_order.end(), d.where.file) - file_order.begin();
    };
    std::stable_sort(all.begin(), all.end(), [&](const Diagnostic& a, const Diagnostic& b) {
      return std::make_tuple(rank(a), a.where.line, a.where.col) <
             std::make_tuple(rank(b), b.where.line, b.where.col);
    });
    for (const catalog_internal::FileText& t : texts) {
      out_diags->AddSource(t.file, std::string(t.text()));
    }
    for (Diagnostic& d : all) out_diags->Add(std::move(d));
  }
  if (local.HasErrors()) return nullptr;
  CatalogBuilder b;
  b.SetGpus(std::move(gpus.items));
  b.SetModels(std::move(models.items));
  b.KeepText(std::move(models.tree));
  b.SetDiffusion(std::move(diffusion.items));
  b.SetQuants(std::move(quants.items));
  b.SetRuntimes(std::move(runtimes.items));
  b.SetInterconnects(std::move(interconnects.items));
  b.SetPrices(std::move(prices.items));
  return std::move(b).Build();
}

}  // namespace fitrank
