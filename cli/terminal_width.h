// How wide the user's terminal is, for text reports that fit it (issue 11).
#ifndef FITRANK_CLI_TERMINAL_WIDTH_H_
#define FITRANK_CLI_TERMINAL_WIDTH_H_

#include <cstddef>

namespace fitrank::cli {

// The narrowest width honoured: below it tables could not show a word per column.
inline constexpr size_t kMinTerminalColumns = 40;

// Columns to fit text output in: $COLUMNS when it is a whole number (at least
// kMinTerminalColumns; smaller values count as that), else the terminal's width when
// `out_is_tty` (TIOCGWINSZ on stdout), else 0: no limit, as for a file or a pipe.
size_t TerminalColumns(bool out_is_tty);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_TERMINAL_WIDTH_H_
