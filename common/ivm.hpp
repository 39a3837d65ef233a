#pragma once
// The Integer-Vector-Matrix (IVM) data structure (Mezmaz et al. 2014; 2016 §2.2; 2022 §2.5):
// a depth-first search state of constant size for permutation problems.
//   line (I)   the row of the node currently pointed at (row r holds nodes with r+1 jobs fixed);
//   pos  (V)   the position vector: pos[r] is the cell selected in row r. It is a factoradic
//              number (factoradic.hpp) that only grows during the search;
//   end        the end vector: the IVM explores the half-open interval [pos, end);
//   dir        dir[r] says where the jobs of row r go: appended to the prefix σ1 (kFront) or
//              prepended to the suffix σ2 (kBack);
//   matrix (M) row r lists the n-r jobs that can be fixed at depth r+1; a pruned cell holds
//              ~job (negative). Only the upper triangle is stored (2016 §3.1, Eq. 2).
// These functions are the IVM steps shared by the CPU explorer and the GPU kernels. The
// bounding that decides what to prune is elsewhere (lb1.hpp, lb2.hpp, branching.hpp).
#include "factoradic.hpp"
#include "host_device.hpp"

namespace permbb::ivm {

// Plain pointers into one IVM's storage. `Cell` is a signed integer type that holds n
// (int8_t for n < 128, int16_t otherwise).
template <class Cell>
struct View {
  int n = 0;
  int* line = nullptr;
  int* pos = nullptr;
  int* end = nullptr;
  int* dir = nullptr;
  Cell* matrix = nullptr;
};

// Cells of the upper-triangular matrix: n(n+1)/2.
PERMBB_HD long long matrix_cells(int n) { return static_cast<long long>(n) * (n + 1) / 2; }

// Offset of row r in the triangular storage: rows 0..r-1 hold n + (n-1) + ... + (n-r+1).
PERMBB_HD int row_offset(int r, int n) { return r * n - r * (r - 1) / 2; }

PERMBB_HD int row_length(int r, int n) { return n - r; }

// The deepest row whose nodes are decomposed: a node of row n-2 has n-1 jobs fixed, and its
// only child is a complete schedule (a leaf).
PERMBB_HD int leaf_parent_row(int n) { return n - 2; }

// The row whose nodes are complete schedules. For n >= 2 it is never generated (a leaf parent
// evaluates its leaf directly); with one job it is row 0: the root is the leaf parent, and
// the node selected in row 0 is its leaf.
PERMBB_HD int leaf_row(int n) { return n - 1; }

template <class Cell>
PERMBB_HD Cell* row(const View<Cell>& v, int r) {
  return v.matrix + row_offset(r, v.n);
}

template <class Cell>
PERMBB_HD bool is_pruned(Cell c) {
  return c < 0;
}

template <class Cell>
PERMBB_HD int job_of(Cell c) {
  return c < 0 ? ~static_cast<int>(c) : static_cast<int>(c);
}

template <class Cell>
PERMBB_HD Cell pruned(int job) {
  return static_cast<Cell>(~job);
}

// The job of the cell selected in row r.
template <class Cell>
PERMBB_HD int selected_job(const View<Cell>& v, int r) {
  return job_of(row(v, r)[v.pos[r]]);
}

// Row 0 lists every job: the children of the root.
template <class Cell>
PERMBB_HD void set_root_row(const View<Cell>& v) {
  Cell* r0 = row(v, 0);
  for (int j = 0; j < v.n; ++j) r0[j] = static_cast<Cell>(j);
}

// Branch (2016 §2.2): row r+1 = the jobs of row r except the selected one, flags removed.
template <class Cell>
PERMBB_HD void generate_row(const View<Cell>& v, int r) {
  const Cell* parent = row(v, r);
  Cell* child = row(v, r + 1);
  const int selected = v.pos[r];
  const int length = row_length(r, v.n);
  int out = 0;
  for (int i = 0; i < length; ++i) {
    if (i != selected) child[out++] = static_cast<Cell>(job_of(parent[i]));
  }
}

// Prune (2016 §2.2): flags the cells of row r whose bound reaches the upper bound; the search
// looks only for schedules strictly better than the incumbent. `bounds[i]` is cell i's bound.
template <class Cell, class Bound>
PERMBB_HD void prune_row(const View<Cell>& v, int r, const Bound* bounds, Bound upper_bound) {
  Cell* cells = row(v, r);
  const int length = row_length(r, v.n);
  for (int i = 0; i < length; ++i) {
    if (bounds[i] >= upper_bound) cells[i] = pruned<Cell>(job_of(cells[i]));
  }
}

template <class Cell>
PERMBB_HD bool before_end(const View<Cell>& v) {
  return factoradic::compare(v.pos, v.end, v.n) < 0;
}

// Select (2016 Algorithm 1, without the branch): moves the position right over pruned cells
// and up past finished rows until it points at a cell to decompose. Returns false once the
// position has reached the end vector (the interval is exhausted). Digits below the current
// row stay 0, so pos is the first leaf under the pointed node.
template <class Cell>
PERMBB_HD bool advance(const View<Cell>& v) {
  int& line = *v.line;
  while (before_end(v)) {
    if (v.pos[line] >= row_length(line, v.n)) {
      if (line == 0) return false;  // pos[0] == n: the end of the whole space
      v.pos[line] = 0;
      --line;
      ++v.pos[line];
    } else if (is_pruned(row(v, line)[v.pos[line]])) {
      ++v.pos[line];
    } else {
      return true;
    }
  }
  return false;
}

// Go down into the row just generated: its first cell.
template <class Cell>
PERMBB_HD void descend(const View<Cell>& v) {
  ++*v.line;
  v.pos[*v.line] = 0;
}

// After advance(): true when no node owning the current position has been decomposed yet.
// That is so unless the pointed cell is the first of a row just generated (its parent has the
// same first leaf and was counted). Remaining intervals reported at such points restart
// without decomposing any node twice.
template <class Cell>
PERMBB_HD bool at_clean_point(const View<Cell>& v) {
  return *v.line == 0 || v.pos[*v.line] != 0;
}

// Decode (2016 §3.3.3) the node pointed at in row `line`: the jobs fixed in rows 0..line go
// to the prefix or the suffix by their row's direction; the other jobs of row `line` are the
// unscheduled ones, written in between. Returns the prefix length; the suffix starts at
// *suffix_begin. schedule has n entries.
template <class Cell>
PERMBB_HD int decode(const View<Cell>& v, int* schedule, int* suffix_begin) {
  const int line = *v.line;
  int prefix = 0;
  int suffix = v.n;
  for (int r = 0; r <= line; ++r) {
    const int job = selected_job(v, r);
    if (v.dir[r] == 0) {
      schedule[prefix++] = job;
    } else {
      schedule[--suffix] = job;
    }
  }
  const Cell* cells = row(v, line);
  int middle = prefix;
  for (int i = 0; i < row_length(line, v.n); ++i) {
    if (i != v.pos[line]) schedule[middle++] = job_of(cells[i]);
  }
  *suffix_begin = suffix;
  return prefix;
}

// One step of the initialisation at a start position (2016 §2.4), with the counting rule of
// docs/architecture.md: follow the start's digits down while the pointed node's first leaf
// lies before the start (some digit below its row is non-zero); such nodes are decomposed
// without being counted (they belong to the interval on the left). Stop at a pruned cell
// (its subtree is skipped: the digits below are cleared so that advance() moves past it) or
// at the first node whose first leaf is the start itself, which normal exploration then
// selects and counts.
enum class InitStep { kDone, kDescend };

template <class Cell>
PERMBB_HD InitStep init_step(const View<Cell>& v) {
  const int r = *v.line;
  if (is_pruned(row(v, r)[v.pos[r]])) {
    for (int i = r + 1; i < v.n; ++i) v.pos[i] = 0;
    return InitStep::kDone;
  }
  return factoradic::is_zero(v.pos + r + 1, v.n - r - 1) ? InitStep::kDone : InitStep::kDescend;
}

}  // namespace permbb::ivm
