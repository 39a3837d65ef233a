#include "cardinality_bound.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace permbb::knapsack {

CardinalityLimits cardinality_limits(const std::vector<std::int64_t>& profits,
                                     const std::vector<std::int64_t>& weights,
                                     std::int64_t capacity, std::int64_t lower) {
  CardinalityLimits limits;
  std::vector<std::int64_t> lightest = weights;
  std::sort(lightest.begin(), lightest.end());
  std::int64_t room = capacity;
  for (const std::int64_t w : lightest) {
    if (w > room) break;
    room -= w;
    ++limits.most;
  }
  std::vector<std::int64_t> richest = profits;
  std::sort(richest.begin(), richest.end(), std::greater<>());
  std::int64_t worth = 0;
  limits.least = static_cast<std::int64_t>(richest.size()) + 1;
  for (std::size_t k = 0; k < richest.size(); ++k) {
    worth += richest[k];
    if (worth > lower) {
      limits.least = static_cast<std::int64_t>(k) + 1;
      break;
    }
  }
  return limits;
}

WideSigned cardinality_lagrangian_bound(const std::vector<std::int64_t>& profits,
                                        const std::vector<std::int64_t>& weights,
                                        std::int64_t capacity, const CardinalityLimits& limits,
                                        std::int64_t multiplier) {
  const WideSigned count_term =
      WideSigned{multiplier} * (multiplier >= 0 ? limits.most : limits.least);
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(profits.size()); ++i) {
    if (profits[i] > multiplier) order.push_back(i);
  }
  const auto adjusted = [&](int i) { return WideSigned{profits[i]} - multiplier; };
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return adjusted(a) * weights[b] > adjusted(b) * weights[a];
  });
  std::int64_t room = capacity;
  std::size_t b = 0;
  while (b < order.size() && weights[order[b]] <= room) room -= weights[order[b++]];
  WideSigned all = 0;  // r = 0 when every item with a positive adjusted profit fits
  for (const int i : order) all += adjusted(i);
  if (b == order.size()) return count_term + all;
  // r = a / d; d F' = a c + Σ max(0, d (p_i - μ) - a w_i), then floored.
  const WideSigned a = adjusted(order[b]);
  const WideSigned d = weights[order[b]];
  WideSigned scaled = a * capacity;
  for (const int i : order) scaled += std::max<WideSigned>(0, d * adjusted(i) - a * weights[i]);
  return count_term + scaled / d;
}

WideSigned cardinality_upper_bound(const std::vector<std::int64_t>& profits,
                                   const std::vector<std::int64_t>& weights,
                                   std::int64_t capacity, std::int64_t lower) {
  const CardinalityLimits limits = cardinality_limits(profits, weights, capacity, lower);
  if (limits.least > static_cast<std::int64_t>(profits.size()) || limits.least > limits.most) {
    return lower;  // no feasible solution is worth more than `lower`
  }
  const std::int64_t top = profits.empty() ? 0 : *std::max_element(profits.begin(), profits.end());
  const std::int64_t total = std::accumulate(profits.begin(), profits.end(), std::int64_t{0});
  const std::int64_t count = std::max<std::int64_t>(1, static_cast<std::int64_t>(profits.size()));
  // Negative μ raises every adjusted profit: kept where Σ (p_i - μ) stays below 2^62.
  const std::int64_t low = -std::min(top, ((std::int64_t{1} << 62) - total) / count);
  const auto f = [&](std::int64_t mu) {
    return cardinality_lagrangian_bound(profits, weights, capacity, limits, mu);
  };
  std::int64_t lo = low, hi = top;
  WideSigned best = std::min(f(0), f(top));
  while (hi - lo > 2) {
    const std::int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    const WideSigned f1 = f(m1), f2 = f(m2);
    best = std::min({best, f1, f2});
    if (f1 <= f2) hi = m2; else lo = m1;
  }
  for (std::int64_t mu = lo; mu <= hi; ++mu) best = std::min(best, f(mu));
  return best;
}

}  // namespace permbb::knapsack
