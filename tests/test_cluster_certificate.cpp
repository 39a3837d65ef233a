// Certificates of a cluster, in one process: the real Coordinator and real workers
// (run_worker over multi-core engines that record their cut), their messages through the
// wire format. Every WORK and Farewell carries the records of the nodes it counts, the
// coordinator merges them where it adds the counts, and a stopped cluster restarts from its
// checkpoint state with both. The references are a single engine's counts at the same fixed
// bound and the independent auditor, which re-explores every explored subproblem.
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "audit_checks.hpp"
#include "certificate_file.hpp"
#include "certificate_reader.hpp"
#include "coordinator.hpp"
#include "factoradic_mpz.hpp"
#include "multicore_engine.hpp"
#include "test_support.hpp"
#include "worker_process.hpp"

namespace permbb::cluster {
namespace {

using namespace std::chrono_literals;
using testing::random_instance;

// Rank 0 in this process: the Coordinator behind a lock, each worker's communicator a thread
// that hands its messages over (encoded and decoded, as on the wire) and routes what the
// coordinator sends to the workers' mailboxes. Once the workers have reported `node_budget`
// nodes in this run (0: no limit) the coordinator is told to stop, as by --node-limit.
class Hub {
 public:
  Hub(Coordinator& coordinator, std::uint64_t node_budget)
      : coordinator_(coordinator),
        stop_at_(node_budget > 0 ? coordinator.stats().decomposed + node_budget : 0),
        mailboxes_(static_cast<std::size_t>(coordinator.workers()), nullptr),
        checkpoint_waiting_(static_cast<std::size_t>(coordinator.workers()), false) {}

  CommunicatorMain communicator(int worker) {
    return [this, worker](Mailbox& mailbox) {
      try {
        serve(worker, mailbox);
      } catch (...) {
        mailbox.fail(std::current_exception());
      }
    };
  }

 private:
  void serve(int worker, Mailbox& mailbox) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      mailboxes_[static_cast<std::size_t>(worker)] = &mailbox;
      if (checkpoint_waiting_[static_cast<std::size_t>(worker)]) mailbox.request_checkpoint();
    }
    while (true) {
      const auto message = mailbox.wait_outgoing(1ms);
      if (!message) continue;
      const bool farewell = std::holds_alternative<Farewell>(*message);
      const Encoded encoded = encode_for_coordinator(*message);
      ToCoordinator decoded = decode_from_worker(static_cast<int>(encoded.tag), encoded.bytes);
      std::lock_guard<std::mutex> lock(mutex_);
      for (const Outgoing& out : coordinator_.handle(worker, std::move(decoded))) route(out);
      if (stop_at_ > 0 && coordinator_.stats().decomposed >= stop_at_) {
        for (const Outgoing& out : coordinator_.request_stop()) route(out);
      }
      if (farewell) {
        mailboxes_[static_cast<std::size_t>(worker)] = nullptr;
        return;
      }
    }
  }

  void route(const Outgoing& out) {
    const auto w = static_cast<std::size_t>(out.worker);
    const Encoded encoded = encode_for_worker(out.message);
    const ToWorker message = decode_from_coordinator(static_cast<int>(encoded.tag), encoded.bytes);
    Mailbox* mailbox = mailboxes_.at(w);
    if (mailbox == nullptr && std::holds_alternative<CheckpointRequest>(message)) {
      checkpoint_waiting_[w] = true;  // a stop before the worker's first word: MPI keeps it too
      return;
    }
    ASSERT_NE(mailbox, nullptr) << "a message to worker " << out.worker << ", not listening";
    if (std::holds_alternative<CheckpointRequest>(message)) {
      mailbox->request_checkpoint();
    } else if (const auto* give = std::get_if<GiveRequest>(&message)) {
      mailbox->request_give(give->max_intervals);
    } else {
      mailbox->deliver(message);
    }
  }

  Coordinator& coordinator_;
  const std::uint64_t stop_at_;
  std::mutex mutex_;
  std::vector<Mailbox*> mailboxes_;  // null before a worker's first message and after its last
  std::vector<bool> checkpoint_waiting_;
};

struct ClusterSetup {
  const Instance* instance = nullptr;
  SearchSettings settings;
  Time ub = kInfiniteTime;
  int depth = 1;
  int workers = 3;
};

