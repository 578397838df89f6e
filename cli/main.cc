// fitrank: which AI models run on this hardware, how fast, and what to buy next.
#include <malloc.h>
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // A sweep ranks ~1 GB of short-lived candidates, GPU after GPU. glibc would hand large
  // blocks back to the kernel on free and fault them in again, page by page (~11 us a page on
  // these VMs, 6% of a sweep): a short-lived process keeps its freed memory instead.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // Start-up allocates a few MB in many small blocks (the catalog unbaked on a second thread,
  // the compiled rules): with the default 128 kB top pad, glibc grows the heap (brk) and a
  // thread's arena (mprotect) in 128 kB steps, one system call and VMA update each, ~10% of a
  // `fitrank fit`. Growing in 16 MB steps reserves address space only: pages still cost
  // memory when first touched, not before.
  mallopt(M_TOP_PAD, 16 << 20);
  std::vector<std::string> args(argv, argv + argc);
  return fitrank::cli::RunCli(args, std::cout, std::cerr, isatty(STDOUT_FILENO) != 0,
                              isatty(STDERR_FILENO) != 0);
}
