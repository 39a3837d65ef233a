#pragma once
// The order in which LB2 tries the machine pairs of a child, learned during the search
// (2016 §3.3.4): a child whose bound reaches the upper bound stops at the first pair that
// gets there, so the pairs that most often cut come first. The order only changes how much
// is swept before the cut, never whether a child is cut, so the tree is the same whatever
// the order. One per explorer: threads learn apart and share nothing.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace permbb {

class Lb2PairOrder {
 public:
  explicit Lb2PairOrder(int pairs) : order_(pairs), cuts_(pairs, 0) {
    std::iota(order_.begin(), order_.end(), 0);
  }

  int size() const { return static_cast<int>(order_.size()); }
  // The pair tried `rank`-th.
  int at(int rank) const { return order_[rank]; }

  // The pair tried `rank`-th cut a child off. Every kPeriod cuts the pairs are re-sorted by
  // their cuts, and the counts halved so that the order follows the search as it moves
  // through the tree (deep nodes may favour other pairs than shallow ones).
  void credit(int rank) {
    ++cuts_[order_[rank]];
    if (++since_sort_ < kPeriod) return;
    since_sort_ = 0;
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int x, int y) { return cuts_[x] > cuts_[y]; });
    for (auto& c : cuts_) c /= 2;
  }

 private:
  static constexpr std::uint32_t kPeriod = 1024;
  std::vector<int> order_;
  std::vector<std::uint32_t> cuts_;  // [pair], decayed
  std::uint32_t since_sort_ = 0;
};

}  // namespace permbb
