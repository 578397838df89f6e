// Where an expression or sentence text came from in its YAML file, so that an error at byte
// N of the text is reported at the right file:line:col.
//
// YAML changes text on the way in: quotes are removed, `\"` and `''` unescaped, folded lines
// joined with a space, block scalars lose their indentation. TextOrigin keeps the file content
// and the scalar's start mark and walks the raw text alongside the value to map an offset
// back. Plain scalars start at their first character, quoted ones at the opening quote,
// block scalars (`|`, `>`) at the indicator (their text begins on the next line).
#ifndef FITRANK_RULES_TEXT_ORIGIN_H_
#define FITRANK_RULES_TEXT_ORIGIN_H_

#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "base/diagnostics.h"
#include "base/yaml_tree.h"

namespace fitrank::rules {

class TextOrigin {
 public:
  TextOrigin() = default;
  // `node` is the scalar holding the text; `content` the whole file it was parsed from.
  TextOrigin(std::shared_ptr<const std::string> content, std::string file, YamlNode node);

  // The location of byte `offset` of `value` (the scalar's text as YAML delivered it).
  // Offsets at or past the end map to just after the last character.
  Location At(absl::string_view value, int offset) const;
  // The location of the scalar itself.
  Location Start() const;
  const std::string& file() const { return file_; }

 private:
  std::shared_ptr<const std::string> content_;
  std::string file_;
  int pos_ = -1;  // byte offset of the scalar's mark in content_; -1 if unknown
  int line_ = 0;  // 1-based
  int col_ = 0;   // 1-based
};

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_TEXT_ORIGIN_H_
