// The heap of a short-lived process: how fitrank asks glibc's malloc and the kernel to serve it.
//
// A command's start-up (the engine load: ~2 MB of small blocks on the catalog's thread, ~1 MB
// on the main one) touches each new 4 kB heap page once: ~700 page faults at ~1.5 us each on
// these VMs, ~14% of a `fitrank fit`'s CPU. With transparent huge pages (Debian's default mode
// is "madvise": only for memory that asks) that is a few 2 MB faults. glibc asks by itself under
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a process cannot set for itself once started.
//
// Both functions only advise: where the kernel has no huge pages, or another malloc serves the
// process (a sanitizer's), they change nothing, and nothing depends on them.
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
// in again); the heap grows in 16 MB steps (not 128 kB: one system call each); and the heap's
// memory from here on sits in 2 MB pages.
void TuneHeap();

// First thing on a thread that allocates a lot at start-up, after TuneHeap (whose top pad makes
// a new arena big enough for a 2 MB page): its malloc arena (glibc gives each new thread its
// own) in 2 MB pages. Only the first call in a process does anything.
void UseHugePagesForThisThread();

}  // namespace fitrank

#endif  // FITRANK_BASE_HEAP_H_
