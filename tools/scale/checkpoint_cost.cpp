#include "checkpoint_cost.hpp"

#include <chrono>
#include <random>
#include <vector>

#include "coordinator.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::scale {
namespace {

using namespace permbb::cluster;
using Clock = std::chrono::steady_clock;

// K sorted disjoint intervals spread over [0, n!): a worker's unit after many local steals.
std::vector<Interval> spread_intervals(int n, int k, std::mt19937_64& rng) {
  const mpz_class space = factorial(n);
  const mpz_class step = space / k;
  std::vector<Interval> intervals;
  for (int i = 0; i < k; ++i) {
    const mpz_class begin = step * i + step / 4 + (rng() % 1000);
    intervals.push_back({begin, begin + step / 2});
  }
  return intervals;
}

// A later checkpoint: every interval explored a little further from its front.
void advance(std::vector<Interval>& intervals, const mpz_class& amount) {
  for (Interval& x : intervals) {
    if (x.length() > amount) x.begin += amount;
  }
}

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

CheckpointCost measure_checkpoint_cost(int n, int k, double seconds) {
  std::mt19937_64 rng(7);
  std::vector<Interval> unit = spread_intervals(n, k, rng);
  Coordinator coordinator(n, 2, unit, Schedule{{}, kInfiniteTime});
  coordinator.handle(0, WorkReport{0, 0, 0, k, kInfiniteTime, {}});  // worker 0 gets the unit
  const std::int64_t id = coordinator.copies()[0].id();
  CheckpointCost t;
  const mpz_class step = factorial(n) / (static_cast<long>(k) * 4000000);
  const auto start = Clock::now();
  while (since(start) < seconds) {
    advance(unit, step);
    const Bytes bytes = encode(WorkReport{id, 1000, 1, k, kInfiniteTime, unit});
    auto t0 = Clock::now();
    ToCoordinator message = decode_from_worker(static_cast<int>(Tag::kWork), bytes);
    t.decode += since(t0);
    t0 = Clock::now();
    const std::vector<Outgoing> replies = coordinator.handle(0, std::move(message));
    t.handle += since(t0);
    t0 = Clock::now();
    for (const Outgoing& out : replies) encode_for_worker(out.message);
    t.encode += since(t0);
    ++t.checkpoints;
  }
  return t;
}

double measure_handover_sweep(int n, int k, int given, double seconds) {
  std::mt19937_64 rng(11);
  const std::vector<Interval> unit = spread_intervals(n, k, rng);
  double handled = 0;
  long handovers = 0;
  const auto start = Clock::now();
  while (since(start) < seconds || handovers == 0) {
    Coordinator coordinator(n, 2, unit, Schedule{{}, kInfiniteTime});
    coordinator.handle(0, WorkReport{0, 0, 0, k, kInfiniteTime, {}});  // worker 0 gets the unit
    for (int round = 0; round < 8; ++round) {
      WorkUnit kept = coordinator.copies()[0];
      const WorkUnit part = kept.split(given, kept.id());
      Handover handover{kept.id(), kInfiniteTime, kept.size(), part.intervals()};
      const auto t0 = Clock::now();
      coordinator.handle(0, std::move(handover));
      handled += since(t0);
      ++handovers;
    }
  }
  return handled / static_cast<double>(handovers);
}

}  // namespace permbb::scale
