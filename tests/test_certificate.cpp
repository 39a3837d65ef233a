// Certificates end to end: the multi-core engine records its cut, solve/ writes the file,
// the independent auditor (audit/) reads and checks it. The references are brute force
// (optima, permutation and node counts of the unpruned tree), never the code under test;
// the auditor and the solver share no search code, so their agreement is itself a check.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "audit_checks.hpp"
#include "audit_search.hpp"
#include "certificate_support.hpp"
#include "certificate_reader.hpp"
#include "cut_record_printing.hpp"
#include "factoradic_mpz.hpp"
#include "flowshop_tables.hpp"
#include "ivm_explorer.hpp"
#include "input_error.hpp"
#include "multicore_engine.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::brute_force_optimum;
using testing::random_instance;

// Named after the running test too: ctest runs tests side by side.
std::string temporary_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "permbb_certificate_" + test->test_suite_name() + "_" +
         test->name() + "_" + name;
}

struct Solved {
  solve::CertificateContent content;
  std::string path;
};

// Writes the certificate of a search that ended with `incumbent`, counted `run` and
// recorded `cut`.
std::string write_certified(const Instance& instance, SearchSettings settings,
                            const Incumbent& incumbent, const NodeCounters& run,
                            const SearchCut& cut, const std::string& name,
                            std::uint64_t merge_up_to = 0) {
  const std::string path = temporary_path(name);
  testing::write_search_certificate(path, instance, settings, incumbent.permutation(),
                                    incumbent.value(), run, cut, merge_up_to);
  return path;
}

MulticoreOptions recording(int depth, CutFaults faults = {}, int threads = 2) {
  MulticoreOptions options;
  options.threads = threads;
  options.min_steal_leaves = 2;  // steal often, also inside the cut's subproblems
  options.cut = CutRecording{depth, faults};
  return options;
}

// Solves `instance` with the multi-core engine recording its cut at `depth`, from the
// upper bound `ub`, over `pieces` equal intervals, and writes the certificate.
// A completed recording search: its incumbent, its counts and its cut.
struct Recorded {
  std::unique_ptr<Incumbent> incumbent;  // not movable: engines hold it by reference
  NodeCounters run;
  SearchCut cut;
};

// Solves `instance` with the multi-core engine recording its cut at `depth`, from the
// upper bound `ub`, over `pieces` equal intervals.
Recorded solve_recording(const Instance& instance, SearchSettings settings, int depth, Time ub,
                         CutFaults faults = {}, int threads = 2, int pieces = 1) {
  Recorded out{std::make_unique<Incumbent>(ub), {}, SearchCut(depth)};
  MulticoreEngine engine(instance, settings, *out.incumbent, recording(depth, faults, threads));
  std::vector<Interval> work;
  const mpz_class all = factorial(instance.jobs());
  for (int i = 0; i < pieces; ++i) work.push_back({all * i / pieces, all * (i + 1) / pieces});
  engine.set_work(work);
  EXPECT_TRUE(engine.explore(std::chrono::seconds(60)));
  EXPECT_TRUE(engine.collect_cut(out.cut));
  out.run = engine.stats().nodes;
  return out;
}

// The same, and its certificate written.
std::string certify(const Instance& instance, SearchSettings settings, int depth, Time ub,
                    const std::string& name, CutFaults faults = {}, int threads = 2,
                    int pieces = 1) {
  const Recorded r = solve_recording(instance, settings, depth, ub, faults, threads, pieces);
  return write_certified(instance, settings, *r.incumbent, r.run, r.cut, name);
}

audit::AuditResult audit_file(const std::string& path, std::uint64_t sample = 1000000,
                              std::uint64_t seed = 1) {
  return audit::audit_certificate(audit::read_certificate(path), sample, seed);
}

int first_failed_check(const audit::AuditResult& result) {
  const audit::CheckOutcome* failed = result.first_failure();
  return failed == nullptr ? 0 : failed->number;
}

const BoundKind kBounds[] = {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb2Adjacent,
                             BoundKind::kLb1ThenLb2};
const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};

TEST(CutDepth, DeepestDepthWithinTheLimit) {
  EXPECT_EQ(cut_depth_for(20, 1000000), 4);  // 20*19*18*17 = 116280; *16 = 1860480
  EXPECT_EQ(cut_depth_for(30, 1000000), 4);  // 657720
  EXPECT_EQ(cut_depth_for(6, 1000000), 5);   // never past n-1
  EXPECT_EQ(cut_depth_for(1, 1000000), 0);
  EXPECT_EQ(cut_depth_for(10, 9), 0);
  EXPECT_EQ(cut_depth_for(10, 10), 1);
}

