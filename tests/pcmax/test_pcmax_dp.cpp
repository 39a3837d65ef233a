// The configuration DP: configurations and table shape against brute force, the table
// against a memoized recursion (pcmax_test_support.hpp), and every fill path (sequential,
// OpenMP, blocks, the ring of a partitioned device table) against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include "cpu_dp.hpp"
#include "dp_problem.hpp"
#include "dp_step.hpp"
#include "level_buckets.hpp"
#include "partition_plan.hpp"
#include "pcmax_test_support.hpp"

namespace permbb::pcmax {
namespace {

using testing::for_each_vector;
using testing::random_space;
using testing::RandomSpace;
using testing::ReferenceDp;

std::vector<ClassCount> classes_of(const RandomSpace& space) {
  std::vector<ClassCount> classes;
  for (std::size_t c = 0; c < space.units.size(); ++c) {
    classes.push_back(ClassCount{space.units[c], space.counts[c]});
  }
  return classes;
}

// The table index of a vector given per class, from the shape's dimension order and extents
// (strides recomputed here as products of the later extents).
std::uint64_t index_of(const TableShape& shape, const std::vector<std::uint32_t>& per_class) {
  std::uint64_t index = 0;
  for (int d = 0; d < shape.dims(); ++d) {
    index = index * shape.extents()[d] + per_class[shape.class_of_dim()[d]];
  }
  return index;
}

std::vector<std::uint32_t> entries_of(const DpTable& table) {
  std::vector<std::uint32_t> out;
  for (std::uint64_t i = 0; i < table.size(); ++i) out.push_back(table.at(i));
  return out;
}

TEST(TableShape, StridesSizeAndOverflow) {
  const TableShape shape({{3, 2}, {5, 4}, {7, 1}}, 10);
  EXPECT_EQ(shape.size(), 3u * 5u * 2u);
  EXPECT_EQ(shape.strides().back(), 1u);
  for (int d = 0; d + 1 < shape.dims(); ++d) {
    EXPECT_EQ(shape.strides()[d], shape.strides()[d + 1] * shape.extents()[d + 1]);
  }
  std::vector<int> classes = shape.class_of_dim();
  std::sort(classes.begin(), classes.end());
  EXPECT_EQ(classes, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(TableShape::table_entries(std::vector<ClassCount>(20, ClassCount{1, 0xffff})),
            TableShape::kUnbounded);
  EXPECT_EQ(TableShape::table_entries({{1, 9}, {1, 99}}), 1000u);
}

TEST(ConfigSet, EqualsEveryFittingVectorByBruteForce) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const RandomSpace space = random_space(rng, 1 + trial % 5, 6, 4);
    const TableShape shape(classes_of(space), space.capacity);
    const ConfigSet configs(shape, 1 << 20);
    std::set<std::vector<std::uint32_t>> want;
    for_each_vector(space.counts, [&](const std::vector<std::uint32_t>& v) {
      std::uint64_t load = 0;
      for (std::size_t c = 0; c < v.size(); ++c) load += std::uint64_t{v[c]} * space.units[c];
      if (load > 0 && load <= space.capacity) want.insert(v);
    });
    std::set<std::vector<std::uint32_t>> got;
    std::uint64_t previous_load = ~std::uint64_t{0};
    for (int c = 0; c < configs.count(); ++c) {
      const auto digits = configs.digits(c, shape.dims());
      std::vector<std::uint32_t> per_class(space.units.size());
      std::uint64_t load = 0;
      for (int d = 0; d < shape.dims(); ++d) {
        per_class[shape.class_of_dim()[d]] = digits[d];
        load += std::uint64_t{digits[d]} * shape.units()[d];
      }
      EXPECT_LE(load, previous_load) << "configurations by decreasing load";
      previous_load = load;
      EXPECT_EQ(configs.offset(c), index_of(shape, per_class));
      got.insert(per_class);
    }
    EXPECT_EQ(got, want) << "trial " << trial;
    EXPECT_EQ(ConfigSet::count_configurations(shape, 1 << 20), want.size());
    if (!want.empty()) {
      EXPECT_EQ(ConfigSet::count_configurations(shape, 0), 1u);
    }
  }
}

TEST(DpStep, HandComputedSmallTable) {
  // Units 3 and 2, two jobs each, capacity 5: {3,2} fits, {3,3} and {2,2,2} do not fit...
  // {2,2} does. OPT(2,2) = 2 ({3,2} twice), OPT(2,0) = 2, OPT(0,2) = 1, OPT(1,2) = 2.
  const DpProblem problem({{3, 2}, {2, 2}}, 5, 10, 1 << 20);
  DpTable table(problem.shape.size(), problem.entry_bytes());
  fill_table_sequential(problem, table);
  auto value = [&](std::uint32_t threes, std::uint32_t twos) {
    return table.at(index_of(problem.shape, {threes, twos}));
  };
  EXPECT_EQ(value(0, 0), 0u);
  EXPECT_EQ(value(1, 0), 1u);
  EXPECT_EQ(value(2, 0), 2u);
  EXPECT_EQ(value(0, 2), 1u);
  EXPECT_EQ(value(1, 1), 1u);
  EXPECT_EQ(value(1, 2), 2u);
  EXPECT_EQ(value(2, 2), 2u);
  // Saturation: with limit 1, "more than one machine" reads 1 (= the limit) everywhere it
  // is not exactly one machine.
  const DpProblem tight({{3, 2}, {2, 2}}, 5, 1, 1 << 20);
  DpTable saturated(tight.shape.size(), tight.entry_bytes());
  fill_table_sequential(tight, saturated);
  EXPECT_EQ(saturated.at(index_of(tight.shape, {2, 2})), 1u);
  EXPECT_EQ(saturated.at(index_of(tight.shape, {0, 0})), 0u);
}

TEST(DpTable, EqualsTheMemoizedRecursionOnRandomSpaces) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const bool tight = trial % 7 == 0;  // some jobs fit no machine at all
    const RandomSpace space = random_space(rng, 1 + trial % 5, 7, 3 + trial % 3, tight);
    const auto limit = static_cast<std::uint32_t>(1 + rng() % 6);
    const DpProblem problem(classes_of(space), space.capacity, limit, 1 << 20);
    DpTable table(problem.shape.size(), problem.entry_bytes());
    fill_table_sequential(problem, table);
    ReferenceDp reference(space.units, space.capacity);
    for_each_vector(space.counts, [&](const std::vector<std::uint32_t>& v) {
      const int want = std::min<int>(reference.opt(v), static_cast<int>(limit));
      ASSERT_EQ(table.at(index_of(problem.shape, v)), static_cast<std::uint32_t>(want))
          << "trial " << trial;
    });
  }
}

