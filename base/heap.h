// The heap of a short-lived process: how fitrank asks glibc's malloc and the kernel to serve it.
//
// The engine's catalog thread builds ~1.7 MB of small blocks at every start, touching each new
// 4 kB page of its arena once: ~420 page faults at ~1.2 us each on these VMs (the catalog loads
// in ~1.3 ms so, in ~0.8 ms without them), on one of the load's two threads. With transparent
// huge pages (Debian's default mode is "madvise": only for memory that asks) that is one 2 MB
// fault. glibc asks by itself under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a process
// cannot set for itself once started.
// On these VMs a fresh 2 MB page now and then takes ~10 ms to fault in (the host backing it, it
// seems): for the catalog's arena the gain outweighs that over many runs (`fit` median 3.1-3.5
// ms against 4.1-4.4, mean no worse); for the main heap, which its thread touches less, there
// was no gain, only that tail, so it is not advised (docs/SPEED.md, round 18).
//
// The advice changes nothing where the kernel has no huge pages, or another malloc serves the
// process (a sanitizer's); nothing depends on it.
//
// Thread safety: TuneHeap before any other thread starts; UseHugePagesForThisThread on the
// thread it is for.
#ifndef FITRANK_BASE_HEAP_H_
#define FITRANK_BASE_HEAP_H_

namespace fitrank {

// Whether glibc's malloc serves this process: a sanitizer brings its own, laid out otherwise,
// and the advice below then does nothing.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kGlibcMalloc = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
inline constexpr bool kGlibcMalloc = false;
#else
inline constexpr bool kGlibcMalloc = true;
#endif
#else
inline constexpr bool kGlibcMalloc = true;
#endif

// First thing in main. Large blocks stay in the heap and freed memory is kept (a sweep frees
// ~1 GB of short-lived candidates, which glibc would otherwise return to the kernel and fault
// in again); the heap and new arenas grow in 16 MB steps (not 128 kB: one system call each).
void TuneHeap();

// First thing on a thread that allocates a lot at start-up, after TuneHeap (whose top pad makes
// a new arena big enough for a 2 MB page): its malloc arena (glibc gives each new thread its
// own) in 2 MB pages. Only the first call in a process does anything.
void UseHugePagesForThisThread();

}  // namespace fitrank

#endif  // FITRANK_BASE_HEAP_H_
