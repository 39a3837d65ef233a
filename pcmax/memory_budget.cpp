#include "memory_budget.hpp"

#include <unistd.h>

#include <cstdio>

namespace permbb::pcmax {

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t default_table_memory_limit() {
  const std::uint64_t physical = physical_memory_bytes();
  return physical == 0 ? std::uint64_t{1} << 30 : physical / 4 * 3;
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(text, sizeof text, "%.3g %s", value, kUnits[unit]);
  }
  return text;
}

}  // namespace permbb::pcmax