// The auditor's own search with no upper bound decomposes every node with at least one job
// fixed (n!/(n-d)! at depth d, d = 1..n-1) and every leaf (n!), and meets the optimum.
TEST(AuditSearch, UnprunedTreeMatchesCountsAndBruteForce) {
  std::mt19937 rng(7);
  for (int n = 1; n <= 6; ++n) {
    const Instance instance = random_instance(rng, n, 3);
    audit::Certificate c;
    c.jobs = n;
    c.machines = 3;
    c.times.assign(3, std::vector<audit::Time>(n));
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < n; ++j) c.times[k][j] = instance.time(k, j);
    }
    for (const char* bound : {"lb1", "lb2"}) {
      c.bound = bound;
      const audit::TextbookBounds bounds(c);
      const auto found = audit::explore_subproblem(bounds, "minmin", {}, {}, audit::kNoBound, 0);
      std::uint64_t nodes = 0, at_depth = 1;
      for (int d = 1; d <= n - 1; ++d) nodes += (at_depth *= static_cast<std::uint64_t>(n - d + 1));
      std::uint64_t leaves = 1;
      for (int i = 2; i <= n; ++i) leaves *= static_cast<std::uint64_t>(i);
      EXPECT_EQ(found.nodes, nodes) << "n = " << n;
      EXPECT_EQ(found.leaves, leaves) << "n = " << n;
      EXPECT_EQ(found.best, brute_force_optimum(instance)) << "n = " << n;
    }
  }
}

// Reads and audits the certificate at `path` with every explored subproblem re-explored,
// expecting it to hold (`context` names the case in a failure).
audit::Certificate expect_holds_in_full(const std::string& path, const std::string& context) {
  const audit::Certificate c = audit::read_certificate(path);
  const audit::AuditResult result = audit::audit_certificate(c, 1000000, 1);
  EXPECT_TRUE(result.holds()) << context << ": "
                              << (result.holds() ? "" : result.first_failure()->failure);
  EXPECT_TRUE(result.sample.complete) << context;
  return c;
}

// A random instance of a trial, its brute-force optimum, and the trial's bound and rule.
struct Trial {
  Instance instance;
  Time optimum;
  SearchSettings settings;
};

Trial trial_case(std::mt19937& rng, int trial, int jobs) {
  Instance instance = random_instance(rng, jobs, 2 + trial % 4);
  const Time optimum = brute_force_optimum(instance);
  return {std::move(instance), optimum, {kBounds[trial % 4], kRules[trial % 5]}};
}

// Every bound and rule, several cut depths, improving upper bounds and several threads:
// the certificate holds, with every explored subproblem re-explored, and its claim is the
// brute-force optimum.
TEST(Certificate, HoldsForEveryBoundRuleAndDepth) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < testing::scaled_trials(12); ++trial) {
    const int n = 6 + trial % 3;
    const auto [instance, optimum, settings] = trial_case(rng, trial, n);
    for (const int depth : {0, 1, 2, n - 1}) {
      for (const Time ub : {kInfiniteTime, optimum + 1, optimum}) {
        const audit::Certificate c = expect_holds_in_full(
            certify(instance, settings, depth, ub, "holds"),
            "trial " + std::to_string(trial) + " depth " + std::to_string(depth) + " ub " +
                std::to_string(ub));
        EXPECT_EQ(c.upper_bound, optimum);
        EXPECT_EQ(c.optimal, ub > optimum);
      }
    }
  }
}

