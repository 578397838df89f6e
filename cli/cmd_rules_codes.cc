// fitrank rules lint --explain CODE|all: what a diagnostic code means (base/diagnostic_codes.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/diagnostic_codes.h"
#include "base/text.h"
#include "cli/cmd_rules.h"
#include "cli/render_text.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {

int RunLintExplain(Context& ctx) {
  const std::string code = ctx.args.GetOr("explain", "");
  std::vector<const DiagnosticCode*> shown;
  if (code == "all") {
    for (const DiagnosticCode& d : DiagnosticCodes()) shown.push_back(&d);
  } else if (const DiagnosticCode* d = FindDiagnosticCode(code)) {
    shown.push_back(d);
  } else {
    std::vector<std::string> codes;
    for (const DiagnosticCode& d : DiagnosticCodes()) codes.emplace_back(d.code);
    std::string hint = DidYouMean(ClosestMatches(code, codes));
    throw UsageError(absl::StrCat("unknown diagnostic code `", code, "`"),
                     hint.empty() ? "`fitrank rules lint --explain all` lists every code" : hint);
  }
  if (ctx.format == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["schema_version"] = 1;
    j["codes"] = nlohmann::ordered_json::array();
    for (const DiagnosticCode* d : shown) {
      j["codes"].push_back({{"code", d->code}, {"where", d->where}, {"brief", d->brief},
                            {"more", d->more}});
    }
    *ctx.out << j.dump(2) << "\n";
    return 0;
  }
  if (shown.size() > 1) {
    // The list: one line per code.
    size_t width = 0;
    for (const DiagnosticCode* d : shown) width = std::max(width, d->code.size());
    for (const DiagnosticCode* d : shown) {
      *ctx.out << d->code << std::string(width - d->code.size() + 2, ' ') << d->brief << "\n";
    }
    *ctx.out << "\n`fitrank rules lint --explain CODE` explains one.\n";
    return 0;
  }
  const DiagnosticCode& d = *shown[0];
  *ctx.out << d.code << ": " << d.brief << "\n  reported in: " << d.where << "\n";
  if (!d.more.empty()) *ctx.out << "\n" << Wrap(absl::string_view(d.more.data(), d.more.size()), 96, "  ") << "\n";
  return 0;
}

}  // namespace fitrank::cli
