#pragma once
// Promotion of an IVM's current subproblem to a complete schedule from plain host copies of
// its arrays (2022 §4.2.3: "fixing the unscheduled jobs in the order of appearance in the
// IVM-matrix"). The GPU engine downloads one IVM's line, position, directions and matrix and
// decodes it here; the CPU explorer decodes its own IVM (IvmExplorer::current_subproblem()).
#include <cstddef>
#include <vector>

#include "ivm.hpp"
#include "promoted_subproblem.hpp"

namespace permbb::ivm {

// The node the IVM `v` points at, decoded (ivm::decode): its schedule with the prefix and
// suffix lengths. Shared by the CPU explorer and decode_copy.
template <class Cell>
PromotedSubproblem decode_subproblem(const View<Cell>& v) {
  PromotedSubproblem out;
  out.schedule.assign(static_cast<std::size_t>(v.n), -1);
  int suffix_begin = 0;
  out.prefix = decode(v, out.schedule.data(), &suffix_begin);
  out.suffix = v.n - suffix_begin;
  return out;
}

// The subproblem ivm::decode gives for the IVM whose row pointer is `line`, position `pos` (n
// digits), directions `dir` (n) and triangular matrix `matrix` (at least rows 0..line, as
// stored: row_offset(line + 1, n) cells): prefix, the unscheduled jobs of row `line` in row
// order, suffix, with the prefix and suffix lengths. Empty when the copy does not describe a
// node (line outside [0, n-1], the selected cell outside its row, or a result that is not a
// permutation of 0..n-1), so a caller can skip a copy taken at a bad moment rather than use
// a corrupt schedule.
template <class Cell>
PromotedSubproblem decode_copy(int n, int line, const int* pos, const int* dir,
                               const Cell* matrix) {
  if (n < 1 || line < 0 || line >= n) return {};
  for (int r = 0; r <= line; ++r) {
    if (pos[r] < 0 || pos[r] >= row_length(r, n)) return {};
  }
  std::vector<int> pos_copy(pos, pos + n);
  std::vector<int> dir_copy(dir, dir + n);
  std::vector<int> end_copy(static_cast<std::size_t>(n), 0);
  std::vector<Cell> cells(matrix, matrix + row_offset(line + 1, n));
  cells.resize(static_cast<std::size_t>(matrix_cells(n)));
  int line_copy = line;
  const View<Cell> view{n,           &line_copy, pos_copy.data(), end_copy.data(), dir_copy.data(),
                        cells.data()};
  PromotedSubproblem out = decode_subproblem(view);
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (int job : out.schedule) {
    if (job < 0 || job >= n || seen[static_cast<std::size_t>(job)]) return {};
    seen[static_cast<std::size_t>(job)] = 1;
  }
  return out;
}

}  // namespace permbb::ivm