TEST(Certificate, MergedSubtreesHoldAndOnlyShrinkTheCut) {
  // The deepest cut, its light subtrees merged at growing limits: every audit holds in full
  // (the merged subproblems re-explored, their counts and upper bounds' ranges checked), and
  // a higher limit never gives more subproblems of the same search.
  std::mt19937 rng(29);
  for (int trial = 0; trial < testing::scaled_trials(8); ++trial) {
    const int n = 7 + trial % 2;
    const auto [instance, optimum, settings] = trial_case(rng, trial, n);
    for (const Time ub : {kInfiniteTime, optimum}) {
      const Recorded r = solve_recording(instance, settings, n - 1, ub, {}, 2, 3);
      std::size_t previous = std::numeric_limits<std::size_t>::max();
      for (const std::uint64_t merge : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{40},
                                        std::uint64_t{1} << 40}) {
        const audit::Certificate c = expect_holds_in_full(
            write_certified(instance, settings, *r.incumbent, r.run, r.cut, "merged", merge),
            "trial " + std::to_string(trial) + " ub " + std::to_string(ub) + " merge " +
                std::to_string(merge));
        EXPECT_LE(c.subproblems.size(), previous);
        previous = c.subproblems.size();
        // Without limit only the root's children are left (at most n, on one side), unless
        // a pruned node absorbed a surplus: its ancestors then stay apart.
        const bool surplus = std::any_of(c.subproblems.begin(), c.subproblems.end(),
                                         [](const auto& s) { return s.pruned && s.nodes > 0; });
        if (merge == std::uint64_t{1} << 40 && !surplus) {
          EXPECT_LE(previous, static_cast<std::size_t>(n));
        }
      }
    }
  }
}

TEST(SearchCutMerge, APrunedNodeWithASurplusKeepsItsSubtreeApart) {
  // Depth 2, jobs 0..2: node (0) decomposed, (0,1) explored with 5 nodes, (0,2) pruned with a
  // surplus of 3 nodes (another explorer went below it); node (1) decomposed, (1,0) explored
  // with 4 nodes, (1,2) pruned with none. Merged at any limit, (1) becomes one subproblem of
  // 1 + 4 nodes whose upper bounds' range is its nodes', down to the pruned (1,2)'s bound (it
  // was pruned under a bound of at most 50, below what its parent saw); (0) stays apart.
  const auto record = [](CutPath path, bool pruned, std::uint64_t nodes, Time ub_start,
                         Time ub_end) {
    CutRecord r;
    r.path = std::move(path);
    r.pruned = pruned;
    r.bound = pruned ? 50 : 0;
    r.nodes.decomposed = nodes;
    r.ub_start = pruned ? 0 : ub_start;
    r.ub_end = pruned ? kInfiniteTime : ub_end;
    return r;
  };
  SearchCut cut(2);
  cut.add({record({cut_step(0, 0)}, false, 1, 60, 60),
           record({cut_step(0, 0), cut_step(1, 0)}, false, 5, 60, 55),
           record({cut_step(0, 0), cut_step(2, 0)}, true, 3, 0, 0),
           record({cut_step(1, 0)}, false, 1, 58, 58),
           record({cut_step(1, 0), cut_step(0, 0)}, false, 4, 57, 52),
           record({cut_step(1, 0), cut_step(2, 0)}, true, 0, 0, 0)});
  const CutPartition plain = cut.partition();
  EXPECT_EQ(plain.subproblems.size(), 4u);
  EXPECT_EQ(plain.nodes_above_cut, 2u);
  const CutPartition merged = cut.partition(1000);
  ASSERT_EQ(merged.subproblems.size(), 3u);
  EXPECT_EQ(merged.nodes_above_cut, 1u);  // (0) alone
  const CutSubproblem& one = merged.subproblems[2];
  EXPECT_EQ(one.prefix, (std::vector<int>{1}));
  EXPECT_FALSE(one.pruned);
  EXPECT_EQ(one.nodes.decomposed, 5u);
  EXPECT_EQ(one.ub_start, 58);
  EXPECT_EQ(one.ub_end, 50);
  EXPECT_EQ(cut.partition(4).subproblems.size(), 4u);  // (1) holds 5 nodes: above the limit
}

// A restart chain in miniature: each link a fresh engine over the intervals the one before
// left, stopped by a node cap, its committed records carried to the next through the
// checkpoint's form (SearchCut::snapshot); the last link completes the search. Caps of a
// seventh and a third of the search stop links inside the cut's subproblems, which then
// merge by addition.
struct ChainEnd {
  NodeCounters run;
  std::string path;
  int links = 0;
};

ChainEnd certify_chain(const Instance& instance, SearchSettings settings, int depth, Time ub,
                       std::uint64_t cap, const std::string& name) {
  Incumbent incumbent(ub);
  std::vector<Interval> work{{0, factorial(instance.jobs())}};
  CutRecords carried{depth, {}};
  ChainEnd end;
  for (bool complete = false; !complete && end.links < 10000; ++end.links) {
    MulticoreEngine engine(instance, settings, incumbent, recording(depth));
    engine.set_work(work);
    engine.cap_nodes(cap);
    complete = engine.explore(std::chrono::seconds(60));
    SearchCut cut(depth);
    cut.add(carried);
    EXPECT_TRUE(engine.collect_cut(cut));
    carried = cut.snapshot();
    end.run += engine.stats().nodes;
    work = engine.remaining();
  }
  SearchCut whole(depth);
  whole.add(carried);
  end.path = write_certified(instance, settings, incumbent, end.run, whole, name);
  return end;
}

