#include "cli/version.h"

#include "catalog/data_date.h"
#include "catalog/image.h"
#include "cli/args.h"
#include "cli/command.h"
#include "cli/resolve.h"

#ifndef FITRANK_VERSION
#error "FITRANK_VERSION must be defined by the build (cli/CMakeLists.txt)"
#endif

namespace fitrank::cli {

absl::string_view FitrankVersion() { return FITRANK_VERSION; }

int PrintVersion(std::ostream& out, std::ostream& err) {
  Context ctx;
  ctx.out = &out;
  ctx.err = &err;
  ctx.data = DefaultSource("");
  try {
    // The shipped catalog's date was recorded when it was baked: no need to load it.
    std::optional<CatalogDataDate> baked = LoadBakedDataDate(*ctx.data);
    CatalogDataDate d = baked ? *std::move(baked) : NewestDataDate(LoadCatalog(ctx));
    out << "fitrank " << FitrankVersion() << "\n";
    if (d.date.empty()) {
      out << "catalog data: no dated entry\n";
    } else {
      out << "catalog data as of " << d.date << " (newest dated entry: " << d.entry << ")\n";
    }
    return 0;
  } catch (const ExitNow& e) {
    return e.code();
  }
}

}  // namespace fitrank::cli
