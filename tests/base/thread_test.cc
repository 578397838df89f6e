#include "base/thread.h"

#include <sched.h>

#include <atomic>
#include <vector>

#include "gtest/gtest.h"

namespace fitrank {
namespace {

TEST(ThreadTest, RunsItsBodyAndJoins) {
  std::atomic<int> ran{0};
  Thread t([&] { ran = 7; });
  t.Join();
  EXPECT_EQ(ran.load(), 7);
  t.Join();  // a second Join does nothing
}

TEST(ThreadTest, TheDestructorJoinsAndMovedThreadsRunOnce) {
  std::atomic<int> ran{0};
  {
    std::vector<Thread> pool;
    for (int i = 0; i < 4; ++i) pool.emplace_back([&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 4);
}

// The new thread starts away from its starter's processor, then takes back the starter's
// whole set: its body may run anywhere the starter may.
TEST(ThreadTest, TheBodyMayRunWhereverItsStarterMay) {
  cpu_set_t starter;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof starter, &starter), 0);
  cpu_set_t body_set;
  CPU_ZERO(&body_set);
  Thread t([&] { pthread_getaffinity_np(pthread_self(), sizeof body_set, &body_set); });
  t.Join();
  EXPECT_TRUE(CPU_EQUAL(&starter, &body_set));
}

}  // namespace
}  // namespace fitrank
