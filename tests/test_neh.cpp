#include "neh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "taillard.hpp"

namespace permbb {
namespace {

// The full (n+1) x (m+1) completion-time matrix, with a zero row and column, written
// independently of the code under test.
Time naive_makespan(const Instance& instance, const std::vector<int>& permutation) {
  const int n = static_cast<int>(permutation.size());
  const int m = instance.machines();
  std::vector<std::vector<Time>> c(n + 1, std::vector<Time>(m + 1, 0));
  for (int j = 1; j <= n; ++j) {
    for (int k = 1; k <= m; ++k) {
      c[j][k] = std::max(c[j - 1][k], c[j][k - 1]) + instance.time(k - 1, permutation[j - 1]);
    }
  }
  return c[n][m];
}

// Completion on machine `machine` of the last job of `prefix`, by the full recurrence.
Time naive_completion(const Instance& instance, const std::vector<int>& prefix, int machine) {
  std::vector<Time> done(instance.machines() + 1, 0);
  for (const int job : prefix) {
    for (int k = 0; k < instance.machines(); ++k) {
      done[k + 1] = std::max(done[k + 1], done[k]) + instance.time(k, job);
    }
  }
  return done[machine + 1];
}

// The longest path from the start of the first job of `jobs` on `machine` to the end of the
// schedule of `jobs` (0 when empty): the recurrence run backwards over jobs and machines.
Time naive_tail(const Instance& instance, const std::vector<int>& jobs, int machine) {
  const int m = instance.machines();
  std::vector<Time> rest(m + 1, 0);  // rest[k]: from machine k of the job after, to the end
  for (auto job = jobs.rbegin(); job != jobs.rend(); ++job) {
    for (int k = m - 1; k >= machine; --k) {
      rest[k] = std::max(rest[k], rest[k + 1]) + instance.time(k, *job);
    }
  }
  return rest[machine];
}

Instance random_instance(std::mt19937& rng, int jobs, int machines, Time max_time) {
  std::uniform_int_distribution<Time> time(1, max_time);
  std::vector<Time> times(static_cast<std::size_t>(jobs) * machines);
  for (Time& t : times) t = time(rng);
  return Instance("random", jobs, machines, std::move(times));
}

std::vector<int> random_permutation(std::mt19937& rng, int jobs) {
  std::vector<int> permutation(jobs);
  for (int j = 0; j < jobs; ++j) permutation[j] = j;
  std::shuffle(permutation.begin(), permutation.end(), rng);
  return permutation;
}

bool is_permutation_of_all_jobs(const std::vector<int>& permutation, int jobs) {
  std::vector<int> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> all(jobs);
  for (int j = 0; j < jobs; ++j) all[j] = j;
  return sorted == all;
}

// 3 jobs x 3 machines; rows are machines:
//   machine 0:  3 2 4
//   machine 1:  2 5 1
//   machine 2:  4 1 3
Instance hand_instance() {
  return Instance("hand", 3, 3, {3, 2, 4, 2, 5, 1, 4, 1, 3});
}

TEST(NehMakespan, HandComputedThreeByThree) {
  const Instance instance = hand_instance();
  // Order 0 1 2, completion times C[job][machine]:
  //   job 0: 3, 3+2=5, 5+4=9
  //   job 1: 3+2=5, max(5,5)+5=10, max(9,10)+1=11
  //   job 2: 5+4=9, max(10,9)+1=11, max(11,11)+3=14
  EXPECT_EQ(makespan(instance, {0, 1, 2}), 14);
  // Order 2 1 0:
  //   job 2: 4, 4+1=5, 5+3=8
  //   job 1: 4+2=6, max(5,6)+5=11, max(8,11)+1=12
  //   job 0: 6+3=9, max(11,9)+2=13, max(12,13)+4=17
  EXPECT_EQ(makespan(instance, {2, 1, 0}), 17);
  // One job alone: its total time 2+5+1; no job: 0.
  EXPECT_EQ(makespan(instance, {1}), 8);
  EXPECT_EQ(makespan(instance, {}), 0);
}

TEST(NehMakespan, EqualsNaiveMatrixOnRandomInstances) {
  std::mt19937 rng(20240601);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 30)(rng);
    const int m = std::uniform_int_distribution<int>(1, 10)(rng);
    const Instance instance = random_instance(rng, n, m, 99);
    std::vector<int> permutation = random_permutation(rng, n);
    ASSERT_EQ(makespan(instance, permutation), naive_makespan(instance, permutation));
    permutation.resize(std::uniform_int_distribution<int>(0, n)(rng));  // partial schedules
    ASSERT_EQ(makespan(instance, permutation), naive_makespan(instance, permutation));
  }
}

