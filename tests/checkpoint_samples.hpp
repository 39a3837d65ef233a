#pragma once
// A small global checkpoint of a 5-job instance (5! = 120) with every field set to something
// recognisable, for the checkpoint file's tests and the check against an instance.
#include <gmpxx.h>

#include <cstdint>

#include "checkpoint_file.hpp"

namespace permbb::testing {

inline GlobalCheckpoint small_checkpoint(std::uint64_t tag = 1) {
  const auto interval = [](long begin, long end) {
    return Interval{mpz_class(begin), mpz_class(end)};
  };
  GlobalCheckpoint c;
  c.instance_name = "ta-small";
  c.instance_fingerprint = 0x0123456789ABCDEFULL + tag;
  c.jobs = 5;
  c.machines = 3;
  c.settings = SearchSettings{BoundKind::kLb2, BranchingRule::kMaxSum};
  c.initial_ub = 400;
  c.initial_ub_origin = "neh";
  c.best_makespan = 377;
  c.best_permutation = {4, 0, 2, 1, 3};
  c.unassigned = {WorkUnit(7, {interval(0, 10), interval(12, 20)}), WorkUnit(9, {})};
  c.active = {WorkUnit(3, {interval(30, 31), interval(100, 120)})};
  c.statistics = CheckpointStatistics{123456789012ULL + tag, 98765, 0.1, 1e300, 2.5, 4, 77, 12};
  c.written_at = 42;  // ignored by save
  return c;
}

}  // namespace permbb::testing
