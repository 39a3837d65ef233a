// Tests of the coordinator's state machine (2022 §4.1, Algorithm 1, with splits by the owner:
// a copy is split by its owner's handover or at its owner's checkpoint), driven without MPI:
// hand-worked scenarios whose messages are derived on paper. The randomized simulations with fake
// workers are in test_coordinator_simulation.cpp.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "coordinator.hpp"
#include "coordinator_scenarios.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::cluster {
namespace {

using namespace scenario;  // NOLINT(google-build-using-namespace): the scenarios' vocabulary

// On [0, 10!): worker 0 takes the unassigned unit. Worker 1's request gets no reply, but
// worker 0 is asked to checkpoint; worker 2's request asks nobody (worker 0 was asked).
// Worker 0's checkpoint feeds both, in order, from its fresh unit [100, N[.
TEST(Coordinator, FirstRequestsWaitForTheOwnersCheckpoint) {
  const mpz_class total = factorial(10);  // 3628800
  Coordinator c(10, 4, {iv(0, total)}, Schedule{{}, 2000});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(w0.intervals, std::vector<Interval>{iv(0, total)});
  EXPECT_EQ(w0.best, (Schedule{{}, 2000}));

  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  EXPECT_TRUE(c.hungry(1));
  EXPECT_TRUE(c.asked_to_give(0));
  EXPECT_TRUE(c.handle(2, first_request()).empty());
  EXPECT_EQ(c.hungry_count(), 2);
  EXPECT_EQ(c.copies()[0].intervals(), std::vector<Interval>{iv(0, total)});  // untouched

  const std::vector<Outgoing> out = c.handle(0, report(w0.unit_id, {iv(100, total)}, 1, 77));
  ASSERT_EQ(summary(out), (std::vector<Sent>{{0, kW}, {1, kW}, {2, kW}}));
  // (100 + N) / 2 = 1814450, then (100 + 1814450) / 2 = 907275.
  EXPECT_EQ(work_of(out[0]).intervals, std::vector<Interval>{iv(100, 907275)});
  EXPECT_EQ(work_of(out[0]).unit_id, w0.unit_id);
  EXPECT_EQ(work_of(out[1]).intervals, std::vector<Interval>{iv(1814450, total)});
  EXPECT_EQ(work_of(out[2]).intervals, std::vector<Interval>{iv(907275, 1814450)});
  EXPECT_NE(work_of(out[1]).unit_id, w0.unit_id);
  EXPECT_NE(work_of(out[2]).unit_id, w0.unit_id);
  EXPECT_NE(work_of(out[1]).unit_id, work_of(out[2]).unit_id);
  EXPECT_EQ(work_of(out[1]).best, (Schedule{{}, 2000}));
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_FALSE(c.asked_to_give(0));

  // Copies of 907175, 1814350 and 907175: worker 1 holds the largest.
  EXPECT_EQ(summary(c.handle(3, first_request())), (std::vector<Sent>{{1, kG}}));
  EXPECT_EQ(c.stats().assignments, 1u);
  EXPECT_EQ(c.stats().splits, 2u);
  EXPECT_EQ(c.stats().give_requests, 2u);
  EXPECT_EQ(c.stats().checkpoint_requests, 0u);
  EXPECT_EQ(c.stats().explored, 100);
  EXPECT_EQ(c.stats().decomposed, 77u);
  EXPECT_EQ(c.remaining_size(), total - 100);
  EXPECT_TRUE(c.unassigned().empty());
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));
}

