// A helper thread put in the background (common/base/background_priority.hpp) runs under
// SCHED_IDLE, or at nice 19 where that policy is refused; the thread that asked nothing keeps
// its own policy.
#include "background_priority.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace permbb {
namespace {

TEST(BackgroundPriority, AHelperThreadYieldsToEveryNormalThread) {
  const int policy_before = ::sched_getscheduler(0);
  bool granted = false;
  int policy = -1;
  int nice = 0;
  std::thread helper([&] {
    granted = run_this_thread_in_background();
    policy = ::sched_getscheduler(0);
    nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  });
  helper.join();
  if (granted) {
    EXPECT_EQ(policy, SCHED_IDLE);
  } else {
    EXPECT_EQ(nice, kBackgroundNice);
  }
  EXPECT_EQ(::sched_getscheduler(0), policy_before);
}

}  // namespace
}  // namespace permbb
