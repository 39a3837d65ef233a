#include "progress_reporter.hpp"

#include <spdlog/spdlog.h>

namespace permbb::app {

ProgressReporter::ProgressReporter(double period_seconds, bool enabled)
    : start_(std::chrono::steady_clock::now()),
      next_(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(period_seconds))),
      period_(period_seconds),
      enabled_(enabled) {}

double ProgressReporter::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// The rate shown is over the last period, so a slowing search shows it.
void ProgressReporter::report(const ProgressSnapshot& s) {
  const double now = elapsed_seconds();
  const double window = now - last_seconds_;
  const double rate = window > 0 ? static_cast<double>(s.nodes_decomposed - last_nodes_) / window
                                 : 0.0;
  const std::string best = s.best == kInfiniteTime ? "none" : std::to_string(s.best);
  spdlog::info("progress {:.1f} s | nodes {} | {:.3g} nodes/s | best {} | explored {:.4f}% | "
               "active {}",
               now, s.nodes_decomposed, rate, best, 100.0 * s.explored_fraction,
               s.active_explorers);
  last_nodes_ = s.nodes_decomposed;
  last_seconds_ = now;
  next_ = std::chrono::steady_clock::now() +
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(period_);
}

}  // namespace permbb::app