// A split by the owner, worked by hand on [0, 7!). Worker 0 reports three intervals; worker 1
// (K_max 2) waits, so worker 0 is asked to hand over at most 2. By then worker 0 has
// explored on, to {[150, 1000[, [1300, 3000[, [3100, 5040[}: it halves its two largest,
// (1300 + 3000) / 2 = 2150 and (3100 + 5040) / 2 = 4070, and keeps 850 + 850 + 970 = 2670.
// The coordinator takes the part out of worker 0's copy, which still holds what worker 0
// explored since its checkpoint, and gives it to worker 1; worker 0 gets BEST. The nodes of
// what worker 0 explored since its checkpoint (40) are counted with its next checkpoint,
// which moves its copy past them, not at the handover.
TEST(Coordinator, HandoverMovesThePartFromTheOwnersCopyToTheWaitingWorker) {
  Coordinator c(7, 3, {iv(0, 5040)}, Schedule{{}, 400});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request(4)));
  const std::vector<Interval> reported = {iv(100, 1000), iv(1200, 3000), iv(3000, 5040)};
  EXPECT_TRUE(
      std::holds_alternative<BestMessage>(reply_to(c, 0, report(w0.unit_id, reported, 4, 25))));
  const std::vector<Outgoing> ask = c.handle(1, first_request(2));
  ASSERT_EQ(summary(ask), (std::vector<Sent>{{0, kG}}));
  EXPECT_EQ(std::get<GiveRequest>(ask[0].message).max_intervals, 2);
  EXPECT_TRUE(c.asked_to_give(0));
  EXPECT_EQ(c.stats().explored, 300);

  const std::vector<Interval> given = {iv(2150, 3000), iv(4070, 5040)};
  const std::vector<Outgoing> out = c.handle(0, Handover{w0.unit_id, kInfiniteTime, 2670, given});
  ASSERT_EQ(summary(out), (std::vector<Sent>{{0, kB}, {1, kW}}));
  EXPECT_EQ(work_of(out[1]).intervals, given);
  EXPECT_NE(work_of(out[1]).unit_id, w0.unit_id);
  EXPECT_EQ(c.copies()[0].intervals(),
            (std::vector<Interval>{iv(100, 1000), iv(1200, 2150), iv(3000, 4070)}));
  EXPECT_EQ(c.copies()[0].id(), w0.unit_id);
  EXPECT_FALSE(c.asked_to_give(0));
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_EQ(c.stats().explored, 300);  // handed over, not explored
  EXPECT_EQ(c.remaining_size(), 900 + 950 + 1070 + 850 + 970);
  EXPECT_EQ(c.stats().decomposed, 25u);  // the checkpoint's alone
  EXPECT_EQ(c.stats().splits, 1u);
  EXPECT_EQ(c.stats().handovers, 1u);
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));

  // Worker 0's next checkpoint lies within its copy: what left it was explored.
  EXPECT_TRUE(std::holds_alternative<BestMessage>(
      reply_to(c, 0, report(w0.unit_id, {iv(200, 1000), iv(1300, 2150), iv(3100, 4070)}, 4, 40))));
  EXPECT_EQ(c.stats().explored, 300 + 100 + 100 + 100);
  EXPECT_EQ(c.stats().decomposed, 25u + 40u);

  // A part outside the owner's copy is not its to give: only what lies inside moves. Worker
  // 0's unit (2620) is larger than worker 1's (1820): it is asked for worker 2.
  EXPECT_EQ(summary(c.handle(2, first_request(4))), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> odd =
      c.handle(0, Handover{w0.unit_id, kInfiniteTime, 2150, {iv(0, 50), iv(3600, 4070)}});
  ASSERT_EQ(summary(odd), (std::vector<Sent>{{0, kB}, {2, kW}}));
  EXPECT_EQ(work_of(odd[1]).intervals, std::vector<Interval>{iv(3600, 4070)});
  EXPECT_EQ(c.copies()[0].intervals(),
            (std::vector<Interval>{iv(200, 1000), iv(1300, 2150), iv(3100, 3600)}));
  EXPECT_EQ(c.stats().explored, 600);
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));
}

// A checkpoint that crosses a GiveRequest answers it (the owner's checkpoint is its exact
// state: the coordinator splits it); a stop does not ask a worker that owes a handover to
// checkpoint, and the handover it then sends is answered by END, its part kept for the
// global checkpoint.
TEST(Coordinator, CrossingCheckpointAndStopSettleAGiveRequest) {
  Coordinator c(6, 3, {iv(0, 720)}, Schedule{});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> crossed = c.handle(0, report(w0.unit_id, {iv(20, 720)}));
  ASSERT_EQ(summary(crossed), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(crossed[1]).intervals, std::vector<Interval>{iv(370, 720)});
  EXPECT_FALSE(c.asked_to_give(0));
  EXPECT_EQ(c.stats().handovers, 0u);
  EXPECT_EQ(c.stats().splits, 1u);

  // Copies of 350 each: worker 0 (the first) is asked for worker 2.
  EXPECT_EQ(summary(c.handle(2, first_request())), (std::vector<Sent>{{0, kG}}));
  EXPECT_EQ(summary(c.request_stop()), (std::vector<Sent>{{2, kE}, {1, kC}}));
  const std::vector<Outgoing> late =
      c.handle(0, Handover{w0.unit_id, kInfiniteTime, 150, {iv(220, 370)}});
  EXPECT_EQ(summary(late), (std::vector<Sent>{{0, kE}}));
  EXPECT_EQ(c.unassigned().size(), 1u);
  EXPECT_EQ(c.unassigned()[0].intervals(), std::vector<Interval>{iv(220, 370)});
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));
}

