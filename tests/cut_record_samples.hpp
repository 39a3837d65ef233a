#pragma once
// A small cut of a 5-job tree at depth 2 for the codecs' tests (checkpoint files, WORK
// reports and farewells): one explored subproblem (jobs 3 front, 1 back), one pruned node
// above the cut (job 4 back), in the order of their paths.
#include "cut_record.hpp"

namespace permbb::testing {

inline CutRecords two_cut_records() {
  CutRecord explored;
  explored.path = {cut_step(3, 0), cut_step(1, 1)};
  explored.nodes = {17, 5};
  explored.ub_start = 400;
  explored.ub_end = 390;
  explored.best = 391;
  CutRecord pruned;
  pruned.path = {cut_step(4, 1)};
  pruned.pruned = true;
  pruned.bound = 402;
  return CutRecords{2, {explored, pruned}};
}

}  // namespace permbb::testing