TEST(Certificate, RestartChainAddsUpToOneRunAndHolds) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < testing::scaled_trials(6); ++trial) {
    const SearchSettings settings{kBounds[trial % 4], kRules[trial % 5]};
    const int depth = 1 + trial % 3;
    // At a fixed bound (nothing below the optimum is found) the counts are the instance's;
    // instances whose bound at the root already proves the optimum are drawn again.
    std::optional<Instance> instance;
    Time optimum = 0;
    audit::Certificate one;
    for (int draw = 0; draw < 50 && one.nodes < 100; ++draw) {
      instance = random_instance(rng, 9, 8);
      optimum = brute_force_optimum(*instance);
      one = audit::read_certificate(certify(*instance, settings, depth, optimum, "one"));
    }
    ASSERT_GE(one.nodes, 100u) << "trial " << trial << ": no search large enough to cut";
    for (const std::uint64_t cap : {one.nodes / 7, one.nodes / 3}) {
      const ChainEnd chain = certify_chain(*instance, settings, depth, optimum, cap, "chain");
      EXPECT_GE(chain.links, 3) << "trial " << trial << " cap " << cap;
      const audit::Certificate c = audit::read_certificate(chain.path);
      EXPECT_EQ(c.nodes, one.nodes) << "trial " << trial << " cap " << cap;
      EXPECT_EQ(c.leaves, one.leaves) << "trial " << trial << " cap " << cap;
      EXPECT_EQ(c.nodes_above_cut, one.nodes_above_cut);
      const audit::AuditResult result = audit::audit_certificate(c, 1000000, 1);
      EXPECT_TRUE(result.holds()) << "trial " << trial << " cap " << cap << ": "
                                  << (result.holds() ? "" : result.first_failure()->failure);
      EXPECT_TRUE(result.sample.complete);  // every explored subproblem re-explored
      // From no bound at all the bound falls along the chain: the sandwich check holds too.
      const ChainEnd falling = certify_chain(*instance, settings, depth, kInfiniteTime, cap,
                                             "falling");
      const audit::AuditResult fell = audit_file(falling.path);
      EXPECT_TRUE(fell.holds()) << "trial " << trial << " cap " << cap << ": "
                                << (fell.holds() ? "" : fell.first_failure()->failure);
    }
  }
}

// One explorer recording its cut at `depth`, over the whole space at a fixed bound.
struct RecordingExplorer {
  RecordingExplorer(const Instance& instance, SearchSettings settings, Time ub, int depth)
      : tables(instance), incumbent(ub), explorer(tables, nullptr, settings, incumbent) {
    explorer.record_cut(CutRecording{depth, {}});
    const int n = instance.jobs();
    begin.assign(n, 0);
    end.assign(n, 0);
    from_mpz(factorial(n), n, end.data());
    explorer.start(begin.data(), end.data());
  }
  // Explores to the end and adds the records to `cut`.
  void finish_into(SearchCut& cut) {
    while (explorer.step()) {
    }
    cut.add(explorer.take_cut_records());
  }
  FlowshopTables tables;
  Incumbent incumbent;
  IvmExplorer explorer;
  std::vector<int> begin;
  std::vector<int> end;
};

