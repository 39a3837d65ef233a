// Fuzz target: flowshop instance files, seeded with VRF ones (n rows of m machine-time pairs).
// Besides the shared properties, an accepted instance written in the VRF layout, with each
// job's pairs in another order and CRLF line ends (as the published files have), reads back
// the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "flowshop_fuzz.hpp"

namespace permbb::fuzz {
namespace {

// The VRF text of an instance: job j's pairs start at machine (j + shift) mod m. Written
// here, apart from the reader, as the project has no VRF writer.
std::string vrf_text(const Instance& x, int shift) {
  const int m = x.machines();
  std::string text = std::to_string(x.jobs()) + " " + std::to_string(m) + "\r\n";
  for (int job = 0; job < x.jobs(); ++job) {
    for (int k = 0; k < m; ++k) {
      const int machine = (job + shift + k) % m;
      if (k > 0) text += "  ";
      text += std::to_string(machine) + " " + std::to_string(x.time(machine, job));
    }
    text += "\r\n";
  }
  return text;
}

void check_vrf_round_trip(const Instance& x, int shift) {
  const auto again = read_or_refuse(vrf_text(x, shift));
  check(again.has_value(), "the reader refuses the VRF text of an instance it accepted");
  check_same_instance(x, *again, "the VRF text of an instance reads back as another one");
}

}  // namespace
}  // namespace permbb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb::fuzz;
  if (const auto instance = read_or_refuse(as_text(data, size))) {
    check_within_limits(*instance);
    check_plain_round_trip(*instance);
    check_vrf_round_trip(*instance, static_cast<int>(size % 7));
  }
  return 0;
}
