#include "base/heap.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace fitrank {
namespace {

// The kernel's transparent huge page mode ("always", "madvise" or "never"), "" if it has none.
std::string ThpMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const size_t open = line.find('['), close = line.find(']');
  return open == std::string::npos || close == std::string::npos
             ? ""
             : line.substr(open + 1, close - open - 1);
}

// Whether the mapping holding `p` may take huge pages ("THPeligible: 1" in /proc/self/smaps);
// -1 if no mapping holds it.
int HugePageEligible(const void* p) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash >> hi && dash == '-') {  // "lo-hi perms offset ..."
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      return std::stoi(line.substr(12));
    }
  }
  return -1;
}

class HeapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kGlibcMalloc) GTEST_SKIP() << "a sanitizer's malloc serves this build";
    // Under "always" every mapping may take them, advised or not: nothing to tell apart.
    if (ThpMode() != "madvise") GTEST_SKIP() << "huge pages are not by advice on this kernel";
  }
};

// The only call of UseHugePagesForThisThread in this binary: the first in a process acts.
TEST_F(HeapTest, AThreadsArenaTakesHugePages) {
  TuneHeap();  // its 16 MB top pad makes a new arena big enough for a 2 MB page
  int eligible = -2;
  std::thread([&] {
    UseHugePagesForThisThread();
    void* volatile block = malloc(64 << 10);
    eligible = HugePageEligible(block);
    free(block);
  }).join();
  EXPECT_EQ(eligible, 1);
}

}  // namespace
}  // namespace fitrank
