// The basis of an estimate: which formulas produced each number, with their inputs; which
// calibration constants were used (value, source, the case that selected it); which inputs were
// defaults; and why the range is as wide as it is. Filled by Estimator::Explain; rendered by
// `fitrank estimate` (table lines, or the `basis` object of --json).
#ifndef FITRANK_ENGINE_ESTIMATOR_BASIS_H_
#define FITRANK_ENGINE_ESTIMATOR_BASIS_H_

#include <string>
#include <vector>

#include "nlohmann/json_fwd.hpp"

namespace fitrank {

struct BasisFormula {
  std::string quantity;  // "decode_tok_s"
  std::string formula;   // "1000 / (weights_read/(bw*eff) + layers*layer_us + token_ms)"
  std::string detail;    // the numbers: "4.66 GB / (1008 GB/s x 0.86) + 32 x 57 us + 0.35 ms"
};

struct BasisConstant {
  std::string name;      // "decode.bw_efficiency"
  double value = 0;
  std::string unit;
  std::string matched;   // "memory=gddr, quant=gguf-k" or "default"
  std::string source;
};

struct Basis {
  std::vector<BasisFormula> formulas;
  std::vector<BasisConstant> constants;  // each constant once, in first-use order
  std::vector<std::string> defaults;     // "context: 8192 (default; model max 131072)"
  std::vector<std::string> notes;        // assumptions, e.g. "vocab unknown: no separate head"
  std::vector<std::string> problems;     // DescribeProblems()
  std::string range;                     // why the range is what it is

  // Readable lines (formulas, constants, defaults, notes, range), for the table form.
  std::vector<std::string> Lines() const;
};

// {"formulas":[{quantity,formula,detail}], "constants":[...], "defaults":[...], "notes":[...],
//  "problems":[...], "range": "..."}
void BasisToJson(const Basis& b, nlohmann::json* out);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ESTIMATOR_BASIS_H_
