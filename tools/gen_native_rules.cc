// Build step: compiles the shipped scoring rules as a run does (LoadScoringRules over the
// embedded data) and writes their phases as C++ (rules/native.h):
//
//   fitrank_gen_native_rules OUT.cc
//
// Rules that do not compile give a file with no phases, so the build goes on and fitrank
// reports the error with its position at run time, as for any other rule file.
#include <fstream>
#include <iostream>

#include "base/diagnostics.h"
#include "base/file_source.h"
#include "engine/scoring/evaluate.h"
#include "profiles/profiles.h"
#include "rules/native.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUT.cc\n";
    return 2;
  }
  fitrank::EmbeddedSource data;
  fitrank::Diagnostics diags;
  std::shared_ptr<const fitrank::rules::CompiledRules> book;
  std::unique_ptr<fitrank::Profiles> profiles = fitrank::Profiles::Load(data, &diags);
  if (profiles != nullptr) {
    auto rules = fitrank::LoadScoringRules(data, nullptr, *profiles, /*warnings=*/false, &diags);
    if (rules.ok()) book = rules->rules;
  }
  if (book == nullptr) {
    std::cerr << "fitrank_gen_native_rules: the shipped rules do not compile; every phase will "
                 "be interpreted\n";
  }
  const std::string source = fitrank::rules::EmitNativePhases(book.get());
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << source;
  return out ? 0 : 1;
}
