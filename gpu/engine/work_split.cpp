#include "work_split.hpp"

#include <algorithm>
#include <stdexcept>

#include "factoradic_mpz.hpp"

namespace permbb::gpu {

std::vector<Interval> split_intervals(const std::vector<Interval>& intervals, int pieces) {
  std::vector<Interval> open;
  open.reserve(intervals.size());
  for (const Interval& interval : intervals) {
    if (!interval.empty()) open.push_back(interval);
  }
  const long long q = static_cast<long long>(open.size());
  if (q == 0 || q >= pieces) return open;
  const mpz_class total = total_length(open);
  const auto extra = static_cast<unsigned long>(pieces - q);
  std::vector<Interval> out;
  out.reserve(static_cast<std::size_t>(pieces));
  mpz_class length;
  mpz_class scaled;
  for (Interval& interval : open) {
    length = interval.end - interval.begin;
    scaled = length * extra;
    // One part (extra * length < total): the interval as it is. A unit a worker receives
    // has about as many intervals as IVMs, nearly all of them in one part each: no division
    // for them (a handover's cost on the GPU's host side, docs/scale.md).
    if (scaled < total) {
      out.push_back(std::move(interval));
      continue;
    }
    mpz_class parts = 1 + scaled / total;
    if (parts > length) parts = length;
    for (mpz_class j = 0; j < parts; ++j) {
      const mpz_class begin = interval.begin + (length * j) / parts;
      const mpz_class end = interval.begin + (length * (j + 1)) / parts;
      out.push_back({begin, end});
    }
  }
  return out;
}

std::vector<int> spread_indices(int pieces, int ivms) {
  if (pieces > ivms) throw std::invalid_argument("spread_indices: more pieces than IVMs");
  std::vector<int> indices(pieces);
  for (int i = 0; i < pieces; ++i) {
    indices[i] = static_cast<int>(static_cast<long long>(i) * ivms / pieces);
  }
  return indices;
}

std::vector<int> min_steal_digits(int n, double min_leaves) {
  mpz_class value;
  if (min_leaves > 0) {
    value = mpz_class(min_leaves);
  } else {
    const int k = std::clamp(n - 5, 2, 8);
    value = factorial(k);
  }
  if (value < 2) value = 2;
  if (value > factorial(n)) value = factorial(n);
  std::vector<int> digits(n, 0);
  from_mpz(value, n, digits.data());
  return digits;
}

}  // namespace permbb::gpu
