#include "base/thread.h"

#include <sched.h>

#include <system_error>
#include <utility>

namespace fitrank {

struct Thread::Start {
  std::function<void()> body;
  cpu_set_t whole;         // the processors the starting thread may use
  bool narrowed = false;   // the new thread starts on `whole` but the starter's processor

  static void* Run(void* arg) {
    std::unique_ptr<Start> start(static_cast<Start*>(arg));
    if (start->narrowed) pthread_setaffinity_np(pthread_self(), sizeof start->whole, &start->whole);
    start->body();
    return nullptr;
  }
};

Thread::Thread(std::function<void()> body) {
  auto start = std::make_unique<Start>();
  start->body = std::move(body);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_getaffinity_np(pthread_self(), sizeof start->whole, &start->whole) == 0) {
    cpu_set_t others = start->whole;
    const int here = sched_getcpu();
    if (here >= 0 && here < CPU_SETSIZE && CPU_ISSET(here, &others) && CPU_COUNT(&others) > 1) {
      CPU_CLR(here, &others);
      start->narrowed = pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0;
    }
  }
  int err = pthread_create(&id_, &attr, &Start::Run, start.get());
  pthread_attr_destroy(&attr);
  if (err != 0 && start->narrowed) {  // the placement is a wish, never a reason to fail
    start->narrowed = false;
    err = pthread_create(&id_, nullptr, &Start::Run, start.get());
  }
  if (err != 0) throw std::system_error(err, std::generic_category(), "cannot start a thread");
  start.release();  // Run owns it now
  joinable_ = true;
}

Thread::Thread(Thread&& other) noexcept
    : id_(other.id_), joinable_(std::exchange(other.joinable_, false)) {}

Thread::~Thread() { Join(); }

void Thread::Join() {
  if (!joinable_) return;
  pthread_join(id_, nullptr);
  joinable_ = false;
}

}  // namespace fitrank
