// fitrank's version: the CMake project version (one source: project() in CMakeLists.txt),
// compiled in as FITRANK_VERSION.
#ifndef FITRANK_CLI_VERSION_H_
#define FITRANK_CLI_VERSION_H_

#include <ostream>

#include "absl/strings/string_view.h"

namespace fitrank::cli {

// "0.1".
absl::string_view FitrankVersion();

// `fitrank --version`: the version, then the catalog's data date (catalog/data_date.h) from
// the data in use (embedded, or $FITRANK_DATA):
//   fitrank 0.1
//   catalog data as of 2026-04 (newest dated entry: GLM-5.1 (release date))
// Returns 0, or 2 (with the diagnostics on `err`) when the catalog does not load.
int PrintVersion(std::ostream& out, std::ostream& err);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_VERSION_H_
