#pragma once
// Warp-level LB2 (2016 §3.3.4 and §4; 2011 §4-5): the children of one parent are bounded
// together by the lanes of its warp, each lane calling the very pair sweeps the CPU's plain
// LB2 calls (lb2.hpp). All lanes of a warp sweep the same machine pair's Johnson sequence at
// the same time (one broadcast load per step) and skip the parent's fixed jobs by selects, so
// the only divergence left is between lanes whose early exit (the cutoff) comes at different
// pairs; the two phases (bound_items_lb2) take most of it away by finishing the children no
// early pair cuts with the whole warp. Every function is called by the whole warp with
// warp-uniform arguments.
#include "device_types.hpp"
#include "ivm.hpp"
#include "lb2.hpp"
#include "warp_lb2_shared.cuh"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// scheduled[j] = 1 for the jobs fixed in the node whose free jobs are `cells` (count of
// them), 0 for its free jobs.
template <class Cell>
__device__ __forceinline__ void mark_scheduled(const Cell* cells, int count, int n,
                                               unsigned char* scheduled) {
  for (int j = lane(); j < n; j += kSize) scheduled[j] = 1;
  __syncwarp();
  for (int i = lane(); i < count; i += kSize) scheduled[ivm::job_of(cells[i])] = 0;
  __syncwarp();
}

// The fixed jobs of the node whose free jobs are `cells`, in the form the sweeps read fastest
// (lb2.hpp, is_fixed): up to kMaxFreeJobBits jobs the free jobs' bits, returned to every
// lane, so that a step of a sweep loads its Johnson entry only; beyond, the flags in
// `scheduled` (the bits returned are then unused).
template <class Cell>
__device__ __forceinline__ FreeJobBits mark_fixed_jobs(const Cell* cells, int count, int n,
                                                       unsigned char* scheduled) {
  if (n > kMaxFreeJobBits) {
    mark_scheduled(cells, count, n, scheduled);
    return FreeJobBits{0};
  }
  unsigned long long bits = 0;
  for (int i = lane(); i < count; i += kSize) bits |= 1ull << ivm::job_of(cells[i]);
  return FreeJobBits{bit_or(bits)};
}

// Everything a lane needs to bound one child of the node being decomposed.
struct Lb2Node {
  FlowshopView data;
  JohnsonView johnson;
  const Time* front;
  const Time* back;
  const Time* remain;
  const unsigned char* scheduled;  // the fixed jobs' flags, where data.jobs > kMaxFreeJobBits
  FreeJobBits free_jobs;           // the free jobs' bits, where data.jobs <= kMaxFreeJobBits
  Lb2Scratch scratch;              // the shared LB2's (warp_lb2_shared.cuh)
  int shared_from = 0;             // share a pair's terms while this many children are open
                                   // (ExploreParams::lb2_shared); 0: never
};

// sweep(fixed) with the node's fixed jobs as mark_fixed_jobs left them (a warp-uniform
// choice: one job count per run).
template <class Sweep>
__device__ __forceinline__ Time with_fixed_jobs(const Lb2Node& node, const Sweep& sweep) {
  if (node.data.jobs <= kMaxFreeJobBits) return sweep(node.free_jobs);
  return sweep(node.scheduled);
}

// LB2 of one child on this lane alone, as the CPU's plain LB2 computes it.
__device__ __forceinline__ Time child_lb2(const Lb2Node& node, int job, int direction,
                                          Time cutoff) {
  Time side[kMaxGpuLb2Machines];
  return with_fixed_jobs(node, [&](auto fixed) {
    return lb2_child_bound(node.data, node.johnson, node.front, node.back, node.remain, fixed,
                           job, direction, cutoff, side);
  });
}

// bound_children_lb2 and bound_items_lb2 bound every child: none has its bound already.
inline constexpr Time kKeepNone = INT32_MIN;

// One child of the node being bounded: the job it adds, the side it adds it to, and where
// its bound goes.
struct Lb2Item {
  int job;
  int direction;
  Time* slot;
};

