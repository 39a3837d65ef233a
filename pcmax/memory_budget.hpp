#pragma once
// How much host memory the DP tables of one bisection round may take, and sizes in words.
#include <cstdint>
#include <string>

namespace permbb::pcmax {

// Physical memory of this machine (0 if the system does not say).
std::uint64_t physical_memory_bytes();

// The default limit on the tables held at once: three quarters of physical memory (1 GiB
// if that is unknown).
std::uint64_t default_table_memory_limit();

// "1.5 GiB", "512 B": binary units, three significant digits.
std::string format_bytes(std::uint64_t bytes);

}  // namespace permbb::pcmax
