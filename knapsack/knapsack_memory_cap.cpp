#include "knapsack_memory_cap.hpp"

#include <unistd.h>

#include <algorithm>

namespace permbb::knapsack {

std::int64_t host_bytes_per_slot(int words_per_node) {
  return 4 * 8 + 4 + 8 * static_cast<std::int64_t>(words_per_node);
}

std::int64_t list_slots_for_memory(std::int64_t memory_bytes, double fraction,
                                   std::int64_t bytes_per_slot) {
  const double slots = fraction * static_cast<double>(memory_bytes) /
                       static_cast<double>(std::max<std::int64_t>(1, bytes_per_slot));
  if (!(slots >= 2)) return 2;
  if (slots >= static_cast<double>(kMaxListSlots)) return kMaxListSlots;
  return static_cast<std::int64_t>(slots);
}

std::int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::int64_t>(pages) * page_size;
}

}  // namespace permbb::knapsack
