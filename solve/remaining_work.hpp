#pragma once
// How much of a search is left, in two measures that move on every instance size and mean
// the same in fresh and restarted runs: the share of this run's starting work (1 at the start,
// 0 at the end), and log10 of the share of all n! schedules (-70 for a 100-job search with
// 1e-70 of its space left, where a share of explored schedules rounds to 100 % at once).
#include <gmpxx.h>

#include <deque>
#include <optional>

namespace permbb::solve {

// log10(part / whole) for part > 0, without leaving GMP's range: shares of 100! underflow a
// double's 1e-308 only far beyond any instance, but the quotient of two mpz would round to 0.
double log10_share(const mpz_class& part, const mpz_class& whole);

class RemainingWork {
 public:
  // `at_start`: the work this run starts with (n! fresh, a checkpoint's remainder restarted).
  RemainingWork(const mpz_class& at_start, int jobs);

  // `left` as a share of the run's starting work (0 when it started with none).
  double run_share(const mpz_class& left) const;
  // log10 of `left`'s share of n!; nullopt when nothing is left.
  std::optional<double> space_log10(const mpz_class& left) const;

 private:
  mpz_class at_start_;
  mpz_class space_;
};

// A cautious estimate of the time left from how fast the run's remaining share falls. The
// share falls unevenly: a pruned subtree takes a large piece at once, and the pieces left are
// often the hard ones (on ta023 with the GPU the share halved every half second while the
// rate fell as fast, so any extrapolation promised a tenth of the real time). So it guesses
// only while the rate holds: over the last quarter of the run it must be at least half the
// quarter's before; the guess then uses the slowest of the two quarters' and the whole run's.
// None before three samples, and none while the share does not fall.
class TimeLeftEstimate {
 public:
  void add(double seconds, double run_share);
  // The recent rate at which the share falls, per second (the slower of the last quarter's
  // and the whole run's); nullopt while it has not fallen.
  std::optional<double> rate() const;
  std::optional<double> seconds_left() const;

 private:
  struct Sample {
    double seconds;
    double share;
  };
  static double falling_rate(const Sample& from, const Sample& to);
  // The latest sample at or before `seconds` (the oldest kept when none is).
  const Sample& sample_before(double seconds) const;

  Sample first_{0, 1};
  std::deque<Sample> kept_;  // the last half of the run, and the sample before it
};

}  // namespace permbb::solve
