#pragma once
// The coordinator's hand-worked scenarios share these: short names for intervals and reports,
// the kinds of messages a scenario expects (with gtest's printing of them), and the checks
// every scenario ends with (the copies and unassigned units are disjoint).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <ostream>
#include <variant>
#include <vector>

#include "coordinator.hpp"
#include "coordinator_checks.hpp"
#include "factoradic_mpz.hpp"

namespace permbb {
inline void PrintTo(const Interval& x, std::ostream* os) {
  *os << to_string(x);
}
}  // namespace permbb

namespace permbb::cluster::scenario {

inline Interval iv(const mpz_class& begin, const mpz_class& end) {
  return Interval{begin, end};
}

inline WorkReport report(std::int64_t id, std::vector<Interval> intervals, int k_max = 1,
                         std::uint64_t decomposed = 0) {
  return WorkReport{id, decomposed, 0, k_max, kInfiniteTime, std::move(intervals)};
}

inline WorkReport first_request(int k_max = 1) {
  return report(0, {}, k_max);
}

// The kind of a message to a worker, with its destination: what a scenario expects.
enum class Kind { kWork, kBest, kEnd, kCheckpoint, kGive };

struct Sent {
  int worker;
  Kind kind;
  friend bool operator==(const Sent&, const Sent&) = default;
};

inline void PrintTo(const Sent& s, std::ostream* os) {
  static const char* const kNames[] = {"WORK", "BEST", "END", "CKPT", "GIVE"};
  *os << kNames[static_cast<int>(s.kind)] << " to " << s.worker;
}

inline Kind kind_of(const ToWorker& message) {
  if (std::holds_alternative<WorkAssignment>(message)) return Kind::kWork;
  if (std::holds_alternative<BestMessage>(message)) return Kind::kBest;
  if (std::holds_alternative<StopOrder>(message)) return Kind::kEnd;
  if (std::holds_alternative<GiveRequest>(message)) return Kind::kGive;
  return Kind::kCheckpoint;
}

inline std::vector<Sent> summary(const std::vector<Outgoing>& out) {
  std::vector<Sent> sent;
  for (const Outgoing& o : out) sent.push_back(Sent{o.worker, kind_of(o.message)});
  return sent;
}

constexpr Kind kW = Kind::kWork;
constexpr Kind kB = Kind::kBest;
constexpr Kind kE = Kind::kEnd;
constexpr Kind kC = Kind::kCheckpoint;
constexpr Kind kG = Kind::kGive;

inline WorkAssignment work_of(const Outgoing& out) {
  EXPECT_TRUE(std::holds_alternative<WorkAssignment>(out.message)) << "to " << out.worker;
  return std::holds_alternative<WorkAssignment>(out.message) ? std::get<WorkAssignment>(out.message)
                                                             : WorkAssignment{};
}

// The one message a scenario expects: a reply to `worker`.
inline ToWorker reply_to(Coordinator& c, int worker, const ToCoordinator& message) {
  const std::vector<Outgoing> out = c.handle(worker, message);
  EXPECT_EQ(out.size(), 1u);
  if (out.empty()) return CheckpointRequest{};
  EXPECT_EQ(out[0].worker, worker);
  return out[0].message;
}

inline WorkAssignment expect_work(const ToWorker& reply) {
  EXPECT_TRUE(std::holds_alternative<WorkAssignment>(reply)) << "index " << reply.index();
  return std::holds_alternative<WorkAssignment>(reply) ? std::get<WorkAssignment>(reply)
                                                       : WorkAssignment{};
}

using testing::all_disjoint;

}  // namespace permbb::cluster::scenario