TEST(NehBestInsertion, EqualsBruteForceOnRandomPartialSchedules) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 25)(rng);
    const int m = std::uniform_int_distribution<int>(1, 10)(rng);
    // Small times in a third of the trials, so that equal makespans (ties) are common.
    const Instance instance = random_instance(rng, n, m, trial % 3 == 0 ? 3 : 99);
    std::vector<int> partial = random_permutation(rng, n);
    const int job = partial.back();
    partial.pop_back();
    partial.resize(std::uniform_int_distribution<int>(0, n - 1)(rng));

    int best_position = -1;
    Time best_makespan = 0;
    for (int position = 0; position <= static_cast<int>(partial.size()); ++position) {
      std::vector<int> candidate = partial;
      candidate.insert(candidate.begin() + position, job);
      const Time value = naive_makespan(instance, candidate);
      if (best_position < 0 || value < best_makespan) {
        best_position = position;
        best_makespan = value;
      }
    }

    InsertionWorkspace workspace;  // empty: best_insertion must grow it
    const Insertion found = best_insertion(instance, partial, job, workspace);
    ASSERT_EQ(found.makespan, best_makespan) << "trial " << trial;
    ASSERT_EQ(found.position, best_position) << "trial " << trial << " (leftmost on ties)";
    // Reusing the workspace, now dirty, gives the same answer.
    const Insertion again = best_insertion(instance, partial, job, workspace);
    ASSERT_EQ(again.position, found.position);
    ASSERT_EQ(again.makespan, found.makespan);
  }
}

// The tie rules choose among the positions of least makespan; kTightest the one whose sum over
// machines of (the job's completion) + (the tail of the jobs after it) is least, leftmost first.
TEST(BestInsertion, TieRulesPickAPositionOfLeastMakespan) {
  std::mt19937 rng(31);
  int ties_seen = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 10)(rng);
    const int m = std::uniform_int_distribution<int>(1, 5)(rng);
    const Instance instance = random_instance(rng, n, m, 3);  // small times: many ties
    std::vector<int> partial = random_permutation(rng, n);
    const int job = partial.back();
    partial.pop_back();

    std::vector<Time> spans;
    std::vector<std::int64_t> slack;
    for (int position = 0; position <= static_cast<int>(partial.size()); ++position) {
      std::vector<int> candidate = partial;
      candidate.insert(candidate.begin() + position, job);
      spans.push_back(naive_makespan(instance, candidate));
      const std::vector<int> after(candidate.begin() + position + 1, candidate.end());
      const std::vector<int> upto(candidate.begin(), candidate.begin() + position + 1);
      std::int64_t sum = 0;
      for (int j = 0; j < m; ++j) {
        sum += naive_completion(instance, upto, j) + naive_tail(instance, after, j);
      }
      slack.push_back(sum);
    }
    const Time least = *std::min_element(spans.begin(), spans.end());
    int tightest = -1;
    for (int i = 0; i < static_cast<int>(spans.size()); ++i) {
      if (spans[i] == least && (tightest < 0 || slack[i] < slack[tightest])) tightest = i;
    }
    if (std::count(spans.begin(), spans.end(), least) > 1) ++ties_seen;

    InsertionWorkspace workspace(instance);
    const Insertion tight = best_insertion(instance, partial, job, workspace, InsertionTies::kTightest);
    EXPECT_EQ(tight.makespan, least);
    EXPECT_EQ(tight.position, tightest) << "trial " << trial;
    const Insertion any = best_insertion(instance, partial, job, workspace, InsertionTies::kRandom);
    EXPECT_EQ(any.makespan, least);
    ASSERT_GE(any.position, 0);
    ASSERT_LT(any.position, static_cast<int>(spans.size()));
    EXPECT_EQ(spans[any.position], least);
  }
  EXPECT_GT(ties_seen, 50);
}