// With min_split_size 20 on [0, 5!): a victim whose copy shrank to 15 by its checkpoint is
// not split; it is acknowledged and the next largest copy's owner is asked instead.
TEST(Coordinator, TooSmallVictimLeadsToAskingTheNext) {
  CoordinatorSettings settings;
  settings.min_split_size = 20;
  Coordinator c(5, 3, {iv(0, 120)}, Schedule{}, settings);
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> first = c.handle(0, report(w0.unit_id, {iv(0, 120)}));
  ASSERT_EQ(summary(first), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(first[0]).intervals, std::vector<Interval>{iv(0, 60)});
  const WorkAssignment w1 = work_of(first[1]);
  EXPECT_EQ(w1.intervals, std::vector<Interval>{iv(60, 120)});

  // Both copies hold 60: the first, worker 0's, is the victim.
  EXPECT_EQ(summary(c.handle(2, first_request())), (std::vector<Sent>{{0, kG}}));
  EXPECT_EQ(summary(c.handle(0, report(w0.unit_id, {iv(45, 60)}))),
            (std::vector<Sent>{{0, kB}, {1, kG}}));
  EXPECT_EQ(c.hungry_count(), 1);
  EXPECT_EQ(c.copies()[0].intervals(), std::vector<Interval>{iv(45, 60)});

  const std::vector<Outgoing> second = c.handle(1, report(w1.unit_id, {iv(70, 120)}));
  ASSERT_EQ(summary(second), (std::vector<Sent>{{1, kW}, {2, kW}}));
  EXPECT_EQ(work_of(second[0]).intervals, std::vector<Interval>{iv(70, 95)});
  EXPECT_EQ(work_of(second[1]).intervals, std::vector<Interval>{iv(95, 120)});
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_EQ(c.stats().explored, 45 + 10);
  EXPECT_EQ(c.stats().splits, 2u);
  EXPECT_EQ(c.stats().give_requests, 3u);
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));
}

// An initial decomposition of 10 intervals of length 10 in [0, 5!): the unassigned unit is
// handed out K_max intervals at a time. Then worker 4 (K_max 10) and worker 3 (K_max 2)
// wait, in that order; worker 1's checkpoint serves them first come first served, each
// taking the right halves of at most K_max of the intervals left.
TEST(Coordinator, HungryWorkersAreServedInOrderWithinKMax) {
  std::vector<Interval> pieces;
  for (int j = 0; j < 10; ++j) pieces.push_back(iv(10 * j, 10 * j + 10));
  Coordinator c(5, 5, pieces, Schedule{});
  auto take = [&](int worker, int k_max) {
    return expect_work(reply_to(c, worker, first_request(k_max)));
  };
  const WorkAssignment w0 = take(0, 3);
  EXPECT_EQ(w0.intervals, (std::vector<Interval>{iv(0, 10), iv(10, 20), iv(20, 30)}));
  const WorkAssignment w1 = take(1, 4);
  EXPECT_EQ(w1.intervals, (std::vector<Interval>{iv(30, 40), iv(40, 50), iv(50, 60), iv(60, 70)}));
  EXPECT_EQ(take(2, 5).intervals, (std::vector<Interval>{iv(70, 80), iv(80, 90), iv(90, 100)}));
  EXPECT_TRUE(c.unassigned().empty());
  EXPECT_EQ(c.stats().assignments, 3u);

  // Copies of 30, 40, 30: worker 1 is asked, then worker 0 (the first of the two 30s).
  EXPECT_EQ(summary(c.handle(4, first_request(10))), (std::vector<Sent>{{1, kG}}));
  EXPECT_EQ(summary(c.handle(3, first_request(2))), (std::vector<Sent>{{0, kG}}));

  const std::vector<Outgoing> out = c.handle(1, report(w1.unit_id, w1.intervals, 4));
  ASSERT_EQ(summary(out), (std::vector<Sent>{{1, kW}, {4, kW}, {3, kW}}));
  EXPECT_EQ(work_of(out[1]).intervals,
            (std::vector<Interval>{iv(35, 40), iv(45, 50), iv(55, 60), iv(65, 70)}));
  EXPECT_EQ(work_of(out[2]).intervals, (std::vector<Interval>{iv(32, 35), iv(42, 45)}));
  EXPECT_EQ(work_of(out[0]).intervals,
            (std::vector<Interval>{iv(30, 32), iv(40, 42), iv(50, 55), iv(60, 65)}));
  EXPECT_EQ(c.copies()[1].intervals(), work_of(out[0]).intervals);
  EXPECT_EQ(c.hungry_count(), 0);

  // Worker 0's requested checkpoint finds nobody waiting: an acknowledgement.
  EXPECT_EQ(summary(c.handle(0, report(w0.unit_id, w0.intervals, 3))),
            (std::vector<Sent>{{0, kB}}));
  EXPECT_EQ(c.stats().splits, 2u);
  EXPECT_EQ(c.remaining_size(), 100);
  EXPECT_TRUE(all_disjoint(c));
}

