// Issue 11's format promises, per command: markdown holds every block of the text report,
// text tables fit the terminal (COLUMNS), stray arguments and unknown values are refused with
// exit 2 and a hint.
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "cli/render_text.h"
#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

// Sets COLUMNS for one test and restores the environment after it.
class ScopedColumns {
 public:
  explicit ScopedColumns(const char* value) {
    if (const char* old = std::getenv("COLUMNS")) old_ = old;
    if (value != nullptr) {
      setenv("COLUMNS", value, 1);
    } else {
      unsetenv("COLUMNS");
    }
  }
  ~ScopedColumns() {
    if (old_.empty()) {
      unsetenv("COLUMNS");
    } else {
      setenv("COLUMNS", old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};

const std::vector<std::vector<std::string>>& ReportCommands() {
  static const std::vector<std::vector<std::string>> kCommands = {
      {"recommend", "--gpu", "4090", "--workload", "all", "--top", "3"},
      {"recommend", "--gpu", "mi325x", "--mode", "scale-out", "--workload", "coding"},
      {"gpu", "4090"},
      {"gpu", "4090", "--gpu", "3090"},
      {"gpu", "mi325x"},
      {"fit", "llama 3.1 405b", "--gpu", "MI325X"},
      {"fit", "llama-3.3-70b-instruct", "--gpu", "4090"},
      {"upgrade", "--gpu", "4060", "--workload", "coding"},
      {"compare", "4090", "3090", "5090"},
      {"compare", "instinct-mi325x", "nvidia-h200-sxm-141gb", "4090", "apple-m4-max-40-core-gpu-64gb"},
  };
  return kCommands;
}

std::vector<std::string> With(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The text report's block titles: its first line's title and every unindented line after a
// blank line (section headings), plus the lines that open a list of facts or commands.
std::vector<std::string> TextBlocks(const std::string& text) {
  std::vector<std::string> blocks;
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (!lines.empty()) blocks.push_back(lines[0].substr(0, lines[0].find("  ")));
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i - 1].empty() && !lines[i].empty() && lines[i][0] != ' ') {
      std::string title = lines[i].substr(0, lines[i].find("  "));
      if (title.rfind("note:", 0) != 0) blocks.push_back(title);
    }
  }
  return blocks;
}

TEST(MarkdownParity, EveryTextBlockIsAHeadingInMarkdown) {
  ScopedColumns no_limit(nullptr);
  for (const auto& args : ReportCommands()) {
    SCOPED_TRACE(::testing::PrintToString(args));
    CliRun text = Fitrank(args);
    CliRun md = Fitrank(With(args, {"--format", "markdown"}));
    ASSERT_EQ(text.code, 0) << text.err;
    ASSERT_EQ(md.code, 0) << md.err;
    std::vector<std::string> blocks = TextBlocks(text.out);
    ASSERT_GE(blocks.size(), 2u) << text.out;
    EXPECT_EQ(md.out.rfind("# " + blocks[0] + "\n", 0), 0u) << md.out.substr(0, 200);
    for (size_t i = 1; i < blocks.size(); ++i) {
      // A section is a heading; a closing note is an italic paragraph.
      EXPECT_TRUE(md.out.find("## " + blocks[i] + "\n") != std::string::npos ||
                  md.out.find("### " + blocks[i] + "\n") != std::string::npos ||
                  md.out.find("\n_" + blocks[i]) != std::string::npos)
          << "markdown lacks the block `" << blocks[i] << "`";
    }
    EXPECT_EQ(md.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(md.out.find("─"), std::string::npos) << "a text table rule in markdown";
  }
}

TEST(MarkdownParity, ReasonsAdviceAndRunCommandsReachMarkdown) {
  nlohmann::json fit = FitrankJson({"fit", "llama-3.3-70b-instruct", "--gpu", "4090"});
  CliRun md = Fitrank({"fit", "llama-3.3-70b-instruct", "--gpu", "4090", "--format", "markdown"});
  ASSERT_EQ(md.code, 0) << md.err;
  ASSERT_FALSE(fit["advice"].empty());
  for (const auto& a : fit["advice"]) {
    EXPECT_NE(md.out.find(a["title"].get<std::string>()), std::string::npos) << a.dump();
  }
  ASSERT_FALSE(fit["run_commands"].empty());
  for (const auto& c : fit["run_commands"]) {
    EXPECT_NE(md.out.find(c["command"].get<std::string>() + "\n"), std::string::npos)
        << c["command"];
  }
  EXPECT_NE(md.out.find("```sh\n"), std::string::npos);
  EXPECT_NE(md.out.find("## Why\n"), std::string::npos);

  nlohmann::json rec = FitrankJson({"recommend", "--gpu", "4090", "--top", "2"});
  CliRun rmd = Fitrank({"recommend", "--gpu", "4090", "--top", "2", "--format", "markdown"});
  ASSERT_EQ(rmd.code, 0) << rmd.err;
  ASSERT_FALSE(rec["picks"].empty());
  for (const auto& p : rec["picks"]) {
    EXPECT_NE(rmd.out.find(p["run_command"].get<std::string>()), std::string::npos);
    const std::string first_reason = p["reasons"][0];
    EXPECT_NE(rmd.out.find(first_reason.substr(0, 30)), std::string::npos) << first_reason;
  }
}

TEST(TerminalWidth, TextFitsEightyColumns) {
  ScopedColumns eighty("80");
  for (const auto& args : ReportCommands()) {
    SCOPED_TRACE(::testing::PrintToString(args));
    CliRun r = Fitrank(args);
    ASSERT_EQ(r.code, 0) << r.err;
    int n = 0;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      ++n;
      EXPECT_LE(DisplayWidth(line), 80u) << "line " << n << ": " << line;
    }
  }
}

TEST(TerminalWidth, WideTablesStayWideWithoutALimit) {
  // Output to a file or a pipe without COLUMNS is not cut: the compare table keeps a row per
  // attribute, each GPU in its column.
  ScopedColumns unset(nullptr);
  CliRun r = Fitrank({"compare", "instinct-mi325x", "nvidia-h200-sxm-141gb", "4090"});
  ASSERT_EQ(r.code, 0) << r.err;
  size_t widest = 0;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    widest = std::max(widest, DisplayWidth(line));
  }
  EXPECT_GT(widest, 100u);
  ScopedColumns narrow("80");
  CliRun n = Fitrank({"compare", "instinct-mi325x", "nvidia-h200-sxm-141gb", "4090"});
  EXPECT_NE(n.out.find("Memory"), std::string::npos);
}

