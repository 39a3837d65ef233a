// The hybridization's solution pool: the best distinct schedules, never more than its
// capacity, start solutions in turn; safe under concurrent inserts and takes (label threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "solution_pool.hpp"

namespace permbb {
namespace {

std::vector<int> shuffled(std::mt19937& rng, int n) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

TEST(SolutionPool, KeepsTheBestDistinctSchedules) {
  SolutionPool pool(3);
  EXPECT_FALSE(pool.take().has_value());
  EXPECT_FALSE(pool.best().has_value());
  EXPECT_TRUE(pool.insert({0, 1, 2}, 50));
  EXPECT_FALSE(pool.insert({0, 1, 2}, 50));  // already there
  EXPECT_TRUE(pool.insert({1, 0, 2}, 40));
  EXPECT_TRUE(pool.insert({2, 1, 0}, 60));
  EXPECT_EQ(pool.size(), 3);
  EXPECT_FALSE(pool.insert({2, 0, 1}, 60));  // full, not better than the worst
  EXPECT_TRUE(pool.insert({2, 0, 1}, 45));   // replaces the 60
  EXPECT_FALSE(pool.insert({}, 1));          // no schedule
  const auto kept = pool.contents();
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0].makespan, 40);
  EXPECT_EQ(kept[1].makespan, 45);
  EXPECT_EQ(kept[2].makespan, 50);
  EXPECT_EQ(pool.best()->permutation, (std::vector<int>{1, 0, 2}));
  EXPECT_THROW(SolutionPool(0), std::invalid_argument);
}

TEST(SolutionPool, TakeGoesRoundTheKeptSchedules) {
  SolutionPool pool(4);
  pool.insert({0, 1}, 10);
  pool.insert({1, 0}, 12);
  std::multiset<Time> taken;
  for (int i = 0; i < 4; ++i) taken.insert(pool.take()->makespan);
  EXPECT_EQ(taken, (std::multiset<Time>{10, 10, 12, 12}));
  EXPECT_EQ(pool.size(), 2);  // taking leaves them in the pool
}

TEST(SolutionPool, ConcurrentInsertsAndTakesKeepTheInvariants) {
  constexpr int kCapacity = 6;
  constexpr int kThreads = 4;
  constexpr int kJobs = 12;
  SolutionPool pool(kCapacity);
  std::atomic<Time> lowest{1 << 30};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      for (int i = 0; i < 2000; ++i) {
        const Time value = 1000 + static_cast<Time>(rng() % 5000);
        Time seen = lowest.load();
        while (value < seen && !lowest.compare_exchange_weak(seen, value)) {
        }
        pool.insert(shuffled(rng, kJobs), value);
        if (const auto s = pool.take()) {
          EXPECT_EQ(static_cast<int>(s->permutation.size()), kJobs);
        }
        EXPECT_LE(pool.size(), kCapacity);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const auto kept = pool.contents();
  EXPECT_EQ(static_cast<int>(kept.size()), kCapacity);
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end(), [](const Schedule& a, const Schedule& b) {
    return a.makespan < b.makespan;
  }));
  EXPECT_EQ(kept.front().makespan, lowest.load());
}

}  // namespace
}  // namespace permbb
