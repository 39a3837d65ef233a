#include "flowshop_tables.hpp"

#include <algorithm>

namespace permbb {

FlowshopTables::FlowshopTables(const Instance& instance)
    : jobs_(instance.jobs()),
      machines_(instance.machines()),
      times_by_job_(static_cast<size_t>(jobs_) * machines_),
      min_heads_(machines_, kInfiniteTime),
      min_tails_(machines_, kInfiniteTime),
      total_times_(machines_, 0) {
  for (int j = 0; j < jobs_; ++j) {
    for (int k = 0; k < machines_; ++k) {
      times_by_job_[j * machines_ + k] = instance.time(k, j);
      total_times_[k] += instance.time(k, j);
    }
  }
  for (int j = 0; j < jobs_; ++j) {
    Time head = 0;
    for (int k = 0; k < machines_; ++k) {
      min_heads_[k] = std::min(min_heads_[k], head);
      head += instance.time(k, j);
    }
    Time tail = 0;
    for (int k = machines_ - 1; k >= 0; --k) {
      min_tails_[k] = std::min(min_tails_[k], tail);
      tail += instance.time(k, j);
    }
  }
}

FlowshopView FlowshopTables::view() const {
  FlowshopView v;
  v.jobs = jobs_;
  v.machines = machines_;
  v.times_by_job = times_by_job_.data();
  v.min_heads = min_heads_.data();
  v.min_tails = min_tails_.data();
  v.total_times = total_times_.data();
  return v;
}

}  // namespace permbb
