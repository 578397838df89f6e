// Every diagnostic code fitrank reports, with a short and a long description, in one table
// (as falco's falco_load_result.h keeps its load error codes). `fitrank rules lint --explain
// CODE` prints an entry; a test checks that every code the sources report is listed here.
//
// Codes are stable, kebab-case identifiers: scripts and editors may match on them. A new code
// gets a row here in the same change that reports it.
#ifndef FITRANK_BASE_DIAGNOSTIC_CODES_H_
#define FITRANK_BASE_DIAGNOSTIC_CODES_H_

#include <string_view>
#include <vector>

namespace fitrank {

struct DiagnosticCode {
  std::string_view code;   // "unknown-fact"
  std::string_view where;  // which files report it: "rules", "catalog", "any YAML file", ...
  std::string_view brief;  // one line: what is wrong
  std::string_view more;   // what it means, why it matters and how to fix it
};

// All codes, sorted by code.
const std::vector<DiagnosticCode>& DiagnosticCodes();

// The entry of `code`, or nullptr.
const DiagnosticCode* FindDiagnosticCode(std::string_view code);

}  // namespace fitrank

#endif  // FITRANK_BASE_DIAGNOSTIC_CODES_H_
