// Fuzz target: the checkpoint file decoder (checkpoint/checkpoint_file.hpp). An input that
// starts with a zero byte is a payload: the target puts a valid header before the rest
// (magic, version, length, CRC-64), so that mutations reach the payload decoder instead of
// failing the checksum. Any other input is a whole file.
//
// A refusal is an InputError naming the file. A decoded checkpoint of the current format
// re-encodes to the very bytes it came from (one of an older format, to current-format bytes
// that read back to themselves), and holds what a restart relies on: sizes in range, the best
// permutation empty or a permutation of the jobs, a best makespan not above the initial bound,
// every unit sorted, non-empty and inside [0, n!], no two intervals of any units overlapping.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_buffer.hpp"
#include "checkpoint_file.hpp"
#include "crc64.hpp"
#include "factoradic_mpz.hpp"
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "interval_checks.hpp"

namespace permbb::fuzz {
namespace {

const std::string kName = "checkpoint 'fuzzed.ckpt'";

std::vector<std::uint8_t> file_bytes(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || data[0] != 0) return {data, data + size};
  const std::uint8_t* payload = data + 1;
  const std::size_t length = size - 1;
  ByteWriter file;
  file.put_bytes(kCheckpointMagic, sizeof(kCheckpointMagic));
  file.put(kCheckpointFormatVersion);
  file.put(static_cast<std::uint64_t>(length));
  file.put(crc64(payload, length));
  file.put_bytes(payload, length);
  return std::move(file.bytes());
}

void check_consistent(const GlobalCheckpoint& c) {
  check(c.format_version >= kOldestCheckpointFormatVersion &&
            c.format_version <= kCheckpointFormatVersion,
        "decoded an unknown format version");
  check(c.format_version > 1 || c.written_by.empty(), "a format 1 checkpoint names its writer");
  check(c.jobs >= 1 && c.jobs <= kMaxJobs && c.machines >= 1 && c.machines <= kMaxMachines,
        "decoded sizes out of range");
  const std::size_t k = c.best_permutation.size();
  check(k == 0 || k == static_cast<std::size_t>(c.jobs), "the best permutation has a wrong size");
  std::vector<bool> seen(k, false);
  for (const int job : c.best_permutation) {
    check(job >= 0 && static_cast<std::size_t>(job) < k && !seen[job],
          "the best permutation is not a permutation");
    seen[job] = true;
  }
  check(c.best_makespan <= c.initial_ub, "the best makespan is above the initial bound");
  const mpz_class limit = factorial(c.jobs);
  std::vector<Interval> all;
  for (const auto* list : {&c.unassigned, &c.active}) {
    for (const WorkUnit& unit : *list) {
      check_sorted_disjoint(unit.intervals(), "a unit's intervals are not sorted and disjoint");
      check_inside(unit.intervals(), limit, "a unit leaves [0, n!]");
      check(unit.size() == summed_lengths(unit.intervals()),
            "a unit's size is not the sum of its lengths");
      all.insert(all.end(), unit.intervals().begin(), unit.intervals().end());
    }
  }
  std::sort(all.begin(), all.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  check_sorted_disjoint(all, "intervals of two units overlap");
  check(remaining_size(c) == summed_lengths(all), "remaining_size is not the sum of the units");
}

}  // namespace
}  // namespace permbb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb;
  using namespace permbb::fuzz;
  const std::vector<std::uint8_t> bytes = file_bytes(data, size);
  const std::optional<GlobalCheckpoint> decoded = decode_or_refuse<InputError>(
      [&] { return decode_checkpoint(bytes, kName); },
      [](std::string_view message) { check_one_line_naming(message, kName); });
  if (!decoded) return 0;
  check_consistent(*decoded);
  std::vector<std::uint8_t> again;
  check_no_exception([&] { again = encode_checkpoint(*decoded, decoded->written_at); },
                     "a decoded checkpoint does not encode");
  if (decoded->format_version == kCheckpointFormatVersion) {
    check(again == bytes, "a decoded checkpoint does not re-encode to the same bytes");
    return 0;
  }
  // An older format is written again in the current one, which reads back to those bytes.
  std::vector<std::uint8_t> upgraded;
  check_no_exception(
      [&] {
        const GlobalCheckpoint current = decode_checkpoint(again, kName);
        upgraded = encode_checkpoint(current, current.written_at);
      },
      "an older checkpoint written in the current format does not read back");
  check(upgraded == again, "an older checkpoint written in the current format changes again");
  return 0;
}
