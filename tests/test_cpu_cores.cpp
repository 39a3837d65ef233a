// How many cores a process takes (common/base/cpu_cores.hpp): a process a launcher bound to
// few cores takes those; an unbound one an even share of the node, less what it reserves;
// a cluster worker shares its node with the other workers, rank 0 keeping one core.
#include <gtest/gtest.h>

#include <sched.h>

#include <thread>

#include "cpu_cores.hpp"

namespace permbb {
namespace {

// Runs `f` on a thread bound to the first CPU of this process's mask: what a rank bound to
// one core sees (the affinity is a thread's own, so the test's other threads keep theirs).
template <class F>
void on_one_core(F f) {
  std::thread bound([&] {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
    int first = 0;
    while (!CPU_ISSET(first, &mask)) ++first;
    CPU_ZERO(&mask);
    CPU_SET(first, &mask);
    ASSERT_EQ(sched_setaffinity(0, sizeof mask, &mask), 0);
    f();
  });
  bound.join();
}

TEST(CpuCores, ABoundProcessTakesItsCoresWhateverItShares) {
  on_one_core([] {
    EXPECT_EQ(cores_available(), 1);
    EXPECT_EQ(cores_per_process(1), 1);
    EXPECT_EQ(cores_per_process(4, 1), 1);
    EXPECT_EQ(cores_per_worker(5, true), 1);
  });
}

TEST(CpuCores, SharesNeverFallBelowOneAndShrinkWithTheSharers) {
  const int all = cores_per_process(1);
  EXPECT_GE(all, 1);
  EXPECT_LE(all, cores_available());
  EXPECT_LE(cores_per_process(2), all);
  EXPECT_LE(cores_per_process(1, 1), all);
  EXPECT_EQ(cores_per_process(1000000), 1);
  EXPECT_EQ(cores_per_process(1, 1000000), 1);
  EXPECT_EQ(cores_per_process(0), all);  // no sharers counts as one
}

// Rank 0 is no worker: five ranks with it are four workers and a reserved core; without it,
// every rank of the node is a worker. Alone with rank 0, a worker takes the rest.
TEST(CpuCores, AWorkersShareLeavesRankZeroOneCore) {
  EXPECT_EQ(cores_per_worker(5, true), cores_per_process(4, 1));
  EXPECT_EQ(cores_per_worker(4, false), cores_per_process(4, 0));
  EXPECT_EQ(cores_per_worker(2, true), cores_per_process(1, 1));
  EXPECT_EQ(cores_per_worker(1, true), cores_per_process(1, 1));
}

}  // namespace
}  // namespace permbb
