#include "progress_reporter.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include "result_output.hpp"
#include "run_checkpoints.hpp"

namespace permbb::solve {
namespace {

double unix_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

template <class T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// "1.2e-70 of n!" reads worse than "10^-70.1 of n!" once shares are that small.
std::string space_text(const std::optional<double>& log10) {
  if (!log10) return "none of n!";
  return fmt::format("10^{:.2f} of n!", *log10);
}

std::string falling_text(const std::optional<double>& share_per_second) {
  if (!share_per_second) return "not falling";
  return fmt::format("-{:.3g}%/s", 100.0 * *share_per_second);
}

std::string time_left_text(const std::optional<double>& seconds) {
  if (!seconds) return "time left unknown (the work left does not fall steadily)";
  return fmt::format("time left ~{:.3g} s (a cautious guess)", *seconds);
}

}  // namespace

ProgressReporter::ProgressReporter(double period_seconds, bool print_lines, ProgressLog log)
    : start_(std::chrono::steady_clock::now()),
      next_(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(period_seconds))),
      period_(period_seconds),
      print_lines_(print_lines),
      log_(std::move(log)) {}

double ProgressReporter::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

nlohmann::json ProgressReporter::line(const char* event) const {
  return {{"event", event},
          {"restart", restart_},
          {"unix_time", unix_seconds()},
          {"seconds", elapsed_seconds()}};
}

void ProgressReporter::begin(const ProgressStart& s) {
  restart_ = s.restart;
  bound_without_schedule_ = s.bound_without_schedule;
  nodes_before_ = s.nodes_before;
  remaining_.emplace(s.remaining, s.jobs);
  nlohmann::json out = line("start");
  out["instance"] = s.identity.instance;
  out["fingerprint"] = s.identity.fingerprint;
  out["bound"] = s.identity.bound;
  out["branching"] = s.identity.branching;
  out["jobs"] = s.jobs;
  out["machines"] = s.machines;
  out["initial_ub"] = makespan_or_null(s.initial_ub);
  out["ranks"] = s.ranks;
  out["nodes_before"] = s.nodes_before;
  out["seconds_before"] = s.seconds_before;
  out["run_remaining"] = remaining_->run_share(s.remaining);
  out["space_remaining_log10"] = or_null(remaining_->space_log10(s.remaining));
  log_.write(out);
}

// The rate shown is over the last period, so a slowing search shows it.
void ProgressReporter::report(const ProgressSnapshot& s) {
  const double now = elapsed_seconds();
  const double window = now - last_seconds_;
  const double rate = window > 0 ? static_cast<double>(s.nodes_decomposed - last_nodes_) / window
                                 : 0.0;
  const double run_share = remaining_->run_share(s.remaining);
  const auto space_log10 = remaining_->space_log10(s.remaining);
  time_left_.add(now, run_share);
  const TimeLeft left{run_share, space_log10, time_left_.rate(), time_left_.seconds_left()};
  if (print_lines_) print(s, rate, left);

  nlohmann::json out = line("progress");
  out["nodes"] = s.nodes_decomposed;
  out["nodes_total"] = nodes_before_ + s.nodes_decomposed;
  out["nodes_per_second"] = rate;
  out["best"] = makespan_or_null(shown_best(s.best));
  out["run_remaining"] = run_share;
  out["space_remaining_log10"] = or_null(space_log10);
  out["run_remaining_per_second"] = or_null(left.falling);
  out["eta_seconds"] = or_null(left.seconds);
  out["active"] = s.active_explorers;
  if (s.coordinator) {
    out["coordinator_busy"] = s.coordinator->busy_fraction;
    out["checkpoints"] = s.coordinator->checkpoints;
    out["splits"] = s.coordinator->splits;
    out["idle_workers"] = s.coordinator->idle_workers;
  }
  log_.write(out);

  last_nodes_ = s.nodes_decomposed;
  last_seconds_ = now;
  next_ = std::chrono::steady_clock::now() +
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(period_);
}

void ProgressReporter::print(const ProgressSnapshot& s, double rate, const TimeLeft& left) const {
  const Time shown = shown_best(s.best);
  const std::string best = shown == kInfiniteTime ? "none" : std::to_string(shown);
  spdlog::info("progress {:.1f} s | nodes {} | {:.3g} nodes/s | best {} | left {:.4g}% of this "
               "run ({}), {} | {} | active {}",
               elapsed_seconds(), s.nodes_decomposed, rate, best, 100.0 * left.run_share,
               falling_text(left.falling), space_text(left.space_log10),
               time_left_text(left.seconds), s.active_explorers);
  if (s.coordinator) {
    const CoordinatorLoad& c = *s.coordinator;
    spdlog::info("coordinator busy {:.1f}% | {} checkpoints | {} splits | {} idle workers",
                 100.0 * c.busy_fraction, c.checkpoints, c.splits, c.idle_workers);
  }
}

void ProgressReporter::finish(const ProgressEnd& e) {
  nlohmann::json out = line("end");
  out["complete"] = e.complete;
  out["best"] = makespan_or_null(shown_best(e.best));
  out["nodes"] = e.nodes_decomposed;
  out["nodes_total"] = nodes_before_ + e.nodes_decomposed;
  out["run_remaining"] = remaining_ ? remaining_->run_share(e.remaining) : 0.0;
  out["space_remaining_log10"] = remaining_ ? or_null(remaining_->space_log10(e.remaining))
                                            : nlohmann::json(nullptr);
  log_.write(out);
}

ProgressStart progress_start(const Instance& instance, const SearchSettings& settings,
                             const StartPoint& start, int ranks, const mpz_class& remaining) {
  ProgressStart s;
  s.identity = run_identity(instance, settings);
  s.jobs = instance.jobs();
  s.machines = instance.machines();
  s.initial_ub = start.initial.value;
  if (start.best.permutation.empty()) s.bound_without_schedule = start.best.makespan;
  s.ranks = ranks;
  s.restart = start.restarted ? static_cast<int>(start.earlier.restarts) + 1 : 0;
  s.nodes_before = start.earlier.nodes_decomposed;
  s.seconds_before = start.earlier.wall_seconds;
  s.remaining = remaining;
  return s;
}

}  // namespace permbb::solve
