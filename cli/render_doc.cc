#include "cli/render_doc.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace fitrank::cli {

namespace {

// Markdown text: colour codes dropped. Nothing is escaped: intraword underscores (Q4_K_M) are
// not emphasis in CommonMark, and `backticks` in reasons are meant as code.
std::string MdInline(absl::string_view s) { return StripAnsi(s); }

}  // namespace

Doc::Doc(OutputFormat format, const Style& style, std::ostream& out)
    : md_(format == OutputFormat::kMarkdown), style_(style), out_(out) {
  if (md_) style_.color = false;
}

void Doc::BeginBlock() {
  if (md_ && started_) out_ << "\n";
  started_ = true;
}

void Doc::Title(absl::string_view title, absl::string_view subtitle) {
  if (md_) {
    BeginBlock();
    out_ << "# " << MdInline(title) << "\n";
    if (!subtitle.empty()) out_ << "\n_" << MdInline(subtitle) << "_\n";
    return;
  }
  if (style_.width > 0 && DisplayWidth(title) > style_.width) {
    // A title wider than the terminal: wrapped, each line bold.
    std::string wrapped = Wrap(title, style_.width, "");
    wrapped.pop_back();
    size_t nl;
    while ((nl = wrapped.find('\n')) != std::string::npos) {
      out_ << style_.Heading(wrapped.substr(0, nl)) << "\n";
      wrapped.erase(0, nl + 1);
    }
    out_ << style_.Heading(wrapped);
    if (!subtitle.empty()) out_ << "\n" << style_.Paint(subtitle, Color::kDim);
    out_ << "\n";
    return;
  }
  out_ << style_.Heading(title);
  if (!subtitle.empty()) {
    // On the title's line when it fits, else on its own line below.
    const bool fits = style_.width == 0 ||
                      DisplayWidth(title) + 2 + DisplayWidth(subtitle) <= style_.width;
    out_ << (fits ? "  " : "\n") << style_.Paint(subtitle, Color::kDim);
  }
  out_ << "\n";
}

void Doc::Section(absl::string_view title, absl::string_view note) {
  if (md_) {
    BeginBlock();
    out_ << "## " << MdInline(title) << "\n";
    if (!note.empty()) out_ << "\n_" << MdInline(note) << "_\n";
    return;
  }
  out_ << "\n" << style_.Heading(title);
  if (!note.empty()) {
    const bool fits =
        style_.width == 0 || DisplayWidth(title) + 2 + DisplayWidth(note) <= style_.width;
    out_ << (fits ? "  " : "\n  ") << style_.Paint(note, Color::kDim);
  }
  out_ << "\n";
}

void Doc::Subsection(absl::string_view title, absl::string_view note) {
  if (!md_) return Section(title, note);
  BeginBlock();
  out_ << "### " << MdInline(title) << "\n";
  if (!note.empty()) out_ << "\n_" << MdInline(note) << "_\n";
}

void Doc::Paragraph(absl::string_view text, absl::string_view indent) {
  if (text.empty()) return;
  if (md_) {
    BeginBlock();
    out_ << MdInline(text) << "\n";
    return;
  }
  out_ << Wrap(text, style_.WrapWidth(), indent);
}

void Doc::Labeled(absl::string_view label, absl::string_view text) {
  if (md_) return Paragraph(absl::StrCat(label, text));
  out_ << Wrap(text, style_.WrapWidth(), label);
}

void Doc::Note(absl::string_view text, absl::string_view indent) {
  if (text.empty()) return;
  if (md_) {
    BeginBlock();
    out_ << "_" << MdInline(text) << "_\n";
    return;
  }
  std::string wrapped = Wrap(text, style_.WrapWidth(), indent);
  if (!style_.color) {
    out_ << wrapped;
    return;
  }
  size_t start = 0;
  while (start < wrapped.size()) {
    size_t nl = wrapped.find('\n', start);
    out_ << style_.Paint(absl::string_view(wrapped).substr(start, nl - start), Color::kDim)
         << "\n";
    start = nl + 1;
  }
}

void Doc::Bullets(const std::vector<std::string>& items, absl::string_view marker) {
  if (items.empty()) return;
  if (md_) {
    BeginBlock();
    for (const std::string& i : items) out_ << "- " << MdInline(i) << "\n";
    return;
  }
  for (const std::string& i : items) out_ << Wrap(i, style_.WrapWidth(), marker);
}

