#pragma once
#include <vector>

#include "flowshop_view.hpp"
#include "instance.hpp"

namespace permbb {

// A node of the bi-directional search tree (2022 §2.2): the jobs fixed at the front (prefix,
// in order) and at the back (suffix, in order); the other jobs are unscheduled. The root has
// both empty. The truncated branch-and-bound and the beam search start from one.
struct PartialSchedule {
  std::vector<int> prefix;
  std::vector<int> suffix;
};

// Throws std::invalid_argument naming `what` unless `permutation` holds every job of the
// instance exactly once.
void require_complete_permutation(const Instance& instance, const std::vector<int>& permutation,
                                  const char* what);

// Throws std::invalid_argument unless the prefix and suffix hold valid, distinct jobs.
void require_valid_node(const Instance& instance, const PartialSchedule& node);

// The jobs of neither the prefix nor the suffix, in the order they appear in `order` (a
// permutation of all the jobs): the IVM row order biased by a start solution.
std::vector<int> unscheduled_jobs(const Instance& instance, const PartialSchedule& node,
                                  const std::vector<int>& order);

// The LB1 summary of the node (lb1.hpp): front (completion times of the prefix, min_heads
// when empty), back (tails of the suffix, min_tails when empty) and remain (times of the
// unscheduled jobs), each `machines` long.
void summarize_node(const FlowshopView& view, const PartialSchedule& node, Time* front, Time* back,
                    Time* remain);

}  // namespace permbb