// One run of the cluster from `state` until every worker has left; returns the coordinator's
// state at the end (what a global checkpoint saves).
CoordinatorState run_cluster(const ClusterSetup& setup, CoordinatorState state,
                             std::uint64_t node_budget) {
  CoordinatorSettings settings;
  settings.max_handover_intervals = 4;
  Coordinator coordinator(setup.instance->jobs(), setup.workers, std::move(state), settings);
  Hub hub(coordinator, node_budget);
  std::vector<std::thread> threads;
  for (int w = 0; w < setup.workers; ++w) {
    threads.emplace_back([&, w] {
      Incumbent incumbent(setup.ub);
      MulticoreOptions options;
      options.threads = 1;
      options.min_steal_leaves = 2;
      options.cut = CutRecording{setup.depth, {}};
      MulticoreEngine engine(*setup.instance, setup.settings, incumbent, options);
      WorkerSettings worker;
      worker.checkpoint_seconds = 0.005;  // many reports, each with its records
      worker.min_steal_checkpoint_seconds = 0.005;
      worker.slice_seconds = 0.001;
      worker.workers = setup.workers;
      worker.worker_index = w;
      worker.cut_depth = setup.depth;
      EXPECT_NO_THROW(run_worker(engine, incumbent, worker, hub.communicator(w)));
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_TRUE(coordinator.finished());
  EXPECT_TRUE(coordinator.coverage_holds());
  return coordinator.checkpoint_state();
}

std::string temporary_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "permbb_cluster_certificate_" + test->name() + "_" + name;
}

// The certificate of a completed cluster run, as solve/ writes it.
audit::Certificate certificate_of(const ClusterSetup& setup, const CoordinatorState& end) {
  const std::optional<SearchCut> cut = search_cut_of(end.cut);
  EXPECT_TRUE(cut.has_value());
  solve::CertificateContent content;
  content.instance = setup.instance;
  content.settings = setup.settings;
  content.optimal = !end.best.permutation.empty();
  content.upper_bound = end.best.makespan;
  content.schedule = end.best.permutation;
  content.run = {end.stats.decomposed, end.stats.leaves};
  content.cut = cut ? cut->partition() : CutPartition{};
  const std::string path = temporary_path("cert");
  solve::write_certificate(path, content);
  return audit::read_certificate(path);
}

// The nodes one recording engine decomposes over the whole space from `ub`, and the bound it
// ends with.
NodeCounters single_engine_search(const Instance& instance, SearchSettings settings, Time& ub,
                                  int depth) {
  Incumbent incumbent(ub);
  MulticoreOptions options;
  options.threads = 1;
  options.cut = CutRecording{depth, {}};
  MulticoreEngine engine(instance, settings, incumbent, options);
  engine.set_work({Interval{0, factorial(instance.jobs())}});
  EXPECT_TRUE(engine.explore(std::chrono::seconds(60)));
  ub = incumbent.value();
  return engine.stats().nodes;
}

// All the work in one unit: the first worker takes it, and the others, hungry, get their work
// through handovers (the coordinator asks the owner at once).
CoordinatorState fresh_state(const ClusterSetup& setup) {
  return CoordinatorState{{WorkUnit(1, {Interval{0, factorial(setup.instance->jobs())}})},
                          Schedule{{}, setup.ub},
                          {},
                          CutRecords{setup.depth, {}}};
}

// At a fixed bound (the optimum: nothing below it exists) the cluster's counts are those of
// one engine, whatever the workers, handovers and reports; its certificate holds with every
// explored subproblem re-explored. A run stopped after a few reports and restarted from its
// checkpoint state (records included) adds up the same.
TEST(ClusterCertificate, WorkersRecordsAddUpToOneEngineAndHold) {
  std::mt19937 rng(51);
  std::uint64_t handovers = 0;
  int restarts = 0;
  const BranchingRule rules[] = {BranchingRule::kMinMin, BranchingRule::kBackward,
                                 BranchingRule::kForward};
  for (int trial = 0; trial < testing::scaled_trials(6); ++trial) {
    // The fixed bound: the optimum, as one engine finds it (the audit checks that nothing is
    // below it). Instances whose search there is too small to be shared are drawn again.
    std::optional<Instance> instance;
    ClusterSetup setup;
    NodeCounters one;
    for (int draw = 0; draw < 40 && one.decomposed < 20000; ++draw) {
      instance = random_instance(rng, 10, 12);
      setup = {&*instance, {BoundKind::kLb1, rules[trial % 3]}, kInfiniteTime, 1 + trial % 3,
               2 + trial % 4};
      single_engine_search(*instance, setup.settings, setup.ub, setup.depth);
      one = single_engine_search(*instance, setup.settings, setup.ub, setup.depth);
    }
    ASSERT_GE(one.decomposed, 20000u) << "trial " << trial << ": no search large enough";
    // Once in one run, once stopped after each quarter of the nodes and restarted.
    for (const std::uint64_t budget : {std::uint64_t{0}, one.decomposed / 4}) {
      CoordinatorState end = run_cluster(setup, fresh_state(setup), budget);
      for (int link = 0; link < 100 && !end.units.empty(); ++link) {
        end = run_cluster(setup, std::move(end), budget);  // a restart: records go on
        ++restarts;
      }
      ASSERT_TRUE(end.units.empty()) << "trial " << trial;
      handovers += end.stats.handovers;  // the chain's: the counters go on across restarts
      EXPECT_EQ(end.stats.decomposed, one.decomposed) << "trial " << trial;
      EXPECT_EQ(end.stats.leaves, one.leaves) << "trial " << trial;
      const audit::Certificate c = certificate_of(setup, end);
      const audit::AuditResult result = audit::audit_certificate(c, 1000000, 1);
      EXPECT_TRUE(result.holds()) << "trial " << trial << " budget " << budget << ": "
                                  << (result.holds() ? "" : result.first_failure()->failure);
      EXPECT_TRUE(result.sample.complete);
    }
  }
  EXPECT_GT(handovers, 0u) << "no handover happened: the records' way through one is untested";
  EXPECT_GT(restarts, 0) << "no run was stopped: the records' way through a restart is untested";
}

}  // namespace
}  // namespace permbb::cluster
