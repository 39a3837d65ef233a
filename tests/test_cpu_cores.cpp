// How many cores a process takes (common/base/cpu_cores.hpp): its affinity mask, which a
// launcher may have narrowed, and, for a cluster worker, its share of that mask among the
// node's ranks whose masks overlap it, rank 0 keeping one core where it shares them. The
// node layouts below are those Open MPI makes: unbound, bound to a core each, bound to a
// socket each, round-robin.
#include <gtest/gtest.h>

#include <sched.h>

#include <thread>
#include <vector>

#include "cpu_cores.hpp"

namespace permbb {
namespace {

// CPUs [first, first + count).
CpuMask cpus(int first, int count) {
  CpuMask mask;
  for (int c = first; c < first + count; ++c) mask.set(static_cast<std::size_t>(c));
  return mask;
}

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
    f(first);
  });
  bound.join();
}

TEST(CpuCores, TheMaskIsTheCallingThreadsAffinity) {
  EXPECT_GE(cores_available(), 1);
  EXPECT_EQ(static_cast<int>(affinity_mask().count()), cores_available());
  on_one_core([](int cpu) {
    EXPECT_EQ(cores_available(), 1);
    EXPECT_EQ(affinity_mask(), cpus(cpu, 1));
  });
}

// Five ranks on 64 unbound CPUs: four workers share 63, rank 0 keeping one.
TEST(CpuCores, UnboundWorkersShareTheNodeLessRankZerosCore) {
  const std::vector<CpuMask> node(5, cpus(0, 64));
  for (int self = 1; self < 5; ++self) EXPECT_EQ(worker_cores(node, self, 0), 15);
  // Without rank 0 on the node, four workers share all 64.
  const std::vector<CpuMask> other_node(4, cpus(0, 64));
  EXPECT_EQ(worker_cores(other_node, 2, -1), 16);
  // A worker alone beside rank 0 takes the rest.
  EXPECT_EQ(worker_cores({cpus(0, 32), cpus(0, 32)}, 1, 0), 31);
}

TEST(CpuCores, AWorkerBoundToItsOwnCoresTakesThem) {
  std::vector<CpuMask> node;
  for (int r = 0; r < 5; ++r) node.push_back(cpus(2 * r, 2));
  for (int self = 1; self < 5; ++self) EXPECT_EQ(worker_cores(node, self, 0), 2);
  // Rank 0 bound to a core of worker 1's mask leaves it one.
  node[0] = cpus(2, 1);
  EXPECT_EQ(worker_cores(node, 1, 0), 1);
  EXPECT_EQ(worker_cores(node, 2, 0), 2);
}

// Bound to a socket, round-robin over two sockets of 32: ranks 0, 2, 4 on the first (rank 0
// and two workers), ranks 1, 3 on the second.
TEST(CpuCores, WorkersBoundToASocketShareIt) {
  const CpuMask first = cpus(0, 32);
  const CpuMask second = cpus(32, 32);
  const std::vector<CpuMask> node{first, second, first, second, first};
  EXPECT_EQ(worker_cores(node, 2, 0), 15);
  EXPECT_EQ(worker_cores(node, 4, 0), 15);
  EXPECT_EQ(worker_cores(node, 1, 0), 16);
  EXPECT_EQ(worker_cores(node, 3, 0), 16);
}

TEST(CpuCores, AShareIsAtLeastOneCore) {
  const std::vector<CpuMask> crowded(9, cpus(0, 4));
  EXPECT_EQ(worker_cores(crowded, 5, 0), 1);
  EXPECT_EQ(worker_cores({CpuMask()}, 0, -1), 1);
  EXPECT_EQ(worker_cores({cpus(0, 8)}, 3, -1), 1);  // a rank outside the node's list
}

}  // namespace
}  // namespace permbb
