// Fuzz target: P||Cmax instance files (pcmax/pcmax_instance.hpp). A refusal is an InputError
// naming the file; an accepted instance passes validate_instance (the PTAS's limits) and reads
// back the same from format_instance.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "pcmax_instance.hpp"

namespace permbb::fuzz {
namespace {

namespace pc = permbb::pcmax;

const std::string kPath = "fuzzed.pcmax";

std::optional<pc::PcmaxInstance> read_or_refuse(std::string_view text) {
  return decode_or_refuse<InputError>(
      [&] { return pc::parse_instance_text(text, kPath); },
      [](std::string_view message) { check_one_line_naming(message, kPath + ":"); });
}

void check_valid(const pc::PcmaxInstance& x) {
  check(x.name == "fuzzed", "the instance is not named after the file's stem");
  check_no_exception([&] { pc::validate_instance(x, kPath); },
                     "the reader accepted an instance validate_instance refuses");
}

void check_round_trip(const pc::PcmaxInstance& x) {
  const auto again = read_or_refuse(pc::format_instance(x));
  check(again.has_value(), "format_instance wrote an instance the reader refuses");
  check(again->name == x.name && again->machines == x.machines && again->times == x.times,
        "format_instance does not read back as the same instance");
}

}  // namespace
}  // namespace permbb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb::fuzz;
  if (const auto instance = read_or_refuse(as_text(data, size))) {
    check_valid(*instance);
    check_round_trip(*instance);
  }
  return 0;
}
