#pragma once
// Empty ranges in the work model's cascades (work_model.hpp, inner_cascade.hpp). A real B&B
// tree prunes whole subtrees near their root: a range of permutations orders of magnitude
// longer than those holding the work holds (almost) no nodes, at every scale. Without gaps a
// cascade's halves differ by a bounded factor, so the intervals a GPU's IVMs hold stay within
// a few halvings of each other and the mean steal rule never starves (docs/scale.md, "one
// thin GPU"). With gaps, at each level of a cascade, with probability `gaps`, one half of a
// range gets none of its nodes. Counts stay exact: the other half gets them all.

namespace permbb::scale {

// The left half's share of a range's nodes: `w` as the cascade drew it, or 0 or 1 when `u`
// (uniform in [0, 1), drawn apart from w) falls below `gaps`, each side as likely.
inline double with_gap(double w, double u, double gaps) {
  if (u >= gaps) return w;
  return u < gaps / 2 ? 0.0 : 1.0;
}

}  // namespace permbb::scale
