// How many worker checkpoints the coordinator handles per second on one core, with units of
// K intervals at n jobs (2022 §4.1.1: GMP marshalling and interval conversions saturate the
// paper's coordinator at a few hundred GPUs). One checkpoint is what the coordinator's loop
// does per WORK message: decode the bytes, handle() (intersect with the copy), encode the
// reply. Each step is timed apart, so the table says where the time goes.
//
// Usage: permbb-bench-coordinator [--seconds S]    (prints a Markdown table)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "coordinator.hpp"
#include "factoradic_mpz.hpp"

namespace {

using namespace permbb;
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

struct Timing {
  double decode = 0, handle = 0, encode = 0;
  long checkpoints = 0;
};

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Two workers hold one unit each; worker 0 checkpoints again and again.
Timing measure(int n, int k, double seconds) {
  std::mt19937_64 rng(7);
  std::vector<Interval> unit = spread_intervals(n, k, rng);
  Coordinator coordinator(n, 2, unit, Schedule{{}, kInfiniteTime});
  coordinator.handle(0, WorkReport{0, 0, 0, k, kInfiniteTime, {}});  // worker 0 gets the unit
  const std::int64_t id = coordinator.copies()[0].id();
  Timing t;
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

}  // namespace

int main(int argc, char** argv) {
  double seconds = 1.0;
  if (argc == 3 && std::strcmp(argv[1], "--seconds") == 0) seconds = std::stod(argv[2]);
  std::printf("| n | K intervals | checkpoints/s | decode | handle | encode reply |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|\n");
  for (int n : {20, 50, 100}) {
    for (int k : {256, 1024, 16384}) {
      const Timing t = measure(n, k, seconds);
      const double total = t.decode + t.handle + t.encode;
      std::printf("| %d | %d | %.0f | %.0f%% | %.0f%% | %.0f%% |\n", n, k,
                  t.checkpoints / total, 100 * t.decode / total, 100 * t.handle / total,
                  100 * t.encode / total);
      std::fflush(stdout);
    }
  }
  return 0;
}
