#pragma once
// Team-level IVM row operations (2016 §2.2, 2022 §3.2): the branch (a new matrix row) and the
// prune (flags on a row) of ivm.hpp with lanes over cells. Sequential steps (advance, descend,
// init_step, decode) stay ivm.hpp's own, run by lane 0. Callers sync() around them. W is the
// team width (warp_primitives.cuh).
#include "ivm.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// Row r+1 = the jobs of row r except the selected one, flags removed: ivm::generate_row.
template <int W = kSize, class Cell>
__device__ __forceinline__ void generate_row(const ivm::View<Cell>& v, int r) {
  const Cell* parent = ivm::row(v, r);
  Cell* child = ivm::row(v, r + 1);
  const int selected = v.pos[r];
  const int length = ivm::row_length(r, v.n);
  for (int i = lane<W>(); i < length; i += W) {
    if (i != selected) child[i < selected ? i : i - 1] = static_cast<Cell>(ivm::job_of(parent[i]));
  }
  sync<W>();
}

// Flags the cells of row r whose bound reaches the upper bound: ivm::prune_row.
template <int W = kSize, class Cell>
__device__ __forceinline__ void prune_row(const ivm::View<Cell>& v, int r, const Time* bounds,
                                          Time upper_bound) {
  Cell* cells = ivm::row(v, r);
  const int length = ivm::row_length(r, v.n);
  for (int i = lane<W>(); i < length; i += W) {
    if (bounds[i] >= upper_bound) cells[i] = ivm::pruned<Cell>(ivm::job_of(cells[i]));
  }
  sync<W>();
}

// Row 0 lists every job: ivm::set_root_row.
template <int W = kSize, class Cell>
__device__ __forceinline__ void set_root_row(const ivm::View<Cell>& v) {
  Cell* r0 = ivm::row(v, 0);
  for (int j = lane<W>(); j < v.n; j += W) r0[j] = static_cast<Cell>(j);
  sync<W>();
}

// Copies `count` elements with lanes over them (loading an IVM into shared memory and back).
template <int W = kSize, class T>
__device__ __forceinline__ void copy(const T* from, T* to, long long count) {
  for (long long i = lane<W>(); i < count; i += W) to[i] = from[i];
  sync<W>();
}

// True when some d[i] with i in [first, last) satisfies d[i] == value: a ballot over lanes.
template <int W = kSize>
__device__ __forceinline__ bool any_equal(const int* d, int first, int last, int value) {
  bool found = false;
  for (int i = first + lane<W>(); i < last; i += W) found = found || d[i] == value;
  return any<W>(found);
}

// a < b for factoradic digit vectors (ivm::before_end's comparison): a ballot finds the first
// differing digit.
template <int W = kSize>
__device__ __forceinline__ bool less(const int* a, const int* b, int n) {
  for (int base = 0; base < n; base += W) {
    const int i = base + lane<W>();
    const int x = i < n ? a[i] : 0;
    const int y = i < n ? b[i] : 0;
    const unsigned differ = ballot<W>(x != y);
    if (differ != 0) {
      const int d = __ffs(differ) - 1;
      return broadcast<W>(x, d) < broadcast<W>(y, d);
    }
  }
  return false;
}

// ivm::advance with lanes: a ballot over the current row finds the next cell that is not
// pruned; an exhausted row moves the position up as advance does. The end vector is compared
// once, at the cell found: positions only grow while advance moves (moving up rewrites an
// overflowed digit as a carry: the same number), so every position advance would have
// checked lies below the one found. Hence the same result, and when true the same line and
// position (docs/gpu.md); when false the position may differ, but the IVM is then empty.
template <int W = kSize, class Cell>
__device__ __forceinline__ bool advance(const ivm::View<Cell>& v) {
  int line = *v.line;
  while (true) {
    const Cell* cells = ivm::row(v, line);
    const int length = ivm::row_length(line, v.n);
    const int first = v.pos[line];
    int found = -1;
    for (int base = first; base < length; base += W) {
      const int i = base + lane<W>();
      const unsigned open = ballot<W>(i < length && !ivm::is_pruned(cells[i]));
      if (open != 0) {
        found = base + __ffs(open) - 1;
        break;
      }
    }
    sync<W>();
    if (found >= 0 || line == 0) {
      if (lane<W>() == 0) {
        v.pos[line] = found >= 0 ? found : length;
        *v.line = line;
      }
      sync<W>();
      return found >= 0 && less<W>(v.pos, v.end, v.n);
    }
    if (lane<W>() == 0) {
      v.pos[line] = 0;
      ++v.pos[line - 1];
    }
    sync<W>();
    --line;
  }
}

}  // namespace permbb::gpu::warp