TEST(DpTable, WideEntriesBeyond255Machines) {
  // 300 jobs of one class, two per machine: 150 machines; limit 400 needs 16-bit entries.
  const DpProblem problem({{5, 300}}, 10, 400, 1 << 20);
  EXPECT_EQ(problem.entry_bytes(), 2);
  DpTable table(problem.shape.size(), problem.entry_bytes());
  fill_table_parallel(problem, table, 2);
  EXPECT_EQ(table.at(300), 150u);
  EXPECT_EQ(table.at(299), 150u);
  EXPECT_EQ(entry_bytes_for_limit(70000), 4);
}

TEST(LevelBuckets, EveryStateOnceGroupedByDigitSum) {
  const TableShape shape({{1, 3}, {2, 2}, {4, 4}}, 9);
  for (const auto& [begin, end] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {0, shape.size()}, {7, 31}, {59, 60}, {20, 20}}) {
    const LevelBuckets buckets = build_level_buckets(shape, begin, end);
    std::vector<std::uint64_t> seen;
    for (int l = 0; l < buckets.levels(); ++l) {
      for (auto i = buckets.level_begin[l]; i < buckets.level_begin[l + 1]; ++i) {
        const std::uint64_t index = buckets.first_state + buckets.states[i];
        std::uint64_t rest = index;
        std::uint64_t digit_sum = 0;
        for (int d = shape.dims() - 1; d >= 0; --d) {
          digit_sum += rest % shape.extents()[d];
          rest /= shape.extents()[d];
        }
        EXPECT_EQ(digit_sum, buckets.first_level + static_cast<std::uint64_t>(l));
        EXPECT_EQ(state_level(shape.view(), index), digit_sum);
        seen.push_back(index);
      }
    }
    std::sort(seen.begin(), seen.end());
    std::vector<std::uint64_t> want(end - begin);
    std::iota(want.begin(), want.end(), begin);
    EXPECT_EQ(seen, want);
  }
  EXPECT_EQ(top_level(shape), 9u);
}

