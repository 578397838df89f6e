// A report written once as blocks — title, sections, paragraphs, lists, tables, facts, command
// lines — and printed either for the terminal (colour, aligned tables, wrapped to the width)
// or as markdown (headings, pipe tables, lists, fenced shell blocks). Each report renderer
// writes its text form through a Doc, so the markdown form holds the same blocks (issue 11).
//
// Text layout: sections are a blank line and a bold title; paragraphs and lists are indented
// two columns and wrapped at Style::WrapWidth(); tables fit Style::width (TextTable::Print).
// Markdown: "#" for the title, "##" for sections, "###" for subsections, one blank line
// between blocks, no colour codes.
#ifndef FITRANK_CLI_RENDER_DOC_H_
#define FITRANK_CLI_RENDER_DOC_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "cli/command.h"
#include "cli/render_text.h"

namespace fitrank::cli {

class Doc {
 public:
  // `format` is kMarkdown for markdown; any other value prints for the terminal.
  Doc(OutputFormat format, const Style& style, std::ostream& out);

  bool markdown() const { return md_; }
  const Style& style() const { return style_; }

  // Text: the bold title, two spaces, the dim subtitle. Markdown: "# title" and the subtitle
  // in italics below.
  void Title(absl::string_view title, absl::string_view subtitle = "");
  // Text: a blank line, the bold title and, after two spaces, the dim note. Markdown: "## ".
  void Section(absl::string_view title, absl::string_view note = "");
  // Text: like Section (a blank line and a bold title). Markdown: "### ".
  void Subsection(absl::string_view title, absl::string_view note = "");
  // Prose wrapped after `indent` (text); a paragraph (markdown).
  void Paragraph(absl::string_view text, absl::string_view indent = "  ");
  // Prose after a label ("note: "): text wraps under the label's end; markdown "label text".
  void Labeled(absl::string_view label, absl::string_view text);
  // Dim prose (a footnote): text as Paragraph in dim; markdown in italics.
  void Note(absl::string_view text, absl::string_view indent = "");
  // Text: each item wrapped after `marker` ("  - "); markdown: "- item".
  void Bullets(const std::vector<std::string>& items, absl::string_view marker = "  - ");
  // Text: "  1. item"; markdown: "1. item".
  void Numbered(const std::vector<std::string>& items, absl::string_view indent = "  ");
  // Text: aligned, fitted to the width; markdown: a pipe table.
  void Table(const TextTable& table, absl::string_view indent = "  ");
  // Label/value pairs. Text: two aligned columns, no header; markdown: "- **label:** value".
  void Facts(const std::vector<std::pair<std::string, std::string>>& facts,
             absl::string_view indent = "  ");
  // Shell steps and the command. Text: "$ step" dim, "$ command" cyan (a line longer than the
  // width breaks before its flags with " \"); comment steps ("# ...") print as they are.
  // Markdown: one ```sh block.
  void Commands(const std::vector<std::string>& steps, absl::string_view command,
                absl::string_view indent = "     ");
  // A line printed as it is (text), or as a paragraph (markdown).
  void Line(absl::string_view text);

 private:
  // Markdown: a blank line between blocks.
  void BeginBlock();

  bool md_;
  Style style_;
  std::ostream& out_;
  bool started_ = false;
};

// `command` broken before its flags into lines of at most `width` columns (after `indent`),
// each but the last ending in " \" (a shell line continuation). Quoted text is never split.
std::vector<std::string> BreakCommand(absl::string_view command, size_t width,
                                      size_t indent_width);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RENDER_DOC_H_
