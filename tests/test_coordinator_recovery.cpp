// The coordinator's hand-worked scenarios of a run's end and recovery: a stop with its global
// checkpoint and the restart from it, the certificates' cut records carried through both,
// lost workers, and starts it refuses. Without MPI, as test_coordinator.cpp.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "coordinator.hpp"
#include "coordinator_scenarios.hpp"
#include "cut_record_printing.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::cluster {
namespace {

using namespace scenario;  // NOLINT(google-build-using-namespace): the scenarios' vocabulary

// A requested stop sends END to the waiting worker and asks every other worker still in
// the search (not already asked) to checkpoint; from then on WORK and BEST get END. The
// farewells hand back unexplored work, which a coordinator restored from the checkpoint
// state hands out again, counters continuing.
TEST(Coordinator, StopCheckpointAndRestart) {
  const mpz_class total = factorial(7);  // 5040
  Coordinator c(7, 4, {iv(0, total)}, Schedule{{}, 400});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  const std::vector<Outgoing> split = c.handle(0, report(w0.unit_id, {iv(1000, total)}, 1, 50));
  ASSERT_EQ(summary(split), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(split[0]).intervals, std::vector<Interval>{iv(1000, 3020)});
  const WorkAssignment w1 = work_of(split[1]);
  EXPECT_EQ(w1.intervals, std::vector<Interval>{iv(3020, total)});
  // Two copies of 2020: worker 0 is asked. Worker 3 never sent anything.
  EXPECT_EQ(summary(c.handle(2, first_request())), (std::vector<Sent>{{0, kG}}));

  EXPECT_EQ(summary(c.request_stop()), (std::vector<Sent>{{2, kE}, {1, kC}, {3, kC}}));
  EXPECT_TRUE(c.stopping());
  EXPECT_EQ(c.hungry_count(), 0);
  EXPECT_TRUE(c.request_stop().empty());
  EXPECT_EQ(c.stats().checkpoint_requests, 2u);  // worker 0 owes a handover already
  EXPECT_EQ(c.stats().give_requests, 2u);
  EXPECT_TRUE(
      std::holds_alternative<StopOrder>(reply_to(c, 0, report(w0.unit_id, {iv(1200, 3020)}))));
  EXPECT_TRUE(std::holds_alternative<StopOrder>(reply_to(c, 1, BestMessage{Schedule{{}, 390}})));
  EXPECT_TRUE(std::holds_alternative<StopOrder>(reply_to(c, 3, first_request())));
  EXPECT_TRUE(c.handle(2, Farewell{0, 0, 0, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_TRUE(c.handle(0, Farewell{w0.unit_id, 10, 0, Schedule{}, {iv(1300, 3020)}, WorkerTimes{}})
                  .empty());
  EXPECT_TRUE(c.handle(1, Farewell{w1.unit_id, 20, 0, Schedule{}, {iv(4000, 5040)}, WorkerTimes{}})
                  .empty());
  EXPECT_TRUE(c.handle(3, Farewell{0, 0, 0, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_TRUE(c.finished());
  EXPECT_FALSE(c.all_work_done());
  EXPECT_EQ(c.stats().explored, 1000 + 200 + 100 + 980);
  EXPECT_EQ(c.best().makespan, 390);

  CoordinatorState state = c.checkpoint_state();
  EXPECT_EQ(state.units.size(), 2u);
  Coordinator restarted(7, 3, std::move(state));
  EXPECT_EQ(restarted.total_size(), total);
  EXPECT_TRUE(restarted.coverage_holds());
  EXPECT_EQ(restarted.stats().decomposed, 80u);
  EXPECT_EQ(restarted.best().makespan, 390);
  EXPECT_EQ(restarted.unassigned().size(), 2u);
  EXPECT_EQ(expect_work(reply_to(restarted, 2, first_request())).intervals,
            std::vector<Interval>{iv(1300, 3020)});
  EXPECT_NEAR(restarted.explored_fraction(), 2280.0 / 5040.0, 1e-12);
}

// One explored cut record of the node with `path` (job * 2 + direction per step).
CutRecord explored(CutPath path, std::uint64_t nodes) {
  CutRecord r;
  r.path = std::move(path);
  r.nodes.decomposed = nodes;
  r.ub_start = 400;
  r.ub_end = 400;
  return r;
}

// Certificates: the records come with the counts (WORK, Farewell) and merge by node where
// they are added; a Handover carries neither. The checkpoint state holds them, and a
// coordinator restored from it goes on adding to them.
TEST(Coordinator, CutRecordsMergeWithTheCountsAndSurviveARestart) {
  const mpz_class total = factorial(7);
  Coordinator c(
      7, 2,
      CoordinatorState{{WorkUnit(1, {iv(0, total)})}, Schedule{{}, 400}, {}, CutRecords{1, {}}});
  WorkReport first = first_request();
  first.cut = CutRecords{1, {}};
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first));
  WorkReport checkpoint = report(w0.unit_id, {iv(1000, total)}, 1, 30);
  checkpoint.cut = CutRecords{1, {explored({0}, 10), explored({2}, 20)}};
  reply_to(c, 0, checkpoint);
  EXPECT_EQ(c.stats().decomposed, 30u);
  // A handover moves intervals only: nothing is counted or merged.
  c.handle(0, Handover{w0.unit_id, 400, mpz_class(3000), {iv(4000, total)}});
  EXPECT_EQ(c.stats().decomposed, 30u);
  EXPECT_EQ(c.cut_snapshot(), (CutRecords{1, {explored({0}, 10), explored({2}, 20)}}));
  c.request_stop();
  Farewell farewell{w0.unit_id, 5, 0, Schedule{}, {iv(1500, 4000)}, WorkerTimes{}};
  farewell.cut = CutRecords{1, {explored({2}, 5)}};  // node 2 split between two messages
  c.handle(0, farewell);
  EXPECT_EQ(c.stats().decomposed, 35u);
  const CoordinatorState state = c.checkpoint_state();
  ASSERT_TRUE(state.cut.has_value());
  EXPECT_EQ(*state.cut, (CutRecords{1, {explored({0}, 10), explored({2}, 25)}}));

  Coordinator restarted(7, 2, state);
  WorkReport again = first_request();
  again.cut = CutRecords{1, {explored({4}, 7)}};
  reply_to(restarted, 1, again);
  EXPECT_EQ(restarted.cut_snapshot(),
            (CutRecords{1, {explored({0}, 10), explored({2}, 25), explored({4}, 7)}}));
}

// A message whose records are not the run's is refused, naming the worker, before anything
// is counted: none when the run records, some when it does not, another depth, a job of
// another instance.
TEST(Coordinator, RefusesCutRecordsThatAreNotTheRuns) {
  const auto recording = [] {
    return Coordinator(
        7, 2,
        CoordinatorState{{WorkUnit(1, {iv(0, 5040)})}, Schedule{{}, 400}, {}, CutRecords{1, {}}});
  };
  const auto refused = [](Coordinator& c, const WorkReport& r, const std::string& words) {
    try {
      c.handle(1, r);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("worker 1"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_EQ(c.stats().decomposed, 0u);
  };
  Coordinator c = recording();
  refused(c, report(0, {}, 1, 3), "sent no cut records");
  WorkReport deeper = report(0, {}, 1, 3);
  deeper.cut = CutRecords{2, {}};
  refused(c, deeper, "at depth 2");
  WorkReport foreign = report(0, {}, 1, 3);
  foreign.cut = CutRecords{1, {explored({2 * 7}, 3)}};
  refused(c, foreign, "naming job 7 of 7");
  Coordinator plain(7, 2, {iv(0, 5040)}, Schedule{{}, 400});
  WorkReport unasked = report(0, {}, 1, 3);
  unasked.cut = CutRecords{1, {}};
  refused(plain, unasked, "records none");
}

// A worker that stopped answering (worker 0, after its checkpoint split its unit for worker
// 1) is declared lost: the search stops (worker 1 and worker 2, which never sent anything,
// are asked to checkpoint, worker 0 is sent nothing), its copy stays as remaining work as it
// last reported it, and the search is finished without its farewell. The checkpoint state
// holds its copy, so a restart explores it again and loses nothing.
TEST(Coordinator, LostWorkerKeepsItsCopyAsRemainingWork) {
  const mpz_class total = factorial(7);  // 5040
  Coordinator c(7, 3, {iv(0, total)}, Schedule{{}, 400});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.handle(1, first_request())), (std::vector<Sent>{{0, kG}}));
  // Waiting for work, worker 1 owes nothing: it cannot be lost.
  EXPECT_FALSE(c.owes_message(1));
  EXPECT_THROW(c.declare_lost(1), std::logic_error);
  EXPECT_FALSE(c.stopping());
  const std::vector<Outgoing> split = c.handle(0, report(w0.unit_id, {iv(1000, total)}, 1, 50));
  ASSERT_EQ(summary(split), (std::vector<Sent>{{0, kW}, {1, kW}}));
  EXPECT_EQ(work_of(split[0]).intervals, std::vector<Interval>{iv(1000, 3020)});
  const WorkAssignment w1 = work_of(split[1]);
  EXPECT_TRUE(c.owes_message(0));
  EXPECT_TRUE(c.owes_message(2));

  EXPECT_EQ(summary(c.declare_lost(0)), (std::vector<Sent>{{1, kC}, {2, kC}}));
  EXPECT_TRUE(c.lost(0));
  EXPECT_EQ(c.lost_count(), 1);
  EXPECT_FALSE(c.owes_message(0));
  EXPECT_TRUE(c.stopping());
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_EQ(c.copies()[0].intervals(), std::vector<Interval>{iv(1000, 3020)});
  EXPECT_THROW(c.handle(0, report(w0.unit_id, {iv(2000, 3020)})), std::runtime_error);
  EXPECT_THROW(c.declare_lost(0), std::logic_error);
  EXPECT_THROW(c.declare_lost(3), std::out_of_range);
  EXPECT_TRUE(c.request_stop().empty());

  const ToWorker end1 = reply_to(c, 1, report(w1.unit_id, {iv(4000, 5040)}));
  EXPECT_TRUE(std::holds_alternative<StopOrder>(end1));
  EXPECT_TRUE(c.handle(1, Farewell{w1.unit_id, 20, 0, Schedule{}, {iv(4000, 5040)}, WorkerTimes{}})
                  .empty());
  EXPECT_TRUE(std::holds_alternative<StopOrder>(reply_to(c, 2, first_request())));
  EXPECT_FALSE(c.finished());
  EXPECT_TRUE(c.handle(2, Farewell{0, 0, 0, Schedule{}, {}, WorkerTimes{}}).empty());
  EXPECT_TRUE(c.finished());  // without worker 0's farewell
  EXPECT_FALSE(c.all_work_done());
  EXPECT_EQ(c.stats().explored, 1000 + 980);
  EXPECT_EQ(c.stats().decomposed, 70u);
  EXPECT_TRUE(c.coverage_holds());
  EXPECT_TRUE(all_disjoint(c));

  CoordinatorState state = c.checkpoint_state();
  ASSERT_EQ(state.units.size(), 2u);
  EXPECT_EQ(state.units[0].intervals(), std::vector<Interval>{iv(4000, 5040)});
  EXPECT_EQ(state.units[1].intervals(), std::vector<Interval>{iv(1000, 3020)});
  Coordinator restarted(7, 2, std::move(state));
  EXPECT_EQ(restarted.total_size(), total);
  EXPECT_EQ(restarted.remaining_size(), 3060);
  EXPECT_TRUE(restarted.coverage_holds());
  EXPECT_EQ(restarted.stats().decomposed, 70u);
}

// Every worker lost: the search is finished at once, all its work remaining.
TEST(Coordinator, AllWorkersLostFinishesTheSearch) {
  Coordinator c(5, 2, {iv(0, 120)}, Schedule{});
  const WorkAssignment w0 = expect_work(reply_to(c, 0, first_request()));
  EXPECT_EQ(summary(c.declare_lost(1)), (std::vector<Sent>{{0, kC}}));  // never spoke
  EXPECT_TRUE(c.declare_lost(0).empty());  // already asked: nothing more to send
  EXPECT_TRUE(c.finished());
  EXPECT_EQ(c.terminated_count(), 0);
  EXPECT_EQ(c.remaining_size(), 120);
  EXPECT_EQ(c.checkpoint_state().units.size(), 1u);
  EXPECT_EQ(w0.intervals, std::vector<Interval>{iv(0, 120)});
}

TEST(Coordinator, RefusesInvalidStarts) {
  EXPECT_THROW(Coordinator(4, 1, {iv(0, 10), iv(5, 12)}, Schedule{}), std::invalid_argument);
  EXPECT_THROW(Coordinator(4, 1, {iv(0, 25)}, Schedule{}), std::invalid_argument);  // 4! = 24
  EXPECT_THROW(Coordinator(4, 0, {iv(0, 24)}, Schedule{}), std::invalid_argument);
  EXPECT_THROW(Coordinator(4, 1, {iv(0, 24)}, Schedule{{0, 1, 1, 2}, 9}), std::invalid_argument);
  CoordinatorState overlapping{{WorkUnit(1, {iv(0, 10)}), WorkUnit(2, {iv(9, 12)})}, {}, {}};
  EXPECT_THROW(Coordinator(4, 1, overlapping), std::invalid_argument);
}

}  // namespace
}  // namespace permbb::cluster
