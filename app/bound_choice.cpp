#include "bound_choice.hpp"

namespace permbb::app {

// Measured (docs/performance.md, "Which bound for which class"): at the optimum, LB1 was
// fastest in time on every class tried. On the CPU, re-measured after its LB2 shared a node's
// work between the children (10-23x LB1's cost per node, where it was 100x and more), on one
// thread and on 2: 20x10 (ta011-ta020 less ta017; lb1 3x faster than lb1+lb2 and
// lb2-adjacent, 5x than lb2) and 20x20 (ta030: 5x faster than lb1+lb2); 20x5 (ta001-ta010)
// is a tie in milliseconds; LB2 decomposes only 1.8-6x fewer nodes. On the GPU, 20x20
// (ta021-ta030), re-measured on an H200 after its LB2 became 2.7x (lb2) and 5x (lb1+lb2)
// faster: LB1 7.2 s for the class, lb1+lb2 15.2 s, lb2 24 s. Two machines are the exception
// by theory: LB2's single pair is Johnson's rule, exact, so the root bound is the optimum.
BoundKind recommended_bound(const Instance& instance) {
  return instance.machines() == 2 ? BoundKind::kLb2 : BoundKind::kLb1;
}

BoundKind bound_for(const std::string& name, const Instance& instance) {
  return name == "auto" ? recommended_bound(instance) : parse_bound_kind(name);
}

}  // namespace permbb::app
