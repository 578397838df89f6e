#include "cli/resolve.h"

#include <map>
#include <memory>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank::cli {
namespace {

// Loaded catalogs, one per data source. The embedded tree is one source however many times
// it is asked for; any other source is keyed by its object, which the cache keeps alive so
// that its address is never reused by a different source.
struct CacheEntry {
  std::shared_ptr<const FileSource> source;
  std::unique_ptr<Catalog> catalog;
};

std::mutex& CacheMutex() {
  static std::mutex mu;
  return mu;
}

std::map<const FileSource*, CacheEntry>& Cache() {
  static auto* cache = new std::map<const FileSource*, CacheEntry>();
  return *cache;
}

constexpr size_t kMaxListed = 12;

template <class T>
std::string DisplayName(const T& t) {
  return t.name;
}
template <>
std::string DisplayName(const Quant& q) {
  return q.id;
}

template <class T>
const T& Resolve(const Lookup<T>& r, absl::string_view query, absl::string_view kind,
                 absl::string_view kinds, absl::string_view list_command) {
  if (r.found != nullptr) return *r.found;
  if (!r.ambiguous.empty()) {
    std::string msg = absl::StrCat("`", EscapeControl(query), "` is ambiguous: it matches ",
                                   r.ambiguous.size(), " ", kinds);
    size_t width = 0;
    for (size_t i = 0; i < r.ambiguous.size() && i < kMaxListed; ++i) {
      width = std::max(width, DisplayName(*r.ambiguous[i]).size());
    }
    for (size_t i = 0; i < r.ambiguous.size() && i < kMaxListed; ++i) {
      const T& t = *r.ambiguous[i];
      std::string name = DisplayName(t);
      absl::StrAppend(&msg, "\n    ", name);
      if (name != t.id) absl::StrAppend(&msg, std::string(width - name.size() + 2, ' '), t.id);
    }
    if (r.ambiguous.size() > kMaxListed) {
      absl::StrAppend(&msg, "\n    ... and ", r.ambiguous.size() - kMaxListed, " more (`",
                      list_command, " --filter ", query, "` lists them)");
    }
    std::vector<std::string> candidates;
    for (const T* t : r.ambiguous) candidates.push_back(DisplayName(*t));
    throw UsageError(msg,
                     absl::StrCat("be more specific, or give one of the names or ids "
                                  "above, e.g. `",
                                  DisplayName(*r.ambiguous.back()), "`"),
                     "ambiguous_name", std::move(candidates));
  }
  std::string hint = DidYouMean(r.suggestions);
  if (hint.empty()) hint = absl::StrCat("`", list_command, "` lists them all");
  throw UsageError(absl::StrCat("unknown ", kind, " `", query, "`"), hint, "unknown_name",
                   r.suggestions);
}

}  // namespace

void CheckName(absl::string_view name, absl::string_view kind) {
  if (absl::StripAsciiWhitespace(name).empty()) {
    throw UsageError(absl::StrCat("the ", kind, " name is empty"),
                     absl::StrCat("give a ", kind, " name, e.g. `",
                                  kind == "GPU" ? "RTX 4090" : "llama 3.1 8b", "`"));
  }
  if (name.size() > kMaxNameLength) {
    throw UsageError(absl::StrCat("the ", kind, " name `", Clip(name, 40), "` is ", name.size(),
                                  " bytes long; names are at most ", kMaxNameLength),
                     "give a shorter name; catalog names are a few words");
  }
}

const Catalog& LoadCatalog(Context& ctx) {
  if (ctx.engine != nullptr) return ctx.engine->catalog();
  std::lock_guard<std::mutex> lock(CacheMutex());
  static const EmbeddedSource kEmbedded;
  const FileSource* key = ctx.data.get();
  std::shared_ptr<const FileSource> keep = ctx.data;
  if (key == nullptr || dynamic_cast<const EmbeddedSource*>(key) != nullptr) {
    key = &kEmbedded;
    keep = nullptr;
  }
  auto it = Cache().find(key);
  if (it != Cache().end()) return *it->second.catalog;

  Diagnostics diags;
  std::unique_ptr<Catalog> catalog = Catalog::Load(*key, &diags);
  if (catalog == nullptr) {
    *ctx.err << diags.Render();
    *ctx.err << "fitrank: " << diags.error_count()
             << (diags.error_count() == 1 ? " error" : " errors")
             << " in the catalog data; nothing was loaded\n";
    throw ExitNow(2);
  }
  CacheEntry& e = Cache()[key];
  e.source = std::move(keep);
  e.catalog = std::move(catalog);
  return *e.catalog;
}

const Gpu& ResolveGpu(const Catalog& catalog, absl::string_view name) {
  CheckName(name, "GPU");
  return Resolve(catalog.FindGpu(name), name, "GPU", "GPUs", "fitrank catalog gpus");
}

const Model& ResolveModel(const Catalog& catalog, absl::string_view name) {
  CheckName(name, "model");
  return Resolve(catalog.FindModel(name), name, "model", "models", "fitrank catalog models");
}

const DiffusionModel& ResolveDiffusion(const Catalog& catalog, absl::string_view name) {
  CheckName(name, "diffusion model");
  return Resolve(catalog.FindDiffusion(name), name, "diffusion model", "diffusion models",
                 "fitrank catalog diffusion");
}

const Quant& ResolveQuant(const Catalog& catalog, absl::string_view name) {
  CheckName(name, "quantization");
  return Resolve(catalog.FindQuant(name), name, "quantization", "quantizations",
                 "fitrank catalog quants");
}

const Runtime& ResolveRuntime(const Catalog& catalog, absl::string_view name) {
  CheckName(name, "runtime");
  return Resolve(catalog.FindRuntime(name), name, "runtime", "runtimes",
                 "fitrank catalog runtimes");
}

}  // namespace fitrank::cli