TEST(TextTable, WrapsThenStacksColumnsToFit) {
  TextTable t({"Name", "Detail"});
  t.Add({"a", "one two three four five six seven eight"});
  std::ostringstream wrapped;
  t.Print(wrapped, "", 24);
  EXPECT_EQ(wrapped.str(),
            "Name  Detail\n"
            "────  ──────────────────\n"
            "a     one two three four\n"
            "      five six seven\n"
            "      eight\n");
  TextTable wide({"A", "B", "C", "D", "E"});
  wide.Add({"row", "alpha-beta-gamma", "delta-epsilon-zeta", "eta-theta-iota", "kappa"});
  std::ostringstream stacked;
  wide.Print(stacked, "", 40);
  EXPECT_EQ(stacked.str(),
            "row\n"
            "  B: alpha-beta-gamma\n"
            "  C: delta-epsilon-zeta\n"
            "  D: eta-theta-iota\n"
            "  E: kappa\n");
}

struct BadInput {
  std::vector<std::string> args;
  std::string message;  // part of the error line
};

TEST(BadInput, StrayArgumentsAndUnknownValuesExitTwoWithAHint) {
  const std::vector<BadInput> cases = {
      {{"recommend", "--gpu", "4090", "stray"}, "unexpected argument `stray`"},
      {{"recommend", "--gpu", "4090", "--workload", "codign"}, "codign"},
      {{"recommend", "--gpu", "4090", "--mode", "fastest"}, "fastest"},
      {{"recommend", "--gpu", "4090", "--format", "xml"}, "unknown format `xml`"},
      {{"recommend", "--gpu", "4090", "--json", "--format", "csv"},
       "`--json` and `--format csv` ask for two formats"},
      {{"--json", "gpu", "4090", "--format", "jsonl"},
       "`--json` and `--format jsonl` ask for two formats"},
      {{"rules", "lint", "--format", "csv"}, "`fitrank rules` has no csv output"},
      {{"detect", "--format", "markdown"}, "`fitrank detect` has no markdown output"},
      {{"calibrate", "--measurements", "x.tsv", "--format", "jsonl"},
       "`fitrank calibrate` has no jsonl output"},
      {{"gpu", "4090", "nosuchgpu"}, "nosuchgpu"},
      {{"gpu", "4090", "--mode", "fastest"}, "fastest"},
      {{"fit", "qwen3 8b", "extra", "--gpu", "4090"}, "one model at a time"},
      {{"fit", "qwen3 8b", "--gpu", "4090", "--quant", "Q9_K"}, "Q9_K"},
      {{"fit", "qwen3 8b", "--gpu", "4090", "--workload", "poetry"}, "poetry"},
      {{"upgrade", "--gpu", "4090", "stray"}, "stray"},
      {{"compare", "4090", "3090", "stray"}, "stray"},
      {{"estimate", "--model", "qwen3 8b", "--gpu", "4090", "stray"}, "unexpected argument `stray`"},
      {{"estimate", "--model", "qwen3 8b", "--gpu", "4090", "--kv-cache", "q3"}, "q3"},
      {{"estimate", "--model", "qwen3 8b", "--gpu", "4090", "--runtime", "nosuch"}, "nosuch"},
      {{"calibrate", "stray", "--measurements", "x.tsv"}, "unexpected argument `stray`"},
      {{"catalog", "gpus", "stray"}, "unexpected argument `stray`"},
      {{"catalog", "gpuz"}, "unknown catalog subcommand `gpuz`"},
      {{"sweep", "stray"}, "unexpected argument `stray`"},
      {{"detect", "stray"}, "unexpected argument `stray`"},
      {{"serve", "stray"}, "unexpected argument `stray`"},
      {{"mcp", "stray"}, "unexpected argument `stray`"},
      {{"rules", "lintt"}, "lintt"},
      {{"rules", "explain", "--gpu", "4090", "--model", "qwen3 8b", "stray"}, "stray"},
  };
  for (const BadInput& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.args));
    CliRun r = Fitrank(c.args);
    EXPECT_EQ(r.code, 2) << r.out.substr(0, 300);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("hint: "), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace fitrank::cli