// A report equal to the copy changes nothing: BEST, however often it comes.
TEST(Coordinator, RepeatedRequestGetsBest) {
  Coordinator c(6, 1, {iv(0, 720)}, Schedule{{}, 500});
  const WorkAssignment w = expect_work(reply_to(c, 0, first_request()));
  for (int repeat = 0; repeat < 3; ++repeat) {
    const ToWorker reply = reply_to(c, 0, report(w.unit_id, {iv(0, 720)}));
    ASSERT_TRUE(std::holds_alternative<BestMessage>(reply));
    EXPECT_EQ(std::get<BestMessage>(reply).best, (Schedule{{}, 500}));
  }
  EXPECT_EQ(c.stats().work_messages, 4u);
  EXPECT_EQ(c.stats().explored, 0);
  EXPECT_EQ(c.copies()[0].intervals(), std::vector<Interval>{iv(0, 720)});
  // Having explored a prefix, the worker's shorter unit is simply acknowledged.
  EXPECT_TRUE(
      std::holds_alternative<BestMessage>(reply_to(c, 0, report(w.unit_id, {iv(300, 720)}))));
  EXPECT_EQ(c.stats().explored, 300);
}

// A worker out of step, reporting 3 intervals with a K_max of 2, gets its first 2 back; the
// third goes to W_unassigned, where the next requester finds it, or a waiting worker at once.
TEST(Coordinator, CopiesAreTrimmedToTheReportedCapacity) {
  Coordinator c(5, 2, {iv(0, 10), iv(10, 20), iv(20, 30)}, Schedule{});
  const WorkAssignment w = expect_work(reply_to(c, 0, first_request(3)));
  EXPECT_EQ(w.intervals.size(), 3u);
  const WorkAssignment trimmed = expect_work(reply_to(c, 0, report(w.unit_id, w.intervals, 2)));
  EXPECT_EQ(trimmed.intervals, (std::vector<Interval>{iv(0, 10), iv(10, 20)}));
  ASSERT_EQ(c.unassigned().size(), 1u);
  EXPECT_EQ(c.unassigned()[0].intervals(), std::vector<Interval>{iv(20, 30)});
  EXPECT_EQ(expect_work(reply_to(c, 1, first_request(4))).intervals,
            std::vector<Interval>{iv(20, 30)});
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));

  Coordinator d(5, 2, {iv(0, 10), iv(10, 20), iv(20, 30)}, Schedule{});
  const WorkAssignment v = expect_work(reply_to(d, 0, first_request(3)));
  EXPECT_EQ(summary(d.handle(1, first_request(4))), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> out = d.handle(0, report(v.unit_id, v.intervals, 2));
  ASSERT_EQ(summary(out), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(out[0]).intervals, (std::vector<Interval>{iv(0, 10), iv(10, 20)}));
  EXPECT_EQ(work_of(out[1]).intervals, std::vector<Interval>{iv(20, 30)});
  EXPECT_TRUE(d.unassigned().empty());
  EXPECT_EQ(d.stats().splits, 0u);
  EXPECT_EQ(d.stats().assignments, 2u);
  EXPECT_TRUE(all_disjoint(d));
}