// A handover after a settle() that stopped short (a cluster worker's set_work): clear()
// drops the uncommitted nodes from the counts, and their records with them, so that the
// records merged after the interval is restarted are those of one uninterrupted search.
// Before, the records of the nodes above D on the uncommitted path stayed (counted twice
// once the restart decomposed them again) and the open record was closed below its start.
TEST(Certificate, LeavingAnIntervalAfterAShortSettleDropsItsUncommittedRecords) {
  std::mt19937 rng(52);
  int short_settles = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 5 + trial % 4;
    const Instance instance = random_instance(rng, n, 3);
    const Time optimum = brute_force_optimum(instance);
    const SearchSettings settings{BoundKind::kLb1, kRules[trial % 5]};
    const int depth = 1 + static_cast<int>(rng() % static_cast<unsigned>(n - 1));
    RecordingExplorer whole(instance, settings, optimum, depth);
    SearchCut expected(depth);
    whole.finish_into(expected);
    const NodeCounters counts = whole.explorer.counters();

    RecordingExplorer parted(instance, settings, optimum, depth);
    parted.explorer.run(1 + rng() % (counts.decomposed + 1));
    if (parted.explorer.settle(0)) continue;  // at a clean point: nothing uncommitted
    ++short_settles;
    const std::vector<int> position(parted.explorer.position(), parted.explorer.position() + n);
    SearchCut cut(depth);
    // A report may come between the pause and the handover (its records taken), or not.
    if (trial % 2 == 1) cut.add(parted.explorer.take_cut_records());
    parted.explorer.clear();
    parted.explorer.start(position.data(), parted.end.data());
    parted.finish_into(cut);
    ASSERT_EQ(parted.explorer.counters(), counts) << "trial " << trial;
    ASSERT_EQ(cut.snapshot(), expected.snapshot()) << "trial " << trial << " depth " << depth;
  }
  EXPECT_GE(short_settles, 20) << "too few settles stopped short to test anything";
}

// Faults injected into the solver are refuted, each by the check that should see it, with
// the sample size and seed stated here.
class InjectedFault : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(5);
    instance_ = std::make_unique<Instance>(random_instance(rng, 8, 8));
    optimum_ = brute_force_optimum(*instance_);
  }
  // From the optimum the upper bound never falls (nothing beats it): counts are exact. From
  // no bound the tree is large, and a lost interval holds explored subproblems (one that held
  // only pruned ones would lose nothing: their bounds, recorded by the interval that bounded
  // them, still prove the claim).
  std::string certify_with(CutFaults faults, Time ub, int pieces = 1) {
    return certify(*instance_, {BoundKind::kLb1, BranchingRule::kMinMin}, 1, ub, "fault",
                   faults, 1, pieces);
  }
  std::unique_ptr<Instance> instance_;
  Time optimum_ = 0;
};

TEST_F(InjectedFault, NoneHolds) {
  EXPECT_TRUE(audit_file(certify_with({}, kInfiniteTime, 3)).holds());
  EXPECT_TRUE(audit_file(certify_with({}, optimum_)).holds());
}

TEST_F(InjectedFault, DroppedIntervalIsRefutedByThePartition) {
  CutFaults faults;
  faults.drop_interval = true;
  EXPECT_EQ(first_failed_check(audit_file(certify_with(faults, kInfiniteTime, 3), /*sample=*/0)), 2);
}

TEST_F(InjectedFault, PruningBelowTheBoundIsRefutedByThePrunedBounds) {
  CutFaults faults;
  faults.prune_below_ub = true;
  EXPECT_EQ(first_failed_check(audit_file(certify_with(faults, kInfiniteTime), /*sample=*/0)), 3);
}

TEST_F(InjectedFault, CorruptedBoundIsRefutedByThePrunedBounds) {
  CutFaults faults;
  faults.corrupt_bound = true;
  EXPECT_EQ(first_failed_check(audit_file(certify_with(faults, optimum_), /*sample=*/0)), 3);
}

TEST_F(InjectedFault, SubtreeCountedTwiceIsRefutedByTheSample) {
  CutFaults faults;
  faults.count_twice = true;
  const std::string path = certify_with(faults, optimum_);
  // Every explored subproblem (K at least their number): certain.
  EXPECT_EQ(first_failed_check(audit_file(path, /*sample=*/1000000)), 4);
  // K = 40 weighted draws, seed 3: the doubled subproblem holds a large share of the nodes.
  EXPECT_EQ(first_failed_check(audit_file(path, /*sample=*/40, /*seed=*/3)), 4);
}

// Certificates edited by hand: check 2 refuses a removed or an overlapping subproblem,
// whatever the sample (none here).
std::vector<std::string> lines_of_file(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string write_lines(const std::vector<std::string>& lines, const std::string& name) {
  const std::string path = temporary_path(name);
  std::ofstream out(path);
  for (const std::string& line : lines) out << line << '\n';
  return path;
}

// The "cut" line with its count of subproblems changed by `delta`.
void recount(std::vector<std::string>& lines, int delta) {
  for (std::string& line : lines) {
    if (line.rfind("cut ", 0) != 0) continue;
    std::istringstream in(line);
    std::string cut, depth_word, depth, count_word, above_word, above;
    long count = 0;
    in >> cut >> depth_word >> depth >> count_word >> count >> above_word >> above;
    line = "cut depth " + depth + " subproblems " + std::to_string(count + delta) + " above " + above;
  }
}

class EditedCertificate : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(9);
    instance_ = std::make_unique<Instance>(random_instance(rng, 7, 3));
    lines_ = lines_of_file(certify(*instance_, {BoundKind::kLb1, BranchingRule::kMinMin}, 2,
                                   kInfiniteTime, "edited"));
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].rfind("e ", 0) == 0 || lines_[i].rfind("p ", 0) == 0) subproblems_.push_back(i);
    }
    ASSERT_GT(subproblems_.size(), 3u);
  }
  std::unique_ptr<Instance> instance_;
  std::vector<std::string> lines_;
  std::vector<std::size_t> subproblems_;
};

