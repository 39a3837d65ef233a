#pragma once
// Cut records as a failed expectation prints them (gtest finds PrintTo by argument-dependent
// lookup): the depth, then one record per line, instead of their bytes.
#include <ostream>

#include "cut_record.hpp"

namespace permbb {

inline void PrintTo(const CutRecord& r, std::ostream* os) {
  *os << "path";
  for (const std::int16_t step : r.path) {
    *os << ' ' << step_job(step) << (step_direction(step) == 0 ? 'f' : 'b');
  }
  if (r.pruned) {
    *os << ": pruned, bound " << r.bound << ", surplus " << r.nodes.decomposed;
  } else {
    *os << ": nodes " << r.nodes.decomposed << ", leaves " << r.nodes.leaves << ", ub "
        << r.ub_start << ".." << r.ub_end << ", best " << r.best;
  }
}

inline void PrintTo(const CutRecords& c, std::ostream* os) {
  *os << "depth " << c.depth << ", " << c.records.size() << " records";
  for (const CutRecord& r : c.records) {
    *os << "\n  ";
    PrintTo(r, os);
  }
}

}  // namespace permbb