// The child's front and back (lb1_child_sides), `side` holding the one it changes.
__device__ __forceinline__ ChildSides item_sides(const Lb2Node& node, const Lb2Item& item,
                                                 Time* side) {
  return lb1_child_sides(node.data, node.front, node.back, item.job, item.direction, side);
}

// The child's LB1 and its pairs [0, screen) on this lane alone, stopping at the cutoff (as
// lb2_child_bound with fewer pairs): the bound so far.
__device__ __forceinline__ Time screen_child(const Lb2Node& node, const Lb2Item& item,
                                             int screen, Time cutoff) {
  const Time lb1 = lb1_child_bound(node.data, node.front, node.back, node.remain, item.job,
                                   item.direction);
  if (lb1 >= cutoff || screen == 0) return lb1;
  Time side[kMaxGpuLb2Machines];
  const ChildSides child = item_sides(node, item, side);
  const int last = screen < node.johnson.pairs ? screen : node.johnson.pairs;
  return with_fixed_jobs(node, [&](auto fixed) {
    return lb2_pairs_from(node.johnson, 0, last, lb1, child.front, child.back, fixed, item.job,
                          cutoff);
  });
}

// The pairs [first, pairs) of one child, by the whole warp: lane l sweeps pairs first + l,
// first + l + 32, ..., and after each round of 32 the warp takes the maximum and stops once
// it reaches the cutoff (without one, a single maximum at the end). *item.slot (the bound so
// far) becomes the child's bound: exact LB2 below the cutoff, a valid bound at or above it
// otherwise.
__device__ __forceinline__ void finish_child_across_lanes(const Lb2Node& node,
                                                          const Lb2Item& item, int first,
                                                          Time cutoff) {
  Time side[kMaxGpuLb2Machines];
  const ChildSides child = item_sides(node, item, side);
  const bool early_exit = cutoff != kInfiniteTime;
  Time best = *item.slot;
  for (int round = first; round < node.johnson.pairs && best < cutoff; round += kSize) {
    const int pair = round + lane();
    if (pair < node.johnson.pairs) {
      const Time bound = with_fixed_jobs(node, [&](auto fixed) {
        return johnson_pair_bound(node.johnson, pair, child.front, child.back, fixed, item.job);
      });
      best = bound > best ? bound : best;
    }
    if (early_exit) best = max(best);  // warp-uniform: every lane leaves the loop together
  }
  if (!early_exit) best = max(best);
  __syncwarp();
  if (lane() == 0) *item.slot = best;
  __syncwarp();
}

// LB2 of `items` children (item(t) for t < items) in two phases, for warps whose lanes would
// otherwise wait on the few children that no pair cuts (they sweep every pair, while most
// children are cut after one or two): each lane screens its child with the first `screen`
// pairs; the children still below the cutoff are then finished, 32 at a time, by the whole
// warp over the pairs (finish_child_across_lanes) when that takes fewer sweeps per lane than
// each lane finishing its own child, else lane by lane. Same values below the cutoff as
// lb2_child_bound, and at or above it wherever that is (so the same pruning and branching).
// Items whose slot is already below `keep_below` keep it (kKeepNone: none).
template <class Items>
__device__ __forceinline__ void bound_items_screened(const Lb2Node& node, int items,
                                                     const Items& item, Time cutoff, int screen,
                                                     Time keep_below) {
  const int pairs = node.johnson.pairs;
  const int rest = screen < pairs ? pairs - screen : 0;
  const int rounds = (rest + kSize - 1) / kSize;
  for (int base = 0; base < items; base += kSize) {
    const int t = base + lane();
    bool open = false;
    if (t < items) {
      const Lb2Item mine = item(t);
      if (*mine.slot >= keep_below) {
        *mine.slot = screen_child(node, mine, screen, cutoff);
        open = rest > 0 && *mine.slot < cutoff;
      }
    }
    unsigned waiting = __ballot_sync(kAll, open);
    __syncwarp();
    if (__popc(waiting) * rounds < rest) {
      for (; waiting != 0; waiting &= waiting - 1) {
        finish_child_across_lanes(node, item(base + __ffs(waiting) - 1), screen, cutoff);
      }
    } else if (open) {
      const Lb2Item mine = item(t);
      Time side[kMaxGpuLb2Machines];
      const ChildSides child = item_sides(node, mine, side);
      *mine.slot = with_fixed_jobs(node, [&](auto fixed) {
        return lb2_pairs_from(node.johnson, screen, pairs, *mine.slot, child.front, child.back,
                              fixed, mine.job, cutoff);
      });
    }
    __syncwarp();
  }
}