// Re-inserting a job of a sequence from the sequence's own heads and tails gives what erasing
// it and calling best_insertion gives, under every tie rule (the random one draws alike from
// workspaces in the same state).
TEST(BestReinsertion, EqualsBestInsertionIntoTheSequenceWithoutTheJob) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 600; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 14)(rng);
    const int m = std::uniform_int_distribution<int>(1, 6)(rng);
    const Instance instance = random_instance(rng, n, m, trial % 2 == 0 ? 4 : 99);
    const std::vector<int> sequence = random_permutation(rng, n);
    const int position = std::uniform_int_distribution<int>(0, n - 1)(rng);
    const auto ties = static_cast<InsertionTies>(trial % 3);
    std::vector<int> without = sequence;
    without.erase(without.begin() + position);

    InsertionWorkspace plain(instance);
    const Insertion expected = best_insertion(instance, without, sequence[position], plain, ties);
    InsertionWorkspace whole;
    fill_heads_and_tails(instance, sequence, whole);
    InsertionWorkspace scratch;
    const Insertion found = best_reinsertion(instance, sequence, position, whole, scratch, ties);
    ASSERT_EQ(found.position, expected.position) << "trial " << trial;
    ASSERT_EQ(found.makespan, expected.makespan) << "trial " << trial;
    std::vector<int> moved = without;
    moved.insert(moved.begin() + found.position, sequence[position]);
    ASSERT_EQ(found.makespan, naive_makespan(instance, moved)) << "trial " << trial;
  }
}

// The tables of a schedule made by inserting a job, from the tables of the schedule without it,
// are its heads and tails by the full recurrences.
TEST(HeadsAndTailsAfterInsertion, EqualTheRecurrencesOfTheNewSchedule) {
  std::mt19937 rng(33);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 14)(rng);
    const int m = std::uniform_int_distribution<int>(1, 6)(rng);
    const Instance instance = random_instance(rng, n, m, 99);
    const std::vector<int> sequence = random_permutation(rng, n);
    const int position = std::uniform_int_distribution<int>(0, n - 1)(rng);
    std::vector<int> without = sequence;
    without.erase(without.begin() + position);

    InsertionWorkspace before;
    fill_heads_and_tails(instance, without, before);
    InsertionWorkspace after;
    fill_heads_and_tails_after_insertion(instance, sequence, position, before, after);
    const auto stride = static_cast<std::size_t>(n + 1);
    for (int j = 0; j < m; ++j) {
      for (int i = 0; i <= n; ++i) {
        const std::vector<int> first(sequence.begin(), sequence.begin() + i);
        const std::vector<int> rest(sequence.begin() + i, sequence.end());
        ASSERT_EQ(after.heads[j * stride + i], naive_completion(instance, first, j))
            << "trial " << trial;
        ASSERT_EQ(after.tails[j * stride + i], naive_tail(instance, rest, j))
            << "trial " << trial;
      }
    }
  }
}

TEST(NehOrder, NonIncreasingTotalsTiesBySmallerIndex) {
  // Totals: job 0 = 3+2+4 = 9, job 1 = 2+5+1 = 8, job 2 = 4+1+3 = 8.
  EXPECT_EQ(neh_order(hand_instance()), (std::vector<int>{0, 1, 2}));
  // One machine, totals 5 7 5 9: 9 (job 3), 7 (job 1), then 5 5 by index (0, 2).
  EXPECT_EQ(neh_order(Instance("one", 4, 1, {5, 7, 5, 9})), (std::vector<int>{3, 1, 0, 2}));
}

