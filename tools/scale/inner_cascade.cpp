#include "inner_cascade.hpp"

#include <algorithm>

#include "cascade_gaps.hpp"

namespace permbb::scale {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }  // [0, 1)

// One range of the cascade on the way down: [lo, hi) holding `nodes`, `before` below lo.
struct Range {
  Offset lo;
  Offset hi;
  std::uint64_t nodes;
  std::uint64_t before;
  std::uint64_t index;  // its number at its level
  int level;
};

bool is_leaf(const InnerCascade& cascade, const Range& r) {
  return r.level >= cascade.levels || r.nodes <= 1 || r.hi - r.lo < 2;
}

Offset middle(const Range& r) { return r.lo + (r.hi - r.lo) / 2; }

// The nodes of the left half of r.
std::uint64_t left_nodes(const InnerCascade& cascade, std::uint64_t bin, const Range& r) {
  const std::uint64_t h = mix(mix(mix(cascade.seed ^ bin) + static_cast<std::uint64_t>(r.level)) +
                              r.index);
  const double u = unit(h);
  const double w = with_gap(0.5 + cascade.spread * (2 * u - 1), unit(mix(h)), cascade.gaps);
  const auto left = static_cast<std::uint64_t>(static_cast<double>(r.nodes) * w);
  return std::min(left, r.nodes);
}

Range descend(const Range& r, bool right, std::uint64_t left) {
  const Offset mid = middle(r);
  if (right) return {mid, r.hi, r.nodes - left, r.before + left, 2 * r.index + 1, r.level + 1};
  return {r.lo, mid, left, r.before, 2 * r.index, r.level + 1};
}

}  // namespace

std::uint64_t inner_nodes_before(const InnerCascade& cascade, std::uint64_t bin, Offset length,
                                 std::uint64_t nodes, Offset q) {
  if (q >= length) return nodes;
  Range r{0, length, nodes, 0, 0, 0};
  while (!is_leaf(cascade, r)) {
    const std::uint64_t left = left_nodes(cascade, bin, r);
    r = descend(r, q >= middle(r), left);
  }
  return r.before + static_cast<std::uint64_t>(Offset(r.nodes) * (q - r.lo) / (r.hi - r.lo));
}

Offset inner_advance(const InnerCascade& cascade, std::uint64_t bin, Offset length,
                     std::uint64_t nodes, std::uint64_t target) {
  if (target == 0) return 0;
  if (target >= nodes) target = nodes;
  Range r{0, length, nodes, 0, 0, 0};
  while (!is_leaf(cascade, r)) {
    const std::uint64_t left = left_nodes(cascade, bin, r);
    // The count reaches r.before + left at the middle, or before it when the left half
    // ends with positions without nodes: a target up to it lies in the left half, or at
    // its end.
    r = descend(r, target > r.before + left, left);
  }
  // The least q in [lo, hi] with floor(nodes (q - lo) / (hi - lo)) >= target - before; the
  // descent keeps 0 < target - before <= nodes.
  const Offset need = target - r.before;
  const Offset span = r.hi - r.lo;
  return r.lo + (need * span + r.nodes - 1) / r.nodes;
}

}  // namespace permbb::scale
