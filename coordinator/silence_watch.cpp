#include "silence_watch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace permbb::cluster {

namespace {

void check_seconds(const char* what, double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) {
    throw std::invalid_argument(std::string("silence watch: ") + what + " of " +
                                std::to_string(seconds) + " s");
  }
}

}  // namespace

SilenceWatch::SilenceWatch(int workers, double timeout_seconds, double now, double max_gap_seconds)
    : since_(static_cast<std::size_t>(std::max(workers, 0)), now),
      timeout_(timeout_seconds),
      max_gap_(max_gap_seconds),
      last_listened_(now) {
  check_seconds("a timeout", timeout_seconds);
  check_seconds("a gap", max_gap_seconds);
}

void SilenceWatch::listening(double now) {
  const double gap = now - last_listened_;
  if (gap > max_gap_) deaf_seconds_ += gap;
  last_listened_ = std::max(last_listened_, now);
}

void SilenceWatch::heard(int worker, double now) {
  since_.at(worker) = std::max(since_.at(worker), listening_time(now));
}

void SilenceWatch::answered(int worker, double now) {
  heard(worker, now);
}

double SilenceWatch::silent_seconds(int worker, double now) const {
  return listening_time(now) - since_.at(worker);
}

std::vector<int> SilenceWatch::overdue(double now, const std::function<bool(int)>& owes) const {
  std::vector<int> found;
  for (int w = 0; w < workers(); ++w) {
    if (silent_seconds(w, now) > timeout_ && owes(w)) found.push_back(w);
  }
  return found;
}

}  // namespace permbb::cluster
