// libFuzzer target for the GGUF header reader: the input is a file prefix, read as a whole file
// and as the first half of a file twice as long (the reader must ask for more or refuse). Any
// crash, hang, sanitizer report or header that fails ModelFromGguf's checks unsafely is a bug.
//
// Built only with clang and -DFITRANK_FUZZ=ON:
//   build/gguf_fuzzer -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "catalog/gguf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (uint64_t file_size : {uint64_t{size}, uint64_t{size} * 2}) {
    fitrank::GgufHeaderResult r = fitrank::ParseGgufHeader(bytes, file_size, "fuzz.gguf");
    const int outcomes = r.header.has_value() + (r.need_bytes > 0) + !r.error.empty();
    if (outcomes != 1) std::abort();
    if (r.need_bytes > 0 && r.need_bytes <= size) std::abort();  // must ask for more than it had
    if (r.header) {
      absl::StatusOr<fitrank::GgufModel> m = fitrank::ModelFromGguf(*r.header, "fuzz.gguf");
      if (m.ok() && !(m->model.params_b >= 0)) std::abort();
    }
  }
  return 0;
}
