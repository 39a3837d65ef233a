#include "path_relinking.hpp"

#include <algorithm>
#include <cstddef>

namespace permbb {
namespace {

// One step of the walk at position i: the guide's job there is moved into place. Returns
// whether the schedule changed (a move was made).
bool step_toward(std::vector<int>& walk, const std::vector<int>& guide, std::size_t i) {
  if (walk[i] == guide[i]) return false;
  const auto at = std::find(walk.begin() + static_cast<std::ptrdiff_t>(i), walk.end(), guide[i]);
  std::rotate(walk.begin() + static_cast<std::ptrdiff_t>(i), at, at + 1);
  return true;
}

}  // namespace

std::optional<Schedule> relink(const Instance& instance, const std::vector<int>& from,
                               const std::vector<int>& guide) {
  // First walk: the makespan after each move, to know the walk's length before choosing.
  std::vector<int> walk = from;
  std::vector<Time> spans;
  for (std::size_t i = 0; i < guide.size(); ++i) {
    if (step_toward(walk, guide, i)) spans.push_back(makespan(instance, walk));
  }
  const std::size_t moves = spans.size();
  if (moves < 4) return std::nullopt;
  // spans[k] is the schedule after k + 1 moves, at k + 1 moves from `from` and
  // moves - k - 1 from the guide; keep both distances at least moves / 4.
  const std::size_t margin = moves / 4;
  const auto first = spans.begin() + static_cast<std::ptrdiff_t>(margin - 1);
  const auto last = spans.end() - static_cast<std::ptrdiff_t>(margin);
  const auto best = std::min_element(first, last);
  // Second walk, to the chosen schedule.
  const std::size_t wanted = static_cast<std::size_t>(best - spans.begin()) + 1;
  walk = from;
  std::size_t made = 0;
  for (std::size_t i = 0; made < wanted; ++i) made += step_toward(walk, guide, i) ? 1 : 0;
  return Schedule{walk, *best};
}

}  // namespace permbb
