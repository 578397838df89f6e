#include "engine/estimator/basis.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/estimator/internal/context.h"
#include "nlohmann/json.hpp"

namespace fitrank {

namespace internal {

void Tracer::Const(K id, double value, const ConstantCase* matched, const Constant& c) {
  const ConstantSpec& spec = SpecOf(id);
  const std::string matched_label = matched != nullptr ? matched->label : "default";
  for (const BasisConstant& bc : b_->constants) {
    if (bc.name == spec.name && bc.matched == matched_label) return;
  }
  BasisConstant bc;
  bc.name = spec.name;
  bc.value = value;
  bc.unit = spec.unit;
  bc.matched = matched_label;
  bc.source = matched != nullptr ? matched->source : c.source;
  b_->constants.push_back(std::move(bc));
}

void Tracer::Formula(std::string quantity, std::string formula, std::string detail) {
  b_->formulas.push_back({std::move(quantity), std::move(formula), std::move(detail)});
}

}  // namespace internal

std::vector<std::string> Basis::Lines() const {
  std::vector<std::string> out;
  for (const BasisFormula& f : formulas) {
    out.push_back(absl::StrCat(f.quantity, ": ", f.formula));
    out.push_back(absl::StrCat("    ", f.detail));
  }
  for (const BasisConstant& c : constants) {
    out.push_back(absl::StrFormat("constant %s = %g %s [%s] (%s)", c.name, c.value, c.unit,
                                  c.matched, c.source));
  }
  for (const std::string& d : defaults) out.push_back(absl::StrCat("default ", d));
  for (const std::string& n : notes) out.push_back(absl::StrCat("note ", n));
  for (const std::string& p : problems) out.push_back(absl::StrCat("problem ", p));
  if (!range.empty()) out.push_back(absl::StrCat("range ", range));
  return out;
}

void BasisToJson(const Basis& b, nlohmann::json* out) {
  nlohmann::json j = nlohmann::json::object();
  j["formulas"] = nlohmann::json::array();
  for (const BasisFormula& f : b.formulas) {
    j["formulas"].push_back({{"quantity", f.quantity}, {"formula", f.formula}, {"detail", f.detail}});
  }
  j["constants"] = nlohmann::json::array();
  for (const BasisConstant& c : b.constants) {
    j["constants"].push_back({{"name", c.name}, {"value", c.value}, {"unit", c.unit},
                              {"matched", c.matched}, {"source", c.source}});
  }
  j["defaults"] = b.defaults;
  j["notes"] = b.notes;
  j["problems"] = b.problems;
  j["range"] = b.range;
  *out = std::move(j);
}

}  // namespace fitrank