// Worker 0's copy is [0, N/2[ after a split; a report of [N/2, N[ under the same id and of
// the same size (out of step) is intersected, not trusted: worker 0 is left with nothing and
// waits, worker 1's copy is untouched and worker 1 is asked to checkpoint.
TEST(Coordinator, ReportOutsideTheCopyIsIntersected) {
  const mpz_class total = factorial(8);  // 40320
  Coordinator c(8, 2, {iv(0, total)}, Schedule{});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> split = c.handle(0, report(w0.unit_id, {iv(0, total)}));
  ASSERT_EQ(summary(split), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(split[1]).intervals, std::vector<Interval>{iv(20160, total)});

  EXPECT_EQ(summary(c.handle(0, report(w0.unit_id, {iv(20160, total)}))),
            (std::vector<Sent>{{1, kG}}));
  EXPECT_TRUE(c.hungry(0));
  EXPECT_TRUE(c.copies()[0].empty());
  EXPECT_EQ(c.copies()[1].intervals(), std::vector<Interval>{iv(20160, total)});
  EXPECT_EQ(c.stats().explored, 20160);
  EXPECT_TRUE(all_disjoint(c));

  // A worker's first message naming work it never had gets nothing of it either.
  Coordinator d(8, 2, {iv(0, total)}, Schedule{});
  expect_work(reply_to(d, 0, first_request()));
  EXPECT_EQ(summary(d.handle(1, report(77, {iv(0, 100)}))), (std::vector<Sent>{{0, kG}}));
  EXPECT_TRUE(d.copies()[1].empty());
  EXPECT_EQ(d.stats().explored, 0);
}

