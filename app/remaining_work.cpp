#include "remaining_work.hpp"

#include <algorithm>
#include <cmath>

#include "factoradic_mpz.hpp"

namespace permbb::app {
namespace {

// log10 of a positive mpz from its leading bits: mpz_get_d_2exp gives x = d * 2^e, 0.5 <= d < 1.
double log10_of(const mpz_class& x) {
  long exponent = 0;
  const double mantissa = mpz_get_d_2exp(&exponent, x.get_mpz_t());
  return std::log10(mantissa) + static_cast<double>(exponent) * std::log10(2.0);
}

// The recent window is this share of the run's time, and holds at least this many samples.
constexpr double kRecentShareOfRun = 0.25;
constexpr std::size_t kMinRecentSamples = 3;

}  // namespace

double log10_share(const mpz_class& part, const mpz_class& whole) {
  return log10_of(part) - log10_of(whole);
}

RemainingWork::RemainingWork(const mpz_class& at_start, int jobs)
    : at_start_(at_start), space_(factorial(jobs)) {}

double RemainingWork::run_share(const mpz_class& left) const {
  if (sgn(at_start_) == 0) return 0;
  mpq_class share(left, at_start_);
  share.canonicalize();
  return share.get_d();
}

std::optional<double> RemainingWork::space_log10(const mpz_class& left) const {
  if (sgn(left) <= 0) return std::nullopt;
  return log10_share(left, space_);
}

double TimeLeftEstimate::falling_rate(const Sample& from, const Sample& to) {
  const double took = to.seconds - from.seconds;
  return took > 0 ? (from.share - to.share) / took : 0;
}

void TimeLeftEstimate::add(double seconds, double run_share) {
  recent_.push_back({seconds, run_share});
  // Keep the samples of the recent window, plus the one just before it.
  const double window_start = seconds * (1 - kRecentShareOfRun);
  while (recent_.size() > kMinRecentSamples && recent_[1].seconds <= window_start) {
    recent_.pop_front();
  }
}

std::optional<double> TimeLeftEstimate::rate() const {
  if (recent_.empty()) return std::nullopt;
  const double whole = falling_rate(first_, recent_.back());
  const double latest = recent_.size() > 1 ? falling_rate(recent_.front(), recent_.back()) : whole;
  const double slower = std::min(whole, latest);
  if (!(slower > 0)) return std::nullopt;
  return slower;
}

std::optional<double> TimeLeftEstimate::seconds_left() const {
  const auto r = rate();
  if (!r) return std::nullopt;
  return recent_.back().share / *r;
}

}  // namespace permbb::app