void Doc::Numbered(const std::vector<std::string>& items, absl::string_view indent) {
  if (items.empty()) return;
  if (md_) BeginBlock();
  int n = 1;
  for (const std::string& i : items) {
    if (md_) {
      out_ << n++ << ". " << MdInline(i) << "\n";
    } else {
      out_ << Wrap(i, style_.WrapWidth(), absl::StrCat(indent, n++, ". "));
    }
  }
}

void Doc::Table(const TextTable& table, absl::string_view indent) {
  if (md_) {
    BeginBlock();
    table.PrintMarkdown(out_);
    return;
  }
  table.Print(out_, indent, style_.width);
}

void Doc::Facts(const std::vector<std::pair<std::string, std::string>>& facts,
                absl::string_view indent) {
  if (facts.empty()) return;
  if (md_) {
    BeginBlock();
    for (const auto& [label, value] : facts) {
      // Sub-facts ("  usable") nest under the fact above.
      const bool nested = !label.empty() && label[0] == ' ';
      std::string name(label);
      name.erase(0, name.find_first_not_of(' '));
      out_ << (nested ? "  - " : "- ") << "**" << MdInline(name) << ":** " << MdInline(value)
           << "\n";
    }
    return;
  }
  TextTable t({"", ""});
  for (const auto& [label, value] : facts) t.Add({label, value});
  t.PrintBody(out_, indent, style_.width);
}

void Doc::Commands(const std::vector<std::string>& steps, absl::string_view command,
                   absl::string_view indent) {
  if (md_) {
    BeginBlock();
    out_ << "```sh\n";
    for (const std::string& s : steps) out_ << StripAnsi(s) << "\n";
    if (!command.empty()) out_ << StripAnsi(command) << "\n";
    out_ << "```\n";
    return;
  }
  const size_t indent_w = DisplayWidth(indent);
  auto print = [&](absl::string_view line, Color c) {
    const bool comment = !line.empty() && line[0] == '#';
    std::string text = absl::StrCat(comment ? "" : "$ ", line);
    if (style_.width == 0 || indent_w + DisplayWidth(text) <= style_.width) {
      out_ << indent << style_.Paint(text, c) << "\n";
      return;
    }
    if (comment) {
      // Every line of a wrapped comment stays a comment.
      absl::string_view body = absl::StripLeadingAsciiWhitespace(line.substr(1));
      const size_t room = style_.width > indent_w + 2 ? style_.width - indent_w - 2 : 20;
      for (absl::string_view l : absl::StrSplit(Wrap(body, room, ""), '\n', absl::SkipEmpty())) {
        out_ << indent << style_.Paint(absl::StrCat("# ", l), c) << "\n";
      }
      return;
    }
    for (const std::string& part : BreakCommand(text, style_.width, indent_w)) {
      out_ << indent << style_.Paint(part, c) << "\n";
    }
  };
  for (const std::string& s : steps) print(s, Color::kDim);
  if (!command.empty()) print(command, Color::kCyan);
}

void Doc::Line(absl::string_view text) {
  if (md_) {
    BeginBlock();
    out_ << MdInline(text) << "\n";
    return;
  }
  out_ << text << "\n";
}

std::vector<std::string> BreakCommand(absl::string_view command, size_t width,
                                      size_t indent_width) {
  // Words, keeping quoted runs whole.
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  for (char c : command) {
    if (quote != 0) {
      word += c;
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
      word += c;
    } else if (c == ' ') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  // Lines break before a flag ("--x" or "-x") once the line would pass the width; the
  // continuation lines are indented 4 columns more.
  std::vector<std::string> lines;
  std::string line;
  const size_t room = width > indent_width ? width - indent_width : 1;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool flag = w.size() > 1 && w[0] == '-';
    // Keep a flag with its value when it fits: "--tensor-parallel-size 2".
    size_t need = DisplayWidth(w);
    if (flag && i + 1 < words.size() && words[i + 1][0] != '-') {
      need += 1 + DisplayWidth(words[i + 1]);
    }
    if (!line.empty() && flag && DisplayWidth(line) + 1 + need + 2 > room) {
      lines.push_back(absl::StrCat(line, " \\"));
      line = "    ";
    } else if (!line.empty() && line != "    ") {
      line += ' ';
    }
    line += w;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace fitrank::cli
