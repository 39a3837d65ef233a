#include "report_cadence.hpp"

#include <algorithm>

namespace permbb::cluster {
namespace {

constexpr double kRank0SecondsPerInterval = 0.25e-6;
constexpr double kReportShareOfRank0 = 0.2;

}  // namespace

double report_period_floor(int workers, int intervals) {
  const double load = static_cast<double>(std::max(1, workers)) * std::max(1, intervals) *
                      kRank0SecondsPerInterval;
  return load / kReportShareOfRank0;
}

}  // namespace permbb::cluster
