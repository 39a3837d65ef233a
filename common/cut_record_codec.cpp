#include "cut_record_codec.hpp"

#include <stdexcept>
#include <string>

namespace permbb {
namespace {

// A record takes at least this many bytes: the smallest count the bytes left can hold.
constexpr std::size_t kSmallestRecord = 1 + 1 + 4 + 8 + 8 + 4 + 4 + 4;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("cut records: " + what);
}

// Lengths from kLongPath on are written as kLongPath and a uint16 (nested records of large
// instances): records written before nested ones (every path within the depth, which is far
// below 255 steps) read the same.
constexpr std::uint8_t kLongPath = 255;

// A record's flags byte (1 for a pruned record, 0 otherwise before nested records existed).
constexpr std::uint8_t kPrunedFlag = 1;
constexpr std::uint8_t kNotEnteredFlag = 2;  // a nested part whose explorer started inside
static_assert(kMaxJobs <= 65535, "a path's length fits a uint16");

void put_path(ByteWriter& out, const CutPath& path) {
  if (path.size() < kLongPath) {
    out.put(static_cast<std::uint8_t>(path.size()));
  } else {
    out.put(kLongPath);
    out.put(static_cast<std::uint16_t>(path.size()));
  }
  for (const std::int16_t step : path) out.put(step);
}

CutPath get_path(ByteReader& in, int jobs, std::uint64_t index) {
  const std::string where = "record " + std::to_string(index);
  std::size_t length = in.get<std::uint8_t>();
  if (length == kLongPath) {
    length = in.get<std::uint16_t>();
    // One encoding per record: what is decoded re-encodes to the same bytes (the fuzzers).
    require(length >= kLongPath, where + " has a short path in the long form");
  }
  require(length <= static_cast<std::size_t>(jobs),
          where + " has a path of " + std::to_string(length) + " steps for " +
              std::to_string(jobs) + " jobs");
  CutPath path(length);
  std::vector<bool> fixed(static_cast<std::size_t>(jobs), false);
  for (auto& step : path) {
    step = in.get<std::int16_t>();
    const int job = step_job(step);
    require(step >= 0 && job < jobs && !fixed[static_cast<std::size_t>(job)],
            where + " has a step " + std::to_string(step) + " that is not a free job's");
    fixed[static_cast<std::size_t>(job)] = true;
  }
  return path;
}

}  // namespace

void put_cut_records(ByteWriter& out, const CutRecords& cut) {
  out.put(static_cast<std::uint32_t>(cut.depth));
  out.put(static_cast<std::uint64_t>(cut.records.size()));
  for (const CutRecord& r : cut.records) {
    put_path(out, r.path);
    out.put(static_cast<std::uint8_t>((r.pruned ? kPrunedFlag : 0) |
                                      (r.entered ? 0 : kNotEnteredFlag)));
    out.put(static_cast<std::int32_t>(r.bound));
    out.put(r.nodes.decomposed);
    out.put(r.nodes.leaves);
    out.put(static_cast<std::int32_t>(r.ub_start));
    out.put(static_cast<std::int32_t>(r.ub_end));
    out.put(static_cast<std::int32_t>(r.best));
  }
}

CutRecords get_cut_records(ByteReader& in, int jobs) {
  CutRecords cut;
  const auto depth = in.get<std::uint32_t>();
  require(jobs >= 1 && depth <= static_cast<std::uint32_t>(jobs - 1),
          "cut depth " + std::to_string(depth) + " for " + std::to_string(jobs) + " jobs");
  cut.depth = static_cast<int>(depth);
  const auto count = in.get<std::uint64_t>();
  require(count <= in.remaining() / kSmallestRecord,
          "announces " + std::to_string(count) + " records");
  cut.records.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    CutRecord& r = cut.records[i];
    r.path = get_path(in, jobs, i);
    require(i == 0 || cut.records[i - 1].path < r.path,
            "record " + std::to_string(i) + " is out of order or repeats a path");
    const auto flags = in.get<std::uint8_t>();
    require(flags <= (kPrunedFlag | kNotEnteredFlag),
            "record " + std::to_string(i) + " has flags " + std::to_string(flags));
    r.pruned = (flags & kPrunedFlag) != 0;
    r.entered = (flags & kNotEnteredFlag) == 0;
    require(!r.pruned || r.path.size() <= depth,
            "record " + std::to_string(i) + " is pruned below the cut depth");
    require(r.entered || (!r.pruned && r.path.size() > depth),
            "record " + std::to_string(i) + " is marked not entered above the cut depth");
    r.bound = in.get<std::int32_t>();
    r.nodes.decomposed = in.get<std::uint64_t>();
    r.nodes.leaves = in.get<std::uint64_t>();
    r.ub_start = in.get<std::int32_t>();
    r.ub_end = in.get<std::int32_t>();
    r.best = in.get<std::int32_t>();
  }
  return cut;
}

}  // namespace permbb
