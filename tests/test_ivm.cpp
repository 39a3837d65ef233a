// The IVM steps (ivm.hpp) on their own: with nothing pruned, an IVM over [0, n!) visits the
// n! leaves one by one in factoradic order, whatever the directions of its rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>

#include "ivm.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

struct Storage {
  explicit Storage(int n)
      : n(n), pos(n, 0), end(testing::digits_of(testing::factorial(n), n)), dir(n, 0),
        matrix(ivm::matrix_cells(n)) {}
  ivm::View<std::int16_t> view() { return {n, &line, pos.data(), end.data(), dir.data(), matrix.data()}; }
  int n;
  int line = 0;
  std::vector<int> pos, end, dir;
  std::vector<std::int16_t> matrix;
};

// Walks the whole tree without pruning; returns each leaf's position and its permutation.
void walk(Storage& s, std::mt19937* random_directions, std::vector<std::uint64_t>* positions,
          std::vector<std::vector<int>>* schedules) {
  auto v = s.view();
  ivm::set_root_row(v);
  if (random_directions) s.dir[0] = (*random_directions)() % 2;
  while (ivm::advance(v)) {
    const int r = s.line;
    if (r == ivm::leaf_parent_row(s.n)) {
      positions->push_back(testing::value_of(s.pos));
      std::vector<int> schedule(s.n);
      int suffix_begin = 0;
      ivm::decode(v, schedule.data(), &suffix_begin);
      schedules->push_back(schedule);
      ++s.pos[r];
    } else {
      ivm::generate_row(v, r);
      if (random_directions) s.dir[r + 1] = (*random_directions)() % 2;
      ivm::descend(v);
    }
  }
}

TEST(Ivm, TriangularRowsDoNotOverlap) {
  for (int n = 1; n <= 30; ++n) {
    for (int r = 0; r + 1 < n; ++r) {
      EXPECT_EQ(ivm::row_offset(r + 1, n), ivm::row_offset(r, n) + ivm::row_length(r, n));
    }
    EXPECT_EQ(ivm::row_offset(n - 1, n) + 1, ivm::matrix_cells(n));
  }
}

TEST(Ivm, VisitsAllLeavesInFactoradicOrderWithoutPruning) {
  for (int n = 2; n <= 7; ++n) {
    Storage s(n);
    std::vector<std::uint64_t> positions;
    std::vector<std::vector<int>> schedules;
    walk(s, nullptr, &positions, &schedules);
    ASSERT_EQ(positions.size(), testing::factorial(n)) << "n=" << n;
    for (std::uint64_t i = 0; i < positions.size(); ++i) ASSERT_EQ(positions[i], i);
    // All forward: the leaves are the permutations in lexicographic order.
    std::vector<int> expected(n);
    std::iota(expected.begin(), expected.end(), 0);
    for (const auto& schedule : schedules) {
      ASSERT_EQ(schedule, expected);
      std::next_permutation(expected.begin(), expected.end());
    }
  }
}

TEST(Ivm, EveryPermutationOnceWithMixedDirections) {
  std::mt19937 rng(21);
  for (int n = 2; n <= 7; ++n) {
    for (int trial = 0; trial < 5; ++trial) {
      Storage s(n);
      std::vector<std::uint64_t> positions;
      std::vector<std::vector<int>> schedules;
      walk(s, &rng, &positions, &schedules);
      const std::set<std::vector<int>> distinct(schedules.begin(), schedules.end());
      EXPECT_EQ(distinct.size(), testing::factorial(n));
      for (std::uint64_t i = 0; i < positions.size(); ++i) ASSERT_EQ(positions[i], i);
    }
  }
}

TEST(Ivm, PrunedCellsAreSkipped) {
  // n = 3, prune job 1 in row 0: the leaves under it (positions 2 and 3) are not visited.
  Storage s(3);
  auto v = s.view();
  ivm::set_root_row(v);
  const int bounds[] = {0, 10, 0};
  ivm::prune_row(v, 0, bounds, 10);
  std::vector<std::uint64_t> positions;
  while (ivm::advance(v)) {
    const int r = s.line;
    if (r == ivm::leaf_parent_row(3)) {
      positions.push_back(testing::value_of(s.pos));
      ++s.pos[r];
    } else {
      ivm::generate_row(v, r);
      ivm::descend(v);
    }
  }
  EXPECT_EQ(positions, (std::vector<std::uint64_t>{0, 1, 4, 5}));
}

}  // namespace
}  // namespace permbb
