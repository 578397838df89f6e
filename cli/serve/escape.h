// Escaping for the contexts the server writes user-influenced text into: HTML text, quoted
// attributes and SVG. Every string that reaches a page goes through Html(); URLs in links are
// built with UrlEncode (query.h) and then escaped as attributes. No page writes data into a
// script (the only script is the static app.js, which reads the DOM), and no style attribute
// or inline style is ever written (the CSP forbids both).
#ifndef FITRANK_CLI_SERVE_ESCAPE_H_
#define FITRANK_CLI_SERVE_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace fitrank::cli::serve {

// HTML text and double- or single-quoted attribute values (also SVG, which is XML):
// & < > " ' become character references.
std::string Html(absl::string_view s);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_ESCAPE_H_
