#pragma once
// Where the nodes of a search lie in its space [0, n!) of leaves: a stand-in for the tree a
// real explorer would meet, so that simulated workers explore intervals of unequal cost.
//
// The space is cut into `bins` equal ranges; bin b holds w_b nodes, drawn log-normal (a few
// bins hold most of the tree, as the subtrees of a B&B do at the optimum) and scaled so that
// they sum to the workload's node count exactly. Within a bin the nodes are spread evenly.
// nodes_before(p) is an exact integer and monotone in p, so however the space is cut into
// intervals and explored, the nodes counted add up to the total exactly (the counting rule of
// docs/architecture.md, with this model in place of the tree).
//
// Limits: no correlation between neighbouring bins beyond the cascades' (when asked for), and
// no dependence on the upper bound (the workloads are proofs at C*: the bound never changes).
// A bin's nodes are spread evenly unless the inner cascade (inner_cascade.hpp) is asked for.
#include <cstdint>
#include <vector>

#include <gmpxx.h>

#include "inner_cascade.hpp"

namespace permbb::scale {

struct WorkModelShape {
  int jobs = 30;            // the space is [0, jobs!)
  std::uint64_t nodes = 0;  // the workload's node count
  int bins = 1 << 16;       // resolution of the profile
  double sigma = 2.0;       // spread of log(w_b): 0 is uniform, 2 heavy-tailed
  // A multiplicative cascade on top (0: none; bins a power of two): each range is halved down
  // to the bins, and its nodes split w : 1 - w between the halves, w drawn uniformly from
  // [0.5 - cascade, 0.5 + cascade]. Neighbouring bins are then alike at every scale, as the
  // subtrees of a tree are, and halving an interval moves a share of its nodes near w.
  double cascade = 0;
  // The chance that a level of that cascade leaves one half of its range without nodes
  // (cascade_gaps.hpp): whole ranges of bins pruned near their root. 0: none.
  double cascade_gaps = 0;
  std::uint64_t seed = 1;
  // The nodes' layout inside each bin (inner_cascade.hpp): 0 spreads them evenly.
  double inner_spread = 0;
  int inner_levels = 48;
  double inner_gaps = 0;  // the same gaps inside each bin
};

class WorkModel {
 public:
  explicit WorkModel(const WorkModelShape& shape);

  int jobs() const { return jobs_; }
  const mpz_class& space() const { return space_; }
  std::uint64_t total_nodes() const { return cumulative_.back(); }

  // The nodes at positions below p (0 at 0, total_nodes() at space()).
  std::uint64_t nodes_before(const mpz_class& p) const;
  // The nodes of [begin, end).
  std::uint64_t nodes_in(const mpz_class& begin, const mpz_class& end) const {
    return nodes_before(end) - nodes_before(begin);
  }
  // The lowest position q in [from, limit] with nodes_in(from, q) >= nodes (limit when the
  // interval holds fewer): where an explorer that starts at `from` stands after `nodes`.
  mpz_class advance(const mpz_class& from, std::uint64_t nodes, const mpz_class& limit) const;

 private:
  int bin_of(const mpz_class& p) const;
  void check_inner_cascade(const WorkModelShape& shape) const;
  std::uint64_t nodes_of_bin(int bin) const { return cumulative_[bin + 1] - cumulative_[bin]; }
  const mpz_class& bin_begin(int bin) const { return boundaries_[bin]; }

  int jobs_;
  mpz_class space_;
  std::vector<mpz_class> boundaries_;      // where each bin begins; space_ at the end
  std::vector<std::uint64_t> cumulative_;  // nodes before each bin; total_nodes() at the end
  InnerCascade inner_;
};

}  // namespace permbb::scale
