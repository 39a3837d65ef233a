#include "remaining_work.hpp"

#include <algorithm>
#include <cmath>

#include "factoradic_mpz.hpp"

namespace permbb::solve {
namespace {

// log10 of a positive mpz from its leading bits: mpz_get_d_2exp gives x = d * 2^e, 0.5 <= d < 1.
double log10_of(const mpz_class& x) {
  long exponent = 0;
  const double mantissa = mpz_get_d_2exp(&exponent, x.get_mpz_t());
  return std::log10(mantissa) + static_cast<double>(exponent) * std::log10(2.0);
}

// The recent window is this share of the run's time; the one before it is as long.
constexpr double kRecentShareOfRun = 0.25;
// Guesses need this many samples, and a recent rate at least this share of the one before.
constexpr std::size_t kMinSamples = 3;
constexpr double kSteadyRate = 0.5;

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
  kept_.push_back({seconds, run_share});
  const double half_way = seconds * (1 - 2 * kRecentShareOfRun);
  while (kept_.size() > 2 && kept_[1].seconds <= half_way) kept_.pop_front();
}

const TimeLeftEstimate::Sample& TimeLeftEstimate::sample_before(double seconds) const {
  const Sample* found = &kept_.front();
  for (const Sample& s : kept_) {
    if (s.seconds > seconds) break;
    found = &s;
  }
  return *found;
}

std::optional<double> TimeLeftEstimate::rate() const {
  if (kept_.empty()) return std::nullopt;
  const Sample& now = kept_.back();
  const Sample& quarter_ago = sample_before(now.seconds * (1 - kRecentShareOfRun));
  const double whole = falling_rate(first_, now);
  const double recent = &quarter_ago != &now ? falling_rate(quarter_ago, now) : whole;
  const double slower = std::min(whole, recent);
  if (!(slower > 0)) return std::nullopt;
  return slower;
}

std::optional<double> TimeLeftEstimate::seconds_left() const {
  const auto r = rate();
  if (!r || kept_.size() < kMinSamples) return std::nullopt;
  const Sample& now = kept_.back();
  const Sample& quarter_ago = sample_before(now.seconds * (1 - kRecentShareOfRun));
  if (&quarter_ago == &kept_.front()) return now.share / *r;  // no quarter before it yet
  const double before = falling_rate(kept_.front(), quarter_ago);
  const double recent = falling_rate(quarter_ago, now);
  if (recent < kSteadyRate * before || !(before > 0)) return std::nullopt;
  return now.share / std::min(*r, before);  // a sudden drop lately does not shorten it
}

}  // namespace permbb::solve
