#include "rules/text_origin.h"

#include <algorithm>

namespace fitrank::rules {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int Utf8Bytes(unsigned long cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

// A YAML double-quoted escape at raw[p] == '\\': its raw length and the bytes it produces.
void Escape(absl::string_view raw, size_t p, size_t* raw_len, int* value_len) {
  char e = p + 1 < raw.size() ? raw[p + 1] : '\0';
  int hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
  if (hex > 0) {
    unsigned long cp = 0;
    for (int k = 0; k < hex && p + 2 + k < raw.size(); ++k) {
      char h = raw[p + 2 + k];
      int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                             : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 0;
      cp = cp * 16 + d;
    }
    *raw_len = 2 + hex;
    *value_len = Utf8Bytes(cp);
    return;
  }
  *raw_len = 2;
  *value_len = e == 'N' || e == '_' ? 2 : e == 'L' || e == 'P' ? 3 : 1;
}

}  // namespace

TextOrigin::TextOrigin(std::shared_ptr<const std::string> content, std::string file,
                       YamlNode node)
    : content_(std::move(content)), file_(std::move(file)) {
  if (!node.IsDefined()) return;
  line_ = node.line();
  col_ = node.col();
  if (content_ && node.pos() >= 0 && static_cast<size_t>(node.pos()) < content_->size()) {
    pos_ = node.pos();
  }
}

Location TextOrigin::Start() const { return Location{file_, line_, col_}; }

Location TextOrigin::At(absl::string_view value, int offset) const {
  if (pos_ < 0) return Start();
  const absl::string_view raw(*content_);
  size_t p = static_cast<size_t>(pos_);
  const char style = raw[p];
  const bool dq = style == '"', sq = style == '\'';
  if (dq || sq) {
    ++p;
  } else if (style == '|' || style == '>') {
    while (p < raw.size() && raw[p] != '\n') ++p;
    if (p < raw.size()) ++p;
  }
  const size_t target = std::min(static_cast<size_t>(std::max(offset, 0)), value.size());
  size_t v = 0;
  while (v < target && p < raw.size()) {
    const char ch = raw[p];
    if (dq && ch == '\\') {
      if (p + 1 < raw.size() && (raw[p + 1] == '\n' || raw[p + 1] == '\r')) {
        p += 2;  // line continuation: produces nothing
        continue;
      }
      size_t raw_len = 2;
      int value_len = 1;
      Escape(raw, p, &raw_len, &value_len);
      p += raw_len;
      v += value_len;
      continue;
    }
    if (sq && ch == '\'' && p + 1 < raw.size() && raw[p + 1] == '\'') {
      p += 2;
      ++v;
      continue;
    }
    if ((dq || sq) && ch == style) break;  // the closing quote
    if (ch == value[v]) {
      ++p;
      ++v;
      continue;
    }
    if (IsSpace(ch)) {  // indentation or a folded line break
      ++p;
      continue;
    }
    ++v;  // a value byte with no raw counterpart
  }
  if (target < value.size() && !IsSpace(value[target])) {
    while (p < raw.size() && IsSpace(raw[p])) ++p;
  }
  p = std::min(p, raw.size());
  // Line and column of p, counted from the mark.
  int line = line_;
  size_t line_start = std::string::npos;
  for (size_t k = static_cast<size_t>(pos_); k < p; ++k) {
    if (raw[k] == '\n') {
      ++line;
      line_start = k + 1;
    }
  }
  int col = line_start == std::string::npos ? col_ + static_cast<int>(p - pos_)
                                            : static_cast<int>(p - line_start) + 1;
  return Location{file_, line, col};
}

}  // namespace fitrank::rules
