#include "bound_choice.hpp"

namespace permbb::solve {

// Measured (docs/performance.md, "Which bound for which class"): at the optimum, LB1 was
// fastest in time on every class tried, on one CPU thread, on all cores and on the GPU. On
// the CPU, after its LB2 shared a node's work between the children (10-23x LB1's cost per
// node, where it was 100x and more): 20x10 (ta011-ta020 less ta017; lb1 3x faster than
// lb1+lb2 and lb2-adjacent, 5x than lb2), 20x20 (ta030: 5x faster than lb1+lb2), and 50x10 up
// to 500x20 (lb1 2.9-6.8x faster than lb1+lb2: LB2 decomposes only 1.03-1.1x fewer nodes on
// 50x10 and the 20-machine classes); 20x5, 50x5 and 100x5 are ties in milliseconds. On an
// H200, 20x20 (ta021-ta030) after the GPU's LB2 became 2.9x (lb2) and 5x (lb1+lb2) faster:
// LB1 7.2 s for the class, lb1+lb2 15.3 s, lb2 22.8 s; 50x10 to 500x20: lb1 1.1-7x faster
// than lb1+lb2. Two machines are the exception by theory: LB2's single pair is Johnson's
// rule, exact, so the root bound is the optimum.
BoundKind recommended_bound(const Instance& instance) {
  return instance.machines() == 2 ? BoundKind::kLb2 : BoundKind::kLb1;
}

BoundKind bound_for(const std::string& name, const Instance& instance) {
  return name == "auto" ? recommended_bound(instance) : parse_bound_kind(name);
}

}  // namespace permbb::solve
