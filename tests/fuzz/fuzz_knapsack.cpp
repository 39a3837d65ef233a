// Fuzz target: knapsack instance files (knapsack/knapsack_file.hpp). A refusal is an
// InputError naming the file; an accepted instance passes validate_instance (what the solvers
// rely on) and reads back the same from format_knapsack_file.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "knapsack_file.hpp"
#include "knapsack_instance.hpp"

namespace permbb::fuzz {
namespace {

namespace ks = permbb::knapsack;

const std::string kPath = "fuzzed.knap";

std::optional<ks::KnapsackInstance> read_or_refuse(std::string_view text) {
  return decode_or_refuse<InputError>(
      [&] { return ks::parse_knapsack_text(text, kPath); },
      [](std::string_view message) { check_one_line_naming(message, kPath + ":"); });
}

void check_valid(const ks::KnapsackInstance& x) {
  check(x.name == "fuzzed", "the instance is not named after the file's stem");
  check_no_exception([&] { ks::validate_instance(x); },
                     "the reader accepted an instance validate_instance refuses");
}

void check_round_trip(const ks::KnapsackInstance& x) {
  const auto again = read_or_refuse(ks::format_knapsack_file(x));
  check(again.has_value(), "format_knapsack_file wrote an instance the reader refuses");
  check(again->name == x.name && again->capacity == x.capacity && again->profits == x.profits &&
            again->weights == x.weights,
        "format_knapsack_file does not read back as the same instance");
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
