#pragma once
// A quick packing for one target C, tried before the exact search: machine after machine, the
// longest unplaced job and the set of other unplaced jobs that fills the rest of the machine
// the most (a subset-sum table over the capacity left). This is the greedy of bin completion
// (Korf 2002: each bin completed as full as it can be) without any backtracking. When it
// places every job on at most m machines, C is feasible; otherwise it says nothing.
#include <cstdint>
#include <optional>

#include "pcmax_instance.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {

// A schedule with every load at most `capacity`, or nothing. Gives up (nothing) when one
// table would exceed `max_cells` cells (jobs × capacity).
std::optional<PcmaxSchedule> pack_fullest_bins(const PcmaxInstance& instance, Duration capacity,
                                               std::int64_t max_cells = std::int64_t{1} << 26);

}  // namespace permbb::pcmax
