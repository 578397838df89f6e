// What reaches a terminal: control characters escaped, long input clipped, and no fuzzy
// matching on over-long names.
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/diagnostics.h"
#include "base/text.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(EscapeControl, EscapesWhatATerminalWouldActOn) {
  EXPECT_EQ(EscapeControl("\x1b[31mred\x1b]0;title\x07"), "\\x1b[31mred\\x1b]0;title\\x07");
  EXPECT_EQ(EscapeControl("a\nb\rc\x7f"), "a\\nb\\rc\\x7f");
  EXPECT_EQ(EscapeControl("csi \xc2\x9b" "2J"), "csi \\u009b2J");  // UTF-8 C1 control
  EXPECT_EQ(EscapeControl("tab\tkept, caf\xc3\xa9 kept"), "tab\tkept, caf\xc3\xa9 kept");
  EXPECT_EQ(EscapeControl(std::string("nul\0x", 5)), "nul\\x00x");
}

TEST(Clip, CutsLongInputAndSaysHowMuch) {
  EXPECT_EQ(Clip("short"), "short");
  EXPECT_EQ(Clip(std::string(100, 'x'), 10), "xxxxxxxxxx… (+90 bytes)");
  // Never inside a UTF-8 sequence: "é" is two bytes.
  EXPECT_EQ(Clip("ab\xc3\xa9z", 3), "ab… (+3 bytes)");
}

TEST(ClosestMatches, AnOverLongQueryGetsNoSuggestion) {
  const std::vector<std::string> names = {"recommend", "gpu"};
  EXPECT_EQ(ClosestMatches("recomend", names), std::vector<std::string>{"recommend"});
  EXPECT_TRUE(ClosestMatches(std::string(kMaxNameLength + 1, 'g'), names).empty());
}

TEST(DiagnosticsRender, EscapesControlCharactersFromTheFile) {
  Diagnostics d;
  d.AddSource("r.yaml", "id: \"\x1b[2Jx\"\n");
  // Column 10 is the x: the caret stands under it, past the escape's four columns.
  d.Error("unknown-key", Location{"r.yaml", 1, 10}, "rule `\x1b[2Jx` is odd", "rename `\x1b[2Jx`");
  EXPECT_EQ(d.Render(),
            "r.yaml:1:10: error: rule `\\x1b[2Jx` is odd [unknown-key]\n"
            "  id: \"\\x1b[2Jx\"\n"
            "              ^\n"
            "  hint: rename `\\x1b[2Jx`\n");
}

TEST(DiagnosticsRender, ShowsAWindowOfAVeryLongLine) {
  Diagnostics d;
  std::string line(5000, 'a');
  line[3000] = 'X';
  d.AddSource("big.yaml", line);
  d.Error("yaml-syntax", Location{"big.yaml", 1, 3001}, "bad");
  const std::string out = d.Render();
  EXPECT_LT(out.size(), 2200u);
  std::vector<std::string> lines = absl::StrSplit(out, '\n');
  ASSERT_GE(lines.size(), 3u);
  const std::string& shown = lines[1];
  const std::string& caret = lines[2];
  EXPECT_EQ(shown.substr(0, 2 + std::string("…").size()), "  …");
  // "…" is three bytes but one column: the caret line has one space for it.
  EXPECT_EQ(caret.find('^'), shown.find('X') - 2) << shown.substr(0, 40);
}

}  // namespace
}  // namespace fitrank
