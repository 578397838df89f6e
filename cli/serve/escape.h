// Escaping for every context the server writes user-influenced text into. Every string that
// reaches a page goes through one of these; the page code never concatenates raw text.
#ifndef FITRANK_CLI_SERVE_ESCAPE_H_
#define FITRANK_CLI_SERVE_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace fitrank::cli::serve {

// HTML text and double- or single-quoted attribute values (also SVG, which is XML):
// & < > " ' become character references.
std::string Html(absl::string_view s);

// A JSON document made safe inside <script type="application/json">: '<', '>', '&' and
// U+2028/U+2029 become \u escapes, so "</script>" or "<!--" can never appear.
std::string ScriptJson(absl::string_view json);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_ESCAPE_H_
