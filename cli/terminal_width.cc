#include "cli/terminal_width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "base/numbers.h"

namespace fitrank::cli {

size_t TerminalColumns(bool out_is_tty) {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    int64_t n = 0;
    if (ParseDecimalInt(columns, &n) == NumberParse::kOk && n > 0) {
      // A huge value means "no limit" in practice; keep it within size_t sanity.
      return static_cast<size_t>(std::clamp<int64_t>(n, kMinTerminalColumns, 100000));
    }
  }
  if (!out_is_tty) return 0;
  struct winsize ws {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    return std::max<size_t>(ws.ws_col, kMinTerminalColumns);
  }
  return 0;
}

}  // namespace fitrank::cli