// LB2 of `items` children with the node's work shared between them (warp_lb2_shared.cuh):
// their LB1 and changed sides first (lanes over children), then pair by pair in the tables'
// order, while at least node.shared_from children are still below the cutoff, the warp builds
// the pair's terms and each lane takes the pair bound of its open children in O(1); the few
// children left then finish over the remaining pairs with the whole warp, as in the second
// phase of bound_items_screened. Same values as lb2_child_bound below the cutoff, and a valid
// bound at or above it otherwise. Items whose slot is already below `keep_below` keep it.
template <class Items>
__device__ __forceinline__ void bound_items_shared(const Lb2Node& node, int items,
                                                   const Items& item, Time cutoff,
                                                   Time keep_below) {
  unsigned open = 0;  // bit j: this lane's item 32 j + lane is still below the cutoff
  for (int j = 0; j * kSize < items; ++j) {
    const int t = j * kSize + lane();
    if (t >= items) continue;
    const Lb2Item mine = item(t);
    if (*mine.slot < keep_below) continue;
    *mine.slot = lb1_child_bound(node.data, node.front, node.back, node.remain, mine.job,
                                 mine.direction);
    if (*mine.slot >= cutoff) continue;
    lb1_add_job(node.data, mine.direction == kFront ? node.front : node.back, mine.job,
                mine.direction, node.scratch.sides + t, items);
    open |= 1u << j;
  }
  int pair = 0;
  for (; pair < node.johnson.pairs && sum(__popc(open)) >= node.shared_from; ++pair) {
    if (node.data.jobs <= kMaxFreeJobBits) {
      build_pair_terms(node.johnson, pair, node.free_jobs, node.remain, node.scratch);
    } else {
      build_pair_terms(node.johnson, pair, node.scheduled, node.remain, node.scratch);
    }
    for (unsigned bits = open; bits != 0; bits &= bits - 1) {
      const int j = __ffs(bits) - 1;
      const int t = j * kSize + lane();
      const Lb2Item mine = item(t);
      const Time bound =
          shared_pair_bound(node.data, node.johnson, pair, node.front, node.back, node.remain,
                            node.scratch, items, t, mine.job, mine.direction);
      if (bound > *mine.slot) *mine.slot = bound;
      if (*mine.slot >= cutoff) open &= ~(1u << j);
    }
    __syncwarp();  // the next pair's terms overwrite these
  }
  for (int j = 0; j * kSize < items && pair < node.johnson.pairs; ++j) {
    for (unsigned waiting = __ballot_sync(kAll, (open >> j) & 1u); waiting != 0;
         waiting &= waiting - 1) {
      finish_child_across_lanes(node, item(j * kSize + __ffs(waiting) - 1), pair, cutoff);
    }
  }
  __syncwarp();
}

// LB2 of `items` children, item(t) for t < items: shared (bound_items_shared) where the node
// asks for it, else in two phases (bound_items_screened) where `screen` asks for them, else
// one lane per child over every pair. Items whose slot is already below `keep_below` keep it.
template <class Items>
__device__ __forceinline__ void bound_items_lb2(const Lb2Node& node, int items,
                                                const Items& item, Time cutoff, int screen,
                                                Time keep_below) {
  if (node.shared_from > 0 && items <= kMaxSharedItems && node.scratch.sides != nullptr) {
    bound_items_shared(node, items, item, cutoff, keep_below);
  } else if (screen != kLb2ScreenOff) {
    bound_items_screened(node, items, item, cutoff, screen, keep_below);
  } else {
    for (int t = lane(); t < items; t += kSize) {
      const Lb2Item mine = item(t);
      if (*mine.slot >= keep_below) *mine.slot = child_lb2(node, mine.job, mine.direction, cutoff);
    }
    __syncwarp();
  }
}

