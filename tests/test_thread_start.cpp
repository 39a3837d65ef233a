// start_threads: a pool whose k-th thread the system refuses ends cleanly, with an error that
// says which thread failed, instead of terminating the program.
#include "thread_start.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace permbb {
namespace {

// A thread body whose copy into the k-th std::thread throws, as the system refusing a thread
// would. Threads that did start wait until told to stop.
struct RefusedAt {
  int refuse_copy;                // 1-based: which copy fails
  std::atomic<int>* copies;
  std::atomic<int>* ended;
  const std::atomic<bool>* stop;

  RefusedAt(int refuse, std::atomic<int>* c, std::atomic<int>* e, const std::atomic<bool>* s)
      : refuse_copy(refuse), copies(c), ended(e), stop(s) {}
  RefusedAt(const RefusedAt& other)
      : refuse_copy(other.refuse_copy), copies(other.copies), ended(other.ended),
        stop(other.stop) {
    if (++*copies == refuse_copy) {
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    }
  }
  RefusedAt(RefusedAt&&) noexcept = default;

  void operator()(int) const {
    while (!stop->load()) std::this_thread::yield();
    ++*ended;
  }
};

TEST(StartThreads, StartsEveryThreadWithItsIndex) {
  std::vector<std::thread> threads;
  std::vector<int> seen(5, 0);
  start_threads(
      threads, 5, "test", [&seen](int i) { seen[i] += 1; }, [] {});
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(seen, std::vector<int>(5, 1));
}

TEST(StartThreads, ARefusedThreadStopsAndJoinsTheStartedOnesAndSaysWhichFailed) {
  std::atomic<int> copies{0};
  std::atomic<int> ended{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  bool stop_called = false;
  try {
    start_threads(threads, 5, "explorer", RefusedAt(3, &copies, &ended, &stop), [&] {
      stop_called = true;
      stop.store(true);
    });
    FAIL() << "no error although the third thread was refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot start explorer thread 3 of 5"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(stop_called);
  EXPECT_TRUE(threads.empty());
  EXPECT_EQ(ended.load(), 2);  // the two started threads ran to their end and were joined
}

}  // namespace
}  // namespace permbb
