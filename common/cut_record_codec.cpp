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

CutPath get_path(ByteReader& in, int jobs, int depth, std::uint64_t index) {
  const auto length = in.get<std::uint8_t>();
  const std::string where = "record " + std::to_string(index);
  require(length <= depth, where + " has a path of " + std::to_string(length) +
                               " steps below the cut depth " + std::to_string(depth));
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
    out.put(static_cast<std::uint8_t>(r.path.size()));
    for (const std::int16_t step : r.path) out.put(step);
    out.put(static_cast<std::uint8_t>(r.pruned ? 1 : 0));
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
    r.path = get_path(in, jobs, cut.depth, i);
    require(i == 0 || cut.records[i - 1].path < r.path,
            "record " + std::to_string(i) + " is out of order or repeats a path");
    const auto pruned = in.get<std::uint8_t>();
    require(pruned <= 1, "record " + std::to_string(i) + " has a pruned flag " +
                             std::to_string(pruned));
    r.pruned = pruned == 1;
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
