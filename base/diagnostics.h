// Diagnostics: problems found in user content (catalog, rules, profiles, queries).
//
// Loaders never stop at the first problem: they add a Diagnostic to a Diagnostics sink and go
// on, so that every problem of every file is reported at once. A caller decides afterwards
// whether the content is usable (`HasErrors()`); content with errors is never used.
//
// Locations count lines and columns from 1 (yaml-cpp marks count from 0: add 1 when
// converting). Render() prints, for each diagnostic:
//
//   file:line:col: error: message [code]
//     <the source line>
//     <spaces>^
//   hint: did you mean `fit.headroom_pct`?
//
// Thread safety: a Diagnostics object is not thread-safe; use one per loading thread.
#ifndef FITRANK_BASE_DIAGNOSTICS_H_
#define FITRANK_BASE_DIAGNOSTICS_H_

#include <map>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace fitrank {

enum class Severity { kError, kWarning, kNote };

// A position in a named text. line/col are 1-based; 0 means "unknown" (whole file).
struct Location {
  std::string file;
  int line = 0;
  int col = 0;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string code;     // stable, kebab-case: "unknown-key", "duplicate-id", "type-mismatch"
  std::string message;  // what is wrong, one sentence, no trailing period
  Location where;
  std::string hint;     // optional: how to fix it, or "did you mean `x`?"
};

class Diagnostics {
 public:
  // Registers the text of `file` so Render() can print source lines and carets.
  void AddSource(std::string file, std::string content);

  void Add(Diagnostic d);
  void Error(std::string code, Location where, std::string message, std::string hint = "");
  void Warning(std::string code, Location where, std::string message, std::string hint = "");

  bool HasErrors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  int warning_count() const { return warnings_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  bool empty() const { return diags_.empty(); }

  // Appends every diagnostic of `other` (sources included).
  void Merge(const Diagnostics& other);

  // Human-readable form described in the file comment, diagnostics in insertion order.
  std::string Render() const;
  // One diagnostic, rendered the same way.
  std::string Render(const Diagnostic& d) const;

 private:
  std::vector<Diagnostic> diags_;
  std::map<std::string, std::string, std::less<>> sources_;
  int errors_ = 0;
  int warnings_ = 0;
};

absl::string_view SeverityName(Severity s);

}  // namespace fitrank

#endif  // FITRANK_BASE_DIAGNOSTICS_H_
