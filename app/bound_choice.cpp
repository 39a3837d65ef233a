#include "bound_choice.hpp"

namespace permbb::app {

// Measured (docs/performance.md): at the optimum, LB1 was fastest in time on every class
// tried, on both engines: 20x5 and 20x10 (ta001-ta013) and VRF 10x15, 20x5, 20x10, 30x5 on
// one CPU core (LB2 decomposes 2-5x fewer nodes but costs 10-30x more per node), and 20x20
// (ta021-ta030) on the H100 (LB1 4-50x faster than lb2 and lb1+lb2). Two machines are the
// exception by theory: LB2's single pair is Johnson's rule, exact, so the root bound is the
// optimum.
BoundKind recommended_bound(const Instance& instance) {
  return instance.machines() == 2 ? BoundKind::kLb2 : BoundKind::kLb1;
}

BoundKind bound_for(const std::string& name, const Instance& instance) {
  return name == "auto" ? recommended_bound(instance) : parse_bound_kind(name);
}

}  // namespace permbb::app