// No splits (min_split_size above 6!): workers 1 and 2 wait and nobody is asked. When
// worker 0 reports its unit done, it and both waiting workers get END; a late WORK is
// answered END too; after all farewells the search is finished.
TEST(Coordinator, TerminationSendsEndToEveryHungryWorker) {
  CoordinatorSettings no_splits;
  no_splits.min_split_size = factorial(6) + 1;
  Coordinator c(6, 3, {iv(0, 720)}, Schedule{}, no_splits);
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_TRUE(c.handle(1, first_request()).empty());
  EXPECT_TRUE(c.handle(2, first_request()).empty());
  EXPECT_EQ(c.hungry_count(), 2);
  EXPECT_FALSE(c.all_work_done());
  // A waiting worker may not send anything.
  EXPECT_THROW(c.handle(1, BestMessage{Schedule{{}, 9}}), std::runtime_error);
  EXPECT_EQ(c.hungry_count(), 2);
  EXPECT_EQ(c.best().makespan, kInfiniteTime);

  EXPECT_EQ(summary(c.handle(0, report(w0.unit_id, {}, 1, 4))),
            (std::vector<Sent>{{0, kE}, {1, kE}, {2, kE}}));
  EXPECT_TRUE(c.all_work_done());
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_EQ(c.stats().explored, 720);
  EXPECT_TRUE(std::holds_alternative<StopOrder>(reply_to(c, 0, report(w0.unit_id, {}))));
  // Everybody was sent END already: a stop has nothing to send.
  EXPECT_TRUE(c.request_stop().empty());
  EXPECT_FALSE(c.finished());

  EXPECT_TRUE(c.handle(0, Farewell{w0.unit_id, 1, 2, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_TRUE(c.terminated(0));
  EXPECT_THROW(c.handle(0, first_request()), std::runtime_error);  // it has left
  EXPECT_TRUE(c.handle(1, Farewell{0, 0, 1, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_FALSE(c.finished());
  EXPECT_TRUE(c.handle(2, Farewell{0, 0, 0, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_TRUE(c.finished());
  EXPECT_EQ(c.terminated_count(), 3);
  EXPECT_EQ(c.stats().decomposed, 5u);
  EXPECT_EQ(c.stats().leaves, 3u);
  EXPECT_EQ(c.stats().checkpoint_requests, 0u);
  EXPECT_THROW(c.handle(3, first_request()), std::out_of_range);
}

// A worker leaving with work left (here without END) hands it to the waiting workers at
// once, within their K_max; with nothing left anywhere they get END instead.
TEST(Coordinator, FarewellWorkFeedsHungryWorkers) {
  Coordinator c(6, 3, {iv(0, 720)}, Schedule{});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request(2)));
  EXPECT_EQ(summary(c.handle(1, first_request(1))), (std::vector<Sent>{{0, kG}}));
  EXPECT_TRUE(c.handle(2, first_request(1)).empty());
  const std::vector<Outgoing> out = c.handle(
      0, Farewell{w0.unit_id, 0, 0, Schedule{}, {iv(100, 300), iv(400, 720)}, WorkerTimes{}});
  ASSERT_EQ(summary(out), (std::vector<Sent>{{1, kW}, {2, kW}}));
  EXPECT_EQ(work_of(out[0]).intervals, std::vector<Interval>{iv(100, 300)});
  EXPECT_EQ(work_of(out[1]).intervals, std::vector<Interval>{iv(400, 720)});
  EXPECT_NE(work_of(out[0]).unit_id, work_of(out[1]).unit_id);
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_EQ(c.stats().explored, 200);
  EXPECT_EQ(c.stats().assignments, 3u);
  EXPECT_TRUE(c.unassigned().empty());
  EXPECT_TRUE(all_disjoint(c));

  // Not enough for both: worker 3 still waits, for worker 1, asked already to hand over.
  Coordinator d(6, 4, {iv(0, 720)}, Schedule{});
  const WorkAssignment v0 = expect_work(reply_to(d, 0, first_request()));
  EXPECT_EQ(summary(d.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  EXPECT_EQ(summary(d.handle(0, report(v0.unit_id, {iv(0, 720)}))),
            (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(summary(d.handle(2, first_request())), (std::vector<Sent>{{0, kG}}));
  EXPECT_EQ(summary(d.handle(3, first_request())), (std::vector<Sent>{{1, kG}}));
  const std::vector<Outgoing> rest =
      d.handle(0, Farewell{v0.unit_id, 0, 0, Schedule{}, {iv(50, 360)}, WorkerTimes{}});
  ASSERT_EQ(summary(rest), (std::vector<Sent>{{2, kW}}));
  EXPECT_EQ(work_of(rest[0]).intervals, std::vector<Interval>{iv(50, 360)});
  EXPECT_TRUE(d.hungry(3));
  EXPECT_TRUE(all_disjoint(d));

  // The last work leaves with its worker: END to the waiting ones.
  CoordinatorSettings no_splits;
  no_splits.min_split_size = 25;
  Coordinator e(4, 3, {iv(0, 24)}, Schedule{}, no_splits);
  const WorkAssignment u0 = expect_work(reply_to(e, 0, first_request()));
  EXPECT_TRUE(e.handle(1, first_request()).empty());
  EXPECT_TRUE(e.handle(2, first_request()).empty());
  EXPECT_EQ(summary(e.handle(0, Farewell{u0.unit_id, 0, 0, Schedule{}, {}, WorkerTimes{}})),
            (std::vector<Sent>{{1, kE}, {2, kE}}));
  EXPECT_TRUE(e.all_work_done());
  EXPECT_EQ(e.stats().explored, 24);
}

TEST(Coordinator, BestSolutionUpdates) {
  Coordinator c(3, 1, {iv(0, 6)}, Schedule{{}, 100});  // a bare bound
  auto best_reply = [&](const ToCoordinator& message) {
    const ToWorker reply = reply_to(c, 0, message);
    EXPECT_TRUE(std::holds_alternative<BestMessage>(reply));
    return std::holds_alternative<BestMessage>(reply) ? std::get<BestMessage>(reply).best
                                                      : Schedule{};
  };
  EXPECT_EQ(best_reply(BestMessage{Schedule{{0, 1, 2}, 120}}), (Schedule{{}, 100}));  // worse
  EXPECT_EQ(best_reply(BestMessage{Schedule{{2, 1, 0}, 90}}), (Schedule{{2, 1, 0}, 90}));
  EXPECT_EQ(best_reply(BestMessage{Schedule{{0, 2, 1}, 90}}), (Schedule{{2, 1, 0}, 90}));  // tie
  EXPECT_EQ(c.stats().improvements, 1u);
  EXPECT_EQ(c.stats().best_messages, 3u);

  // A checkpoint's makespan is a bound: taken when better, without a schedule; the WORK
  // reply carries it. A schedule of that makespan then fills it in.
  WorkReport checkpoint = first_request();
  checkpoint.best_makespan = 80;
  EXPECT_EQ(expect_work(reply_to(c, 0, checkpoint)).best, (Schedule{{}, 80}));
  EXPECT_EQ(best_reply(BestMessage{Schedule{{1, 0, 2}, 80}}), (Schedule{{1, 0, 2}, 80}));
  EXPECT_EQ(c.best(), (Schedule{{1, 0, 2}, 80}));

  EXPECT_THROW(c.handle(0, BestMessage{Schedule{{0, 1}, 10}}), std::runtime_error);
  EXPECT_EQ(c.best().makespan, 80);

  // A farewell's solution counts too.
  EXPECT_TRUE(c.handle(0, Farewell{0, 0, 0, Schedule{{2, 0, 1}, 70}, {}, WorkerTimes{}}).empty());
  EXPECT_EQ(c.best(), (Schedule{{2, 0, 1}, 70}));
  EXPECT_EQ(c.stats().improvements, 4u);
}

}  // namespace
}  // namespace permbb::cluster
