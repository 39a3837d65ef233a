// ivm::decode_copy (ivm_sample.hpp): the host-side promotion of an IVM's subproblem from
// copies of its arrays, as the GPU engine downloads them, equals ivm::decode on the IVM itself
// for both cell widths, with as many prefix (suffix) jobs as rows 0..line branch forward
// (backward), and rejects copies that do not describe a node.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ivm.hpp"
#include "ivm_sample.hpp"

namespace permbb {
namespace {

// A random IVM state: rows generated down to a random line, random directions and selected
// cells, some cells pruned.
struct RandomIvm {
  RandomIvm(std::mt19937& rng, int n)
      : n(n), pos(n, 0), end(n, 0), dir(n, 0), matrix(ivm::matrix_cells(n)) {
    end[0] = n;
    const ivm::View<std::int16_t> v{n, &line, pos.data(), end.data(), dir.data(), matrix.data()};
    ivm::set_root_row(v);
    const int depth = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
    for (int r = 0; r <= depth; ++r) {
      const int length = ivm::row_length(r, n);
      pos[r] = static_cast<int>(rng() % static_cast<unsigned>(length));
      dir[r] = static_cast<int>(rng() % 2);
      std::int16_t* cells = ivm::row(v, r);
      for (int i = 0; i < length; ++i) {
        if (i != pos[r] && rng() % 4 == 0) cells[i] = ivm::pruned<std::int16_t>(cells[i]);
      }
      if (r < depth) {
        ivm::generate_row(v, r);
        ivm::descend(v);
      }
    }
  }
  ivm::View<std::int16_t> view() {
    return {n, &line, pos.data(), end.data(), dir.data(), matrix.data()};
  }
  int n;
  int line = 0;
  std::vector<int> pos, end, dir;
  std::vector<std::int16_t> matrix;
};

bool is_permutation_of_jobs(const std::vector<int>& s, int n) {
  std::vector<int> seen(n, 0);
  for (int j : s) {
    if (j < 0 || j >= n || seen[j]++) return false;
  }
  return static_cast<int>(s.size()) == n;
}

TEST(IvmSample, DecodeCopyEqualsDecodeForBothCellWidths) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + trial % 30;
    RandomIvm ivm(rng, n);
    std::vector<int> expected(n);
    int suffix_begin = 0;
    ivm::decode(ivm.view(), expected.data(), &suffix_begin);
    ASSERT_TRUE(is_permutation_of_jobs(expected, n));
    int backward_rows = 0;
    for (int r = 0; r <= ivm.line; ++r) backward_rows += ivm.dir[r];
    const int forward_rows = ivm.line + 1 - backward_rows;

    // Only rows 0..line are copied, as the device stores them.
    const auto used = static_cast<std::size_t>(ivm::row_offset(ivm.line + 1, n));
    const std::vector<std::int16_t> wide(ivm.matrix.begin(), ivm.matrix.begin() + used);
    std::vector<std::int8_t> narrow(used);
    for (std::size_t i = 0; i < used; ++i) narrow[i] = static_cast<std::int8_t>(wide[i]);
    for (const PromotedSubproblem& copy :
         {ivm::decode_copy(n, ivm.line, ivm.pos.data(), ivm.dir.data(), wide.data()),
          ivm::decode_copy(n, ivm.line, ivm.pos.data(), ivm.dir.data(), narrow.data())}) {
      EXPECT_EQ(copy.schedule, expected) << "trial " << trial;
      EXPECT_EQ(copy.prefix, forward_rows) << "trial " << trial;
      EXPECT_EQ(copy.suffix, backward_rows) << "trial " << trial;
    }
  }
}

TEST(IvmSample, DecodeCopyRejectsCopiesThatAreNoNode) {
  std::mt19937 rng(8);
  RandomIvm ivm(rng, 8);
  while (ivm.line < 2) ivm = RandomIvm(rng, 8);
  const std::vector<std::int16_t>& m = ivm.matrix;
  EXPECT_TRUE(ivm::decode_copy(8, -1, ivm.pos.data(), ivm.dir.data(), m.data()).empty());
  EXPECT_TRUE(ivm::decode_copy(8, 8, ivm.pos.data(), ivm.dir.data(), m.data()).empty());
  std::vector<int> past = ivm.pos;
  past[ivm.line] = ivm::row_length(ivm.line, 8);  // the position ran past its row
  EXPECT_TRUE(ivm::decode_copy(8, ivm.line, past.data(), ivm.dir.data(), m.data()).empty());
  // A job fixed in row 0 also in row `line`: not a permutation.
  std::vector<std::int16_t> corrupt = m;
  const int other = ivm.pos[ivm.line] == 0 ? 1 : 0;
  corrupt[ivm::row_offset(ivm.line, 8) + other] =
      static_cast<std::int16_t>(ivm::selected_job(ivm.view(), 0));
  EXPECT_TRUE(
      ivm::decode_copy(8, ivm.line, ivm.pos.data(), ivm.dir.data(), corrupt.data()).empty());
}

}  // namespace
}  // namespace permbb
