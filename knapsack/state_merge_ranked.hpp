#pragma once
#include "decision_arena.hpp"
#include "state_list.hpp"

namespace permbb::knapsack {

// merge_with_move in its data-parallel form, on the host: the steps of the GPU merge
// (gpu/device_state_merge.cu) as plain loops, each over candidates independent of one another
// but for two running maxima (state_merge_rules.hpp): every candidate placed by a binary
// search, the running maxima of the profits before it (all, and the feasible ones), each
// candidate judged alone, the kept ones gathered in order. The same states, arena nodes and
// outcome as merge_with_move: the reference the GPU merge is tested against, and a test of the
// rules' claim that the one pass and the parallel steps agree.
MergeOutcome merge_with_move_ranked(const StateList& in, const CoreMove& move,
                                    const MergeBounds& bounds, DecisionArena& arena,
                                    StateList& out);

}  // namespace permbb::knapsack
