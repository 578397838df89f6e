// A thread that starts on another processor than the thread that starts it.
//
// Linux puts a new thread on its parent's processor, and on these 2-core VMs it waits there
// behind its parent, the other core idle, for longer than a start-up helper lives: the engine's
// catalog load (~0.7 ms) or a ranking's second thread ran after their parent's work instead of
// beside it (7 of 8 starts, measured with a 0.7 ms helper beside 1.4 ms of work: 2.2 ms instead
// of 1.5). A Thread is created with its affinity set to the processors the process may use but
// the calling thread's current one, so that it starts on another at once; its first act is to
// take back the process's whole set, leaving its later placement to the scheduler. Where the
// process may use one processor only, it is an ordinary thread.
//
// Thread safety: a Thread object belongs to the thread that made it (Join from there).
#ifndef FITRANK_BASE_THREAD_H_
#define FITRANK_BASE_THREAD_H_

#include <pthread.h>

#include <functional>
#include <memory>

namespace fitrank {

class Thread {
 public:
  // Starts `body` (which must not throw, as for std::thread). Throws std::system_error if no
  // thread can be made.
  explicit Thread(std::function<void()> body);
  Thread(Thread&& other) noexcept;
  Thread& operator=(Thread&& other) = delete;
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;
  // Joins the thread if Join() was not called.
  ~Thread();

  // Waits for `body` to return. Once only.
  void Join();

 private:
  struct Start;
  pthread_t id_{};
  bool joinable_ = false;
};

}  // namespace fitrank

#endif  // FITRANK_BASE_THREAD_H_