// LB2 of the children in the wanted directions: lb[direction * n + i] for the job of
// cells[i]. kRemap lists them as items (bound_items_lb2), with both directions interleaved
// (item t: child t/2, direction t%2, 2016 Algorithm 5), so 2*count items fill
// ceil(2*count/32) passes; kStatic runs a pass set per direction with lane i on child i
// (Algorithm 4), as does kRemap for one direction unless the node's work is shared. Bounds
// already in `lb` below `keep_below` stay (after a pass cut off there, those are exact: only
// the others are bounded again, as IvmExplorer::bound_and_prune_row does); kKeepNone bounds
// every child.
template <class Cell>
__device__ __forceinline__ void bound_children_lb2(const Lb2Node& node, const Cell* cells,
                                                   int count, bool want_front, bool want_back,
                                                   Time cutoff, GpuMapping mapping, Time* lb,
                                                   int n, int screen = kLb2ScreenOff,
                                                   Time keep_below = kKeepNone) {
  const bool both = want_front && want_back;
  if (mapping == GpuMapping::kRemap && (both || node.shared_from > 0)) {
    const int only = want_front ? kFront : kBack;
    bound_items_lb2(
        node, both ? 2 * count : count,
        [&](int t) {
          const int i = both ? t >> 1 : t;
          const int direction = both ? t & 1 : only;
          return Lb2Item{ivm::job_of(cells[i]), direction, lb + direction * n + i};
        },
        cutoff, screen, keep_below);
    return;
  }
  for (int direction = kFront; direction <= kBack; ++direction) {
    if (direction == kFront ? !want_front : !want_back) continue;
    for (int i = lane(); i < count; i += kSize) {
      Time& slot = lb[direction * n + i];
      if (slot >= keep_below) slot = child_lb2(node, ivm::job_of(cells[i]), direction, cutoff);
    }
  }
  __syncwarp();
}

// lb1+lb2: `kept` holds the LB1 bounds of the children in the chosen direction; those below
// the upper bound are replaced by their LB2 (cut off at the upper bound). kRemap first lists
// the survivors in `todo` with a warp prefix sum (ballot, then popc of the lower lanes'
// bits: 2016 §4.2, Algorithm 7, at warp scope) so that they occupy consecutive lanes;
// kStatic leaves lane i on child i, idle when LB1 already pruned it.
template <class Cell>
__device__ __forceinline__ void refine_with_lb2(const Lb2Node& node, const Cell* cells,
                                                int count, int direction, Time upper_bound,
                                                GpuMapping mapping, Time* kept, int* todo,
                                                int screen = kLb2ScreenOff) {
  if (mapping == GpuMapping::kStatic) {
    for (int i = lane(); i < count; i += kSize) {
      if (kept[i] < upper_bound) {
        kept[i] = child_lb2(node, ivm::job_of(cells[i]), direction, upper_bound);
      }
    }
    __syncwarp();
    return;
  }
  const unsigned lower_lanes = (1u << lane()) - 1u;
  int listed = 0;
  for (int base = 0; base < count; base += kSize) {
    const int i = base + lane();
    const bool survives = i < count && kept[i] < upper_bound;
    const unsigned ballot = __ballot_sync(kAll, survives);
    if (survives) todo[listed + __popc(ballot & lower_lanes)] = i;
    listed += __popc(ballot);
  }
  __syncwarp();
  bound_items_lb2(
      node, listed,
      [&](int t) {
        const int i = todo[t];
        return Lb2Item{ivm::job_of(cells[i]), direction, kept + i};
      },
      upper_bound, screen, kKeepNone);
  __syncwarp();
}

}  // namespace permbb::gpu::warp
