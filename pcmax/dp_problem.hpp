#pragma once
// Everything one DP needs: the table's shape, the configurations and the saturation limit.
// Built by the PTAS for one target T (ptas.cpp) or directly from class counts (the tests).
#include <cstdint>
#include <vector>

#include "config_set.hpp"
#include "run_control.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

struct DpProblem {
  // limit: entries saturate there (machines + 1, or fewer); 1 <= limit < 2^32 - 1. Throws
  // RunStopped when `control` asks for a stop while the configurations are enumerated.
  DpProblem(const std::vector<ClassCount>& classes, std::uint64_t capacity, std::uint32_t limit,
            std::uint64_t max_configurations, const RunControl* control = nullptr);

  TableShape shape;
  ConfigSet configs;
  std::uint32_t limit;

  // The narrowest entry that holds 0..limit: 1, 2 or 4 bytes.
  int entry_bytes() const;
};

int entry_bytes_for_limit(std::uint32_t limit);

}  // namespace permbb::pcmax
