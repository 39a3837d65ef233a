#include "work_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "cascade_gaps.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::scale {
namespace {

// 64-bit counts as GMP integers (unsigned long is 64 bits on the LP64 systems permbb builds on).
static_assert(sizeof(unsigned long) == sizeof(std::uint64_t));
mpz_class big(std::uint64_t value) {
  return mpz_class(static_cast<unsigned long>(value));
}

// Log-normal weights scaled to sum to `nodes` exactly: floors, then the remainder one by one
// to the heaviest bins.
// The cascade's factors (WorkModelShape::cascade): the range [first, first + count) of the
// bins gets `mass`, split w : 1 - w between its halves, down to single bins. The gap's draw
// is made only with gaps, so that a cascade without them draws the weights it always drew.
struct OuterCascade {
  double spread;
  double gaps;
};

void cascade_weights(std::vector<double>& weight, std::size_t first, std::size_t count,
                     double mass, const OuterCascade& cascade, std::mt19937_64& rng) {
  if (count == 1) {
    weight[first] *= mass;
    return;
  }
  std::uniform_real_distribution<double> share(0.5 - cascade.spread, 0.5 + cascade.spread);
  double w = share(rng);
  if (cascade.gaps > 0) {
    w = with_gap(w, std::uniform_real_distribution<double>()(rng), cascade.gaps);
  }
  cascade_weights(weight, first, count / 2, mass * w, cascade, rng);
  cascade_weights(weight, first + count / 2, count - count / 2, mass * (1 - w), cascade, rng);
}

std::vector<std::uint64_t> bin_nodes(const WorkModelShape& shape) {
  std::mt19937_64 rng(shape.seed);
  std::normal_distribution<double> normal(0.0, shape.sigma);
  std::vector<double> weight(static_cast<std::size_t>(shape.bins));
  for (double& w : weight) w = std::exp(normal(rng));
  if (shape.cascade > 0 || shape.cascade_gaps > 0) {
    cascade_weights(weight, 0, weight.size(), 1.0, {shape.cascade, shape.cascade_gaps}, rng);
  }
  const double sum = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::vector<std::uint64_t> nodes(weight.size());
  std::uint64_t given = 0;
  for (std::size_t b = 0; b < weight.size(); ++b) {
    nodes[b] = static_cast<std::uint64_t>(
        std::floor(static_cast<long double>(shape.nodes) * weight[b] / sum));
    given += nodes[b];
  }
  std::vector<std::size_t> heaviest(weight.size());
  std::iota(heaviest.begin(), heaviest.end(), 0);
  std::sort(heaviest.begin(), heaviest.end(),
            [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  for (std::size_t k = 0; given < shape.nodes; k = (k + 1) % heaviest.size()) {
    ++nodes[heaviest[k]];
    ++given;
  }
  return nodes;
}

// A non-negative integer below 2^128 as an Offset, and back.
Offset to_offset(const mpz_class& x) {
  std::uint64_t words[2] = {0, 0};
  std::size_t count = 0;
  mpz_export(words, &count, -1, sizeof(std::uint64_t), 0, 0, x.get_mpz_t());
  return (Offset(words[1]) << 64) | words[0];
}

mpz_class from_offset(Offset x) {
  const std::uint64_t words[2] = {static_cast<std::uint64_t>(x),
                                  static_cast<std::uint64_t>(x >> 64)};
  mpz_class out;
  mpz_import(out.get_mpz_t(), 2, -1, sizeof(std::uint64_t), 0, 0, words);
  return out;
}

int bits(std::uint64_t x) { return x == 0 ? 0 : 64 - __builtin_clzll(x); }

}  // namespace

WorkModel::WorkModel(const WorkModelShape& shape)
    : jobs_(shape.jobs), space_(factorial(shape.jobs)) {
  if (shape.bins < 1 || shape.jobs < 2 || space_ < shape.bins) {
    throw std::invalid_argument("work model: needs 2 jobs or more and at most jobs! bins");
  }
  if (shape.cascade < 0 || shape.cascade >= 0.5) {
    throw std::invalid_argument("work model: the cascade's spread lies in [0, 0.5)");
  }
  if (shape.cascade_gaps < 0 || shape.cascade_gaps > 1 || shape.inner_gaps < 0 ||
      shape.inner_gaps > 1) {
    throw std::invalid_argument("work model: the cascades' gaps are chances, in [0, 1]");
  }
  const std::vector<std::uint64_t> nodes = bin_nodes(shape);
  cumulative_.assign(nodes.size() + 1, 0);
  std::partial_sum(nodes.begin(), nodes.end(), cumulative_.begin() + 1);
  boundaries_.reserve(nodes.size() + 1);
  for (int bin = 0; bin < shape.bins; ++bin) boundaries_.push_back(space_ * bin / shape.bins);
  boundaries_.push_back(space_);
  inner_ = {shape.inner_spread, shape.inner_levels, shape.seed, shape.inner_gaps};
  if (inner_.uneven()) check_inner_cascade(shape);
}

// The inner cascade computes in Offsets: a bin's length, and at its last level a range's
// length times its nodes, must fit.
void WorkModel::check_inner_cascade(const WorkModelShape& shape) const {
  if (inner_.spread >= 0.5 || inner_.levels < 8 || inner_.levels > 62) {
    throw std::invalid_argument("work model: the inner cascade's spread lies in [0, 0.5) and "
                                "its levels in [8, 62]");
  }
  const int length_bits = static_cast<int>(mpz_sizeinbase(mpz_class(boundaries_[1]).get_mpz_t(), 2)) + 1;
  const std::uint64_t most = *std::max_element(cumulative_.begin() + 1, cumulative_.end());
  if (length_bits > 120 || length_bits - inner_.levels + bits(most) > 126) {
    throw std::invalid_argument("work model: bins of " + std::to_string(length_bits) +
                                " bits are too long for an inner cascade of " +
                                std::to_string(inner_.levels) + " levels; use more bins or levels (" +
                                std::to_string(shape.bins) + " bins)");
  }
}

int WorkModel::bin_of(const mpz_class& p) const {
  // The last bin that begins at or before p.
  const auto after = std::upper_bound(boundaries_.begin(), boundaries_.end() - 1, p);
  return static_cast<int>(after - boundaries_.begin()) - 1;
}

std::uint64_t WorkModel::nodes_before(const mpz_class& p) const {
  if (p <= 0) return 0;
  if (p >= space_) return total_nodes();
  const int bin = bin_of(p);
  const mpz_class begin = bin_begin(bin);
  const mpz_class length = bin_begin(bin + 1) - begin;
  const std::uint64_t weight = nodes_of_bin(bin);
  if (inner_.uneven()) {
    return cumulative_[bin] + inner_nodes_before(inner_, static_cast<std::uint64_t>(bin),
                                                 to_offset(length), weight,
                                                 to_offset(mpz_class(p - begin)));
  }
  mpz_class within = mpz_class(p - begin) * big(weight);
  within /= length;
  return cumulative_[bin] + within.get_ui();
}

mpz_class WorkModel::advance(const mpz_class& from, std::uint64_t nodes,
                             const mpz_class& limit) const {
  if (nodes == 0) return from;
  const std::uint64_t target = nodes_before(from) + nodes;
  if (nodes_before(limit) < target) return limit;
  // The bin in which the count reaches `target`: cumulative_[bin] < target <= [bin + 1].
  const auto at = std::lower_bound(cumulative_.begin(), cumulative_.end(), target);
  const int bin = static_cast<int>(at - cumulative_.begin()) - 1;
  const mpz_class begin = bin_begin(bin);
  const mpz_class length = bin_begin(bin + 1) - begin;
  if (inner_.uneven()) {
    const Offset step = inner_advance(inner_, static_cast<std::uint64_t>(bin), to_offset(length),
                                      nodes_of_bin(bin), target - cumulative_[bin]);
    mpz_class q = begin + from_offset(step);
    if (q < from) q = from;
    return q < limit ? q : limit;
  }
  const mpz_class weight = big(nodes_of_bin(bin));
  // The least q with floor(weight * (q - begin) / length) >= target - cumulative_[bin].
  mpz_class steps = big(target - cumulative_[bin]) * length;
  mpz_cdiv_q(steps.get_mpz_t(), steps.get_mpz_t(), weight.get_mpz_t());
  mpz_class q = begin + steps;
  if (q < from) q = from;
  return q < limit ? q : limit;
}

}  // namespace permbb::scale
