#pragma once
// The two flowshop targets (plain and VRF files) share the reader and what it promises: a
// refusal is an InputError naming the file, an accepted instance is within the limits and
// reads back the same from what `permbb instance` prints (format_plain).
#include <optional>
#include <string>
#include <string_view>

#include "flowshop_types.hpp"
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "instance.hpp"
#include "instance_source.hpp"

namespace permbb::fuzz {

// The name the fuzzed text is read under; the instance is named after its stem.
inline const std::string kInstancePath = "fuzzed.txt";

inline std::optional<Instance> read_or_refuse(std::string_view text) {
  return decode_or_refuse<InputError>(
      [&] { return parse_instance_text(text, kInstancePath); },
      [](std::string_view message) { check_one_line_naming(message, kInstancePath + ":"); });
}

inline void check_same_instance(const Instance& a, const Instance& b, const char* what) {
  check(a.name() == b.name() && a.jobs() == b.jobs() && a.machines() == b.machines() &&
            a.times() == b.times(),
        what);
}

inline void check_within_limits(const Instance& x) {
  check(x.name() == "fuzzed", "the instance is not named after the file's stem");
  check(x.jobs() >= 1 && x.jobs() <= kMaxJobs && x.machines() >= 1 && x.machines() <= kMaxMachines,
        "accepted sizes out of range");
  check(x.times().size() == static_cast<std::size_t>(x.jobs()) * x.machines(),
        "the times do not fill jobs x machines");
  std::int64_t total = 0;
  for (const Time t : x.times()) {
    check(t >= 0 && t <= kMaxProcessingTime, "accepted time out of range");
    total += t;
  }
  check(total < kInfiniteTime, "accepted total processing time does not fit");
}

// format_plain, read again: the same instance.
inline void check_plain_round_trip(const Instance& x) {
  const std::optional<Instance> again = read_or_refuse(format_plain(x));
  check(again.has_value(), "format_plain wrote an instance the reader refuses");
  check_same_instance(x, *again, "format_plain does not read back as the same instance");
}

}  // namespace permbb::fuzz