TEST_F(EditedCertificate, RemovedSubproblemIsRefutedByThePartition) {
  for (const std::size_t at : {subproblems_.front(), subproblems_[subproblems_.size() / 2]}) {
    std::vector<std::string> lines = lines_;
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
    recount(lines, -1);
    const auto result = audit_file(write_lines(lines, "removed"), 0);
    EXPECT_EQ(first_failed_check(result), 2);
    EXPECT_FALSE(result.checks[1].passed);
  }
}

TEST_F(EditedCertificate, OverlappingSubproblemsAreRefutedByThePartition) {
  std::vector<std::string> doubled = lines_;
  doubled.insert(doubled.begin() + static_cast<std::ptrdiff_t>(subproblems_[1]), lines_[subproblems_[1]]);
  recount(doubled, 1);
  EXPECT_EQ(first_failed_check(audit_file(write_lines(doubled, "doubled"), 0)), 2);
  // A subproblem replaced by the whole space's first job's subtree: overlaps its siblings'.
  std::vector<std::string> wide = lines_;
  wide.insert(wide.begin() + static_cast<std::ptrdiff_t>(subproblems_[0]), "p 999999 0 0 1 |");
  recount(wide, 1);
  EXPECT_EQ(first_failed_check(audit_file(write_lines(wide, "wide"), 0)), 2);
}

// Several explored subproblems with a count changed by hand: however many threads re-explore
// the sample, the refutation names the first of them in the order of the draws.
TEST_F(EditedCertificate, TheRefutationDoesNotDependOnTheThreads) {
  std::vector<std::string> lines = lines_;
  int edited = 0;
  for (const std::size_t at : subproblems_) {
    if (lines[at].rfind("e ", 0) != 0 || edited == 3) continue;
    std::istringstream in(lines[at]);
    std::string kind;
    std::uint64_t nodes = 0;
    in >> kind >> nodes;
    std::string rest;
    std::getline(in, rest);
    std::string line = "e ";
    line += std::to_string(nodes + 1);
    line += rest;
    lines[at] = line;
    ++edited;
  }
  ASSERT_EQ(edited, 3);
  const audit::Certificate c = audit::read_certificate(write_lines(lines, "counts"));
  const audit::AuditResult one = audit::audit_certificate(c, 1000000, 1, 1);
  ASSERT_EQ(first_failed_check(one), 4);
  for (const int threads : {2, 3, 8}) {
    const audit::AuditResult many = audit::audit_certificate(c, 1000000, 1, threads);
    ASSERT_EQ(first_failed_check(many), 4) << threads << " threads";
    EXPECT_EQ(many.first_failure()->failure, one.first_failure()->failure) << threads;
  }
}

TEST_F(EditedCertificate, MalformedFilesAreInputErrors) {
  EXPECT_THROW(audit::read_certificate(write_lines({"hello"}, "foreign")), InputError);
  std::vector<std::string> truncated(lines_.begin(), lines_.begin() + subproblems_[2]);
  EXPECT_THROW(audit::read_certificate(write_lines(truncated, "truncated")), InputError);
  std::vector<std::string> bad_job = lines_;
  bad_job[subproblems_[0]] += " 99";
  EXPECT_THROW(audit::read_certificate(write_lines(bad_job, "bad_job")), InputError);
  std::vector<std::string> altered = lines_;
  const auto times = std::find(altered.begin(), altered.end(), "times") - altered.begin();
  std::string& first_machine = altered[static_cast<std::size_t>(times) + 1];
  first_machine[0] = first_machine[0] == '9' ? '8' : '9';  // one time changed
  EXPECT_THROW(audit::read_certificate(write_lines(altered, "altered")), InputError);
  EXPECT_THROW(audit::read_certificate(temporary_path("does_not_exist")), InputError);
}

}  // namespace
}  // namespace permbb
