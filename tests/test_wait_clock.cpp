// Tests of WaitClock (coordinator/wait_clock.hpp): the workers' waits for work and their
// answers to GiveRequests as rank 0 sees them. Times are given, not measured: every
// expectation is exact arithmetic on them.
#include <gtest/gtest.h>

#include <vector>

#include "wait_clock.hpp"

namespace permbb::cluster {
namespace {

WorkReport empty_report() { return WorkReport{}; }

WorkReport report_with_work() {
  WorkReport r;
  r.intervals = {Interval{mpz_class(0), mpz_class(10)}};
  return r;
}

Outgoing unit_for(int worker) {
  return Outgoing{worker, WorkAssignment{7, {Interval{mpz_class(10), mpz_class(20)}}, Schedule{}}};
}

TEST(WaitClock, AWaitRunsFromTheEmptyReportToTheUnitSent) {
  WaitClock clock(2);
  EXPECT_EQ(clock.idle_since(), (std::vector<double>{-1, -1}));
  clock.received(0, empty_report(), 1.0);
  clock.received(0, empty_report(), 1.5);  // still the same wait
  clock.sent({Outgoing{1, GiveRequest{4}}}, 1.0);
  clock.sent({unit_for(0)}, 2.25);
  EXPECT_EQ(clock.waits()[0].idle_spells, 1u);
  EXPECT_DOUBLE_EQ(clock.waits()[0].idle_seconds, 1.25);
  EXPECT_DOUBLE_EQ(clock.idle_since()[0], -1);

  // The last wait, ended by END and not by work, stays open: the worker ran out for good.
  clock.received(0, empty_report(), 3.0);
  clock.sent({Outgoing{0, WorkAssignment{}}, Outgoing{0, StopOrder{}}}, 3.5);
  EXPECT_EQ(clock.waits()[0].idle_spells, 1u);
  EXPECT_DOUBLE_EQ(clock.idle_since()[0], 3.0);
  // A report with work is no wait.
  clock.received(1, report_with_work(), 4.0);
  EXPECT_DOUBLE_EQ(clock.idle_since()[1], -1);
}

TEST(WaitClock, AGiveRequestIsAnsweredByAnyMessageButBest) {
  WaitClock clock(2);
  clock.sent({Outgoing{1, GiveRequest{4}}}, 1.0);
  clock.received(1, BestMessage{}, 1.5);  // a candidate crossing the request answers nothing
  EXPECT_EQ(clock.waits()[1].gives, 0u);
  clock.received(1, Handover{}, 2.0);
  EXPECT_EQ(clock.waits()[1].gives, 1u);
  EXPECT_DOUBLE_EQ(clock.waits()[1].give_seconds, 1.0);

  clock.sent({Outgoing{1, GiveRequest{4}}}, 3.0);
  clock.received(1, report_with_work(), 3.5);  // a checkpoint that crossed the request
  clock.received(1, report_with_work(), 4.0);  // no request outstanding: not counted
  EXPECT_EQ(clock.waits()[1].gives, 2u);
  EXPECT_DOUBLE_EQ(clock.waits()[1].give_seconds, 1.5);

  clock.sent({Outgoing{1, GiveRequest{4}}}, 5.0);
  clock.received(1, Farewell{}, 5.25);
  EXPECT_EQ(clock.waits()[1].gives, 3u);
  EXPECT_DOUBLE_EQ(clock.waits()[1].give_seconds, 1.75);
  EXPECT_EQ(clock.waits()[0].gives, 0u);
}

TEST(WaitClock, WorkersOutsideTheRangeAreIgnored) {
  WaitClock clock(1);
  clock.received(-1, empty_report(), 1.0);
  clock.received(1, empty_report(), 1.0);
  clock.sent({unit_for(3)}, 2.0);
  EXPECT_EQ(clock.idle_since(), (std::vector<double>{-1}));
  EXPECT_EQ(clock.waits()[0].idle_spells, 0u);
}

}  // namespace
}  // namespace permbb::cluster
