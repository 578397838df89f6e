// libFuzzer target for the query-string parser and path decoding (cli/serve/query.h): any
// bytes must parse or be refused with a message, never crash, and what parses must survive a
// re-encoding round trip. Build with -DFITRANK_FUZZ=ON (clang).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cli/serve/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  using fitrank::cli::serve::QueryParam;
  absl::StatusOr<std::vector<QueryParam>> q = fitrank::cli::serve::ParseQuery(in);
  if (q.ok()) {
    std::string again;
    for (const QueryParam& p : *q) {
      if (!again.empty()) again += '&';
      again += fitrank::cli::serve::UrlEncode(p.name) + "=" + fitrank::cli::serve::UrlEncode(p.value);
    }
    absl::StatusOr<std::vector<QueryParam>> r = fitrank::cli::serve::ParseQuery(again);
    if (!r.ok() || *r != *q) std::abort();
  } else if (q.status().message().empty()) {
    std::abort();
  }
  (void)fitrank::cli::serve::DecodePathSegment(in);
  return 0;
}
