// Fuzz target: flowshop instance files, seeded with plain ones (m rows of n times).
#include <cstddef>
#include <cstdint>

#include "flowshop_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb::fuzz;
  if (const auto instance = read_or_refuse(as_text(data, size))) {
    check_within_limits(*instance);
    check_plain_round_trip(*instance);
  }
  return 0;
}