TEST(Neh, HandComputedThreeByThree) {
  // Order 0 1 2 (NehOrder test). Insert 1 into [0]: [1 0] gives 13, [0 1] gives 11
  // (job 1's row above): [0 1]. Insert 2 into [0 1]:
  //   [2 0 1]: job 2: 4 5 8; job 0: 7 9 13; job 1: 9 14 15  -> 15
  //   [0 2 1]: job 0: 3 5 9; job 2: 7 8 12; job 1: 9 14 15  -> 15
  //   [0 1 2]: 14 (HandComputedThreeByThree above)          -> 14
  const Schedule schedule = neh(hand_instance());
  EXPECT_EQ(schedule.permutation, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(schedule.makespan, 14);
}

TEST(Neh, OneMachineTiesGoLeftmost) {
  // On one machine every position gives the same makespan (the sum, 17), so each job goes
  // first: order 1 (7), 0 (5), 2 (5) is inserted as [1], [0 1], [2 0 1].
  const Schedule schedule = neh(Instance("one", 3, 1, {5, 7, 5}));
  EXPECT_EQ(schedule.permutation, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(schedule.makespan, 17);
}

TEST(Neh, ValidPermutationAndMakespanOnRandomInstances) {
  std::mt19937 rng(1983);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 30)(rng);
    const int m = std::uniform_int_distribution<int>(1, 10)(rng);
    const Instance instance = random_instance(rng, n, m, 99);
    const Schedule schedule = neh(instance);
    ASSERT_TRUE(is_permutation_of_all_jobs(schedule.permutation, n)) << "trial " << trial;
    ASSERT_EQ(schedule.makespan, naive_makespan(instance, schedule.permutation))
        << "trial " << trial;
    // Never below the trivial lower bounds: any machine's load, any job's total time.
    for (int k = 0; k < m; ++k) {
      Time load = 0;
      for (int j = 0; j < n; ++j) load += instance.time(k, j);
      ASSERT_GE(schedule.makespan, load);
    }
    for (int j = 0; j < n; ++j) {
      Time total = 0;
      for (int k = 0; k < m; ++k) total += instance.time(k, j);
      ASSERT_GE(schedule.makespan, total);
    }
  }
}

TEST(Neh, InsertAllFollowsTheGivenOrder) {
  // insert_all on the reversed NEH order of the hand instance: 2, then 1, then 0.
  // Insert 1 into [2]: [1 2]: job 1: 2 7 8; job 2: 6 8 11 -> 11;
  //                    [2 1]: 12 (first two rows of order 2 1 0)  -> [1 2], 11.
  // Insert 0 into [1 2]: [0 1 2] 14, [1 0 2] and [1 2 0] are not better:
  //   [1 0 2]: job 1: 2 7 8; job 0: 5 9 13; job 2: 9 10 16  -> 16
  //   [1 2 0]: job 1: 2 7 8; job 2: 6 8 11; job 0: 9 11 15  -> 15
  const Schedule schedule = insert_all(hand_instance(), {2, 1, 0});
  EXPECT_EQ(schedule.permutation, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(schedule.makespan, 14);
  EXPECT_EQ(insert_all(hand_instance(), {}).makespan, 0);
}

// NEH is a few percent above the best-known makespans on Taillard's instances; it can
// never be below them (the best-known values of ta001..ta030 are optimal).
TEST(NehTaillard, WithinTenPercentOfBestKnownOnTa001ToTa030) {
  for (int index = 1; index <= 30; ++index) {
    const Instance instance = taillard::generate(index);
    const Schedule schedule = neh(instance);
    const Time best = taillard::best_known_makespan(index);
    ASSERT_TRUE(is_permutation_of_all_jobs(schedule.permutation, instance.jobs()));
    EXPECT_EQ(schedule.makespan, naive_makespan(instance, schedule.permutation)) << instance.name();
    EXPECT_GE(schedule.makespan, best) << instance.name();
    EXPECT_LE(schedule.makespan * 10, best * 11) << instance.name();
  }
}

TEST(NehTaillard, NeverBelowBestKnownOnAllInstances) {
  // The best-known makespans of the closed instances are optima, so no schedule is
  // shorter; the open instances' values are only upper bounds and are not checked.
  for (int index = 1; index <= taillard::kInstanceCount; ++index) {
    const Instance instance = taillard::generate(index);
    const Schedule schedule = neh(instance);
    ASSERT_TRUE(is_permutation_of_all_jobs(schedule.permutation, instance.jobs()));
    EXPECT_EQ(schedule.makespan, makespan(instance, schedule.permutation)) << instance.name();
    if (!taillard::is_open(index)) {
      EXPECT_GE(schedule.makespan, taillard::best_known_makespan(index)) << instance.name();
    }
  }
}

}  // namespace
}  // namespace permbb
