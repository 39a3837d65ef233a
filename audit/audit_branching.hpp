#pragma once
// The branching rules as docs/branching.md defines them: a node's children either all add a
// job to the prefix (forward) or all add one before the suffix (backward); the rule picks
// the side from the branching bounds of both children sets.
//   minmin           the side in which the smallest bound of both sets occurs fewer times;
//                    on a tie, the side with the larger sum of bounds; then forward
//   minmin-fwd-ties  the same, ties forward
//   maxsum           the side with the larger sum of bounds, ties forward
//   fwd, bwd         always forward, always backward
#include <string>
#include <vector>

#include "audit_bounds.hpp"

namespace permbb::audit {

enum class Side { kFront, kBack };

Side choose_side(const std::string& rule, const std::vector<Time>& front_bounds,
                 const std::vector<Time>& back_bounds);

// The side a node branches to: its children's branching bounds, then the rule.
Side branching_side(const TextbookBounds& bounds, const std::string& rule, const Sides& node);

}  // namespace permbb::audit
