// fitrank: which AI models run on this hardware, how fast, and what to buy next.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "base/heap.h"
#include "cli/command.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  fitrank::TuneHeap();
  std::vector<std::string> args(argv, argv + argc);
  return fitrank::cli::RunCli(args, std::cout, std::cerr, isatty(STDOUT_FILENO) != 0,
                              isatty(STDERR_FILENO) != 0);
}