TEST(PartitionPlan, FitsTheBudgetAndKeepsDependenciesResident) {
  const std::uint64_t entries = 100000;
  const std::uint64_t max_offset = 3000;
  const std::uint64_t levels = 40;
  const auto whole = plan_partition(entries, max_offset, 1, levels, 1 << 30);
  ASSERT_TRUE(whole.has_value());
  EXPECT_FALSE(whole->ring());
  EXPECT_EQ(whole->window, entries);
  EXPECT_EQ(whole->blocks, 1u);
  for (const std::uint64_t budget : {200000u, 60000u, 20000u, 9000u}) {
    const auto plan = plan_partition(entries, max_offset, 1, levels, budget);
    ASSERT_TRUE(plan.has_value()) << budget;
    EXPECT_LE(plan->bytes, budget);
    EXPECT_EQ(plan->bytes, plan_bytes(plan->window, plan->block_states, 1, levels));
    EXPECT_EQ(plan->blocks, (entries + plan->block_states - 1) / plan->block_states);
    if (plan->ring()) {
      EXPECT_EQ(plan->window & (plan->window - 1), 0u) << "a power of two";
      EXPECT_EQ(plan->mask, plan->window - 1);
      EXPECT_LE(plan->block_states + max_offset, plan->window);
    }
  }
  // The smallest ring is 4096 entries (above 3000) with one-state blocks: 4096 + 4 + 336.
  EXPECT_FALSE(plan_partition(entries, max_offset, 1, levels, 4096 + 4 + 335).has_value());
  EXPECT_TRUE(plan_partition(entries, max_offset, 1, levels, 4096 + 4 + 336).has_value());
}

TEST(PartitionPlan, RingRunsCoverTheBlock) {
  const PartitionPlan plan{16, 15, 5, 0, 0};
  const auto runs = ring_runs(plan, 13, 21);  // slots 13, 14, 15 then 0..4
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].first_index, 13u);
  EXPECT_EQ(runs[0].first_slot, 13u);
  EXPECT_EQ(runs[0].count, 3u);
  EXPECT_EQ(runs[1].first_index, 16u);
  EXPECT_EQ(runs[1].first_slot, 0u);
  EXPECT_EQ(runs[1].count, 5u);
  const PartitionPlan whole{100, ~std::uint64_t{0}, 100, 1, 0};
  EXPECT_EQ(ring_runs(whole, 10, 90).size(), 1u);
}

TEST(DpFill, SequentialParallelBlockedAndRingTablesAgree) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 40; ++trial) {
    const RandomSpace space = random_space(rng, 2 + trial % 4, 9, 6);
    const auto limit = static_cast<std::uint32_t>(2 + rng() % 8);
    const DpProblem problem(classes_of(space), space.capacity, limit, 1 << 20);
    const std::uint64_t size = problem.shape.size();
    DpTable sequential(size, problem.entry_bytes());
    fill_table_sequential(problem, sequential);
    const auto want = entries_of(sequential);
    for (const std::uint64_t block : {std::uint64_t{1}, std::uint64_t{7}, size}) {
      DpTable parallel(size, problem.entry_bytes());
      fill_table_parallel(problem, parallel, 2, block);
      EXPECT_EQ(entries_of(parallel), want) << "trial " << trial << " block " << block;
    }
    // Rings from the smallest that works to one beyond the table.
    const std::uint64_t max_offset = problem.configs.max_offset();
    for (std::uint64_t window = 1; window <= 2 * size; window <<= 1) {
      if (window <= max_offset) continue;
      for (const std::uint64_t block : {std::uint64_t{1}, window - max_offset}) {
        const PartitionPlan plan{window, window - 1, block, (size + block - 1) / block, 0};
        DpTable ring(size, problem.entry_bytes());
        fill_table_blocked(problem, ring, plan, 2);
        EXPECT_EQ(entries_of(ring), want) << "trial " << trial << " window " << window;
      }
    }
    // And the plans plan_partition makes for shrinking budgets.
    for (std::uint64_t budget = 1 << 20; budget > 64; budget /= 3) {
      const auto plan =
          plan_partition(size, max_offset, problem.entry_bytes(), top_level(problem.shape), budget);
      if (!plan) break;
      DpTable planned(size, problem.entry_bytes());
      fill_table_blocked(problem, planned, *plan, 2);
      EXPECT_EQ(entries_of(planned), want) << "trial " << trial << " budget " << budget;
    }
  }
}

}  // namespace
}  // namespace permbb::pcmax
