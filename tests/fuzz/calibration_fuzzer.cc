// Fuzz target: one input as a calibration measurements TSV (`calibrate --measurements`), parsed
// by ParseMeasurements and, when it parses, every row mapped onto the shipped catalog and
// estimated (RunCalibration). Any crash, exception, sanitizer report, or a NaN or infinity in
// the statistics or a row's predictions is a bug. See tests/fuzz/README.md.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "base/file_source.h"
#include "engine/estimator/calibration.h"

namespace {

struct Shipped {
  std::unique_ptr<fitrank::Catalog> catalog;
  std::unique_ptr<fitrank::Estimator> estimator;
  Shipped() {
    fitrank::EmbeddedSource source;
    fitrank::Diagnostics d;
    catalog = fitrank::Catalog::Load(source, &d);
    estimator = fitrank::Estimator::Load(source, &d);
    if (catalog == nullptr || estimator == nullptr) std::abort();
  }
};

bool Finite(const fitrank::CalibrationStats& s) {
  return std::isfinite(s.median_ape) && std::isfinite(s.mean_ape) && std::isfinite(s.within_25);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitrank;
  static Shipped* shipped = new Shipped();
  Diagnostics d;
  std::vector<MeasuredRow> rows;
  const bool ok = ParseMeasurements(absl::string_view(reinterpret_cast<const char*>(data), size),
                                    "fuzz.tsv", &rows, &d);
  (void)d.Render();
  if (!ok) return 0;
  CalibrationReport report = RunCalibration(*shipped->catalog, *shipped->estimator, rows);
  for (const CalibrationGroup& g : report.groups) {
    if (!Finite(g.decode) || !Finite(g.prefill)) std::abort();
  }
  // Every row's own numbers too: a width like `EXL2-infbpw` must not reach an estimate.
  for (const CalibrationRow& r : report.rows) {
    if (!std::isfinite(r.decode_pred) || !std::isfinite(r.prefill_pred) ||
        !std::isfinite(r.decode_ape) || !std::isfinite(r.prefill_ape)) {
      std::abort();
    }
  }
  return 0;
}
