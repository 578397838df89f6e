#include "base/heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace fitrank {
namespace {

constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;  // x86-64's transparent huge page
// glibc's HEAP_MAX_SIZE on 64-bit (malloc/arena.c): a thread's arena is a heap reserved at most
// this big and aligned to it.
constexpr uintptr_t kArenaHeapBytes = uintptr_t{64} << 20;
// How far into a new arena's heap its first block lies at most: after the arena's header and
// the thread's cache of freed blocks (~3 kB together in glibc 2.36).
constexpr uintptr_t kFreshArenaBytes = uintptr_t{64} << 10;

uintptr_t Address(const void* p) { return reinterpret_cast<uintptr_t>(p); }
void* Pointer(uintptr_t a) { return reinterpret_cast<void*>(a); }

}  // namespace

void TuneHeap() {
  // A sweep ranks ~1 GB of short-lived candidates, GPU after GPU. glibc would hand large blocks
  // back to the kernel on free and fault them in again, page by page (~11 us a page on these
  // VMs, 6% of a sweep): a short-lived process keeps its freed memory instead.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // With the default 128 kB top pad, glibc grows the heap (brk) and a thread's arena (mprotect)
  // in 128 kB steps, one system call and VMA update each, ~10% of a `fitrank fit`. Growing in
  // 16 MB steps reserves address space only: pages still cost memory when first touched.
  mallopt(M_TOP_PAD, 16 << 20);
}

void UseHugePagesForThisThread() {
  // Once per process: start-up is what it is for, and a later thread (a server's reload) may
  // well be given an arena a finished thread left behind, in use.
  static std::atomic<bool> used{false};
  if (!kGlibcMalloc || used.exchange(true)) return;
  // A thread's first malloc makes its arena: a heap with the arena's header on its first page,
  // blocks after it in address order, the first within a few kB. An address under the break is
  // the main heap's (the thread shares the main arena); one further in is an arena a finished
  // thread left, in use: both are left as they are.
  void* volatile probe = malloc(1);
  const uintptr_t at = Address(probe);
  const uintptr_t heap = at & ~(kArenaHeapBytes - 1);
  if (at < Address(sbrk(0)) || at - heap > kFreshArenaBytes) {
    free(probe);
    return;
  }
  // The header's page is in, so the heap's first 2 MB would stay in 4 kB pages: a block
  // reaching the next 2 MB boundary, never freed, sends the thread's blocks past it, into memory
  // advised before it is touched. It costs address space only (malloc writes its header,
  // nothing more). `probe` (a 32-byte chunk) stays too, so the filler starts where it ends;
  // malloc(n) takes a chunk of n + 8 bytes rounded up to 16, its header included.
  const uintptr_t boundary = heap + kHugePageBytes;
  madvise(Pointer(boundary), kArenaHeapBytes - kHugePageBytes, MADV_HUGEPAGE);
  void* volatile filler = malloc(boundary - (at + 16) - 16);
  (void)filler;
}

}  // namespace fitrank
