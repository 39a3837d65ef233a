#include "engine_choice.hpp"

#include "job_rounding.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

std::uint64_t table_entries_at_lower_bound(const PcmaxInstance& instance, int k) {
  const RoundedJobs rounded = round_jobs(instance.times, simple_lower_bound(instance), k);
  if (rounded.long_jobs() <= instance.machines) return 0;
  return TableShape::table_entries(class_counts(rounded));
}

}  // namespace permbb::pcmax
