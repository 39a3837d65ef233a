#pragma once
#include <vector>

#include "flowshop_view.hpp"
#include "instance.hpp"

namespace permbb {

// Owns the arrays behind a FlowshopView, built once per instance: job-major times and the
// minimal heads and tails that replace an empty prefix or suffix in LB1 (2022 §2.4; the
// detail Figure 3 leaves out, on which the published tree sizes depend).
class FlowshopTables {
 public:
  explicit FlowshopTables(const Instance& instance);

  FlowshopView view() const;
  int jobs() const { return jobs_; }
  int machines() const { return machines_; }
  const std::vector<Time>& times_by_job() const { return times_by_job_; }
  const std::vector<Time>& min_heads() const { return min_heads_; }
  const std::vector<Time>& min_tails() const { return min_tails_; }
  const std::vector<Time>& total_times() const { return total_times_; }

 private:
  int jobs_;
  int machines_;
  std::vector<Time> times_by_job_;
  std::vector<Time> min_heads_;
  std::vector<Time> min_tails_;
  std::vector<Time> total_times_;
};

}  // namespace permbb
