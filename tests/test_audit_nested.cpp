// Nested explored subproblems (docs/audit.md, "Nested explored subproblems"): certificates
// whose explored records hold deeper explored records, nested by hand, audited as the
// contract says. The nested records are records of a finer cut of the same search, written by
// the solver (so nodes of its tree: the auditor's code does not choose them), and no figure
// comes from the auditor: a container's exclusive counts are the difference of the solver's
// inclusive ones (at the optimum, nothing found below it, the tree is the same at every cut
// depth), or, with nothing pruned, of the unpruned tree's node counts; best makespans are
// brute force.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "audit_checks.hpp"
#include "certificate_support.hpp"
#include "certificate_reader.hpp"
#include "factoradic_mpz.hpp"
#include "multicore_engine.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using audit::Subproblem;
using testing::holds;

std::string temporary_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "permbb_nested_" + test->test_suite_name() + "_" +
         test->name() + "_" + name;
}

// The certificate the solver writes for `instance` with its cut at `depth`, searched by one
// thread from the upper bound `ub`, as the auditor reads it.
audit::Certificate solver_certificate(const Instance& instance, SearchSettings settings,
                                      int depth, Time ub) {
  Incumbent incumbent(ub);
  MulticoreOptions options;
  options.threads = 1;
  CutRecording recording;
  recording.depth = depth;
  options.cut = recording;
  MulticoreEngine engine(instance, settings, incumbent, options);
  engine.set_work(std::vector<Interval>{{0, factorial(instance.jobs())}});
  EXPECT_TRUE(engine.explore(std::chrono::seconds(60)));
  SearchCut cut(depth);
  EXPECT_TRUE(engine.collect_cut(cut));
  const std::string path = temporary_path("depth" + std::to_string(depth));
  testing::write_search_certificate(path, instance, settings, incumbent.permutation(),
                                    incumbent.value(), engine.stats().nodes, cut);
  return audit::read_certificate(path);
}

// The explored records of `c` that `outer` holds.
std::vector<Subproblem> explored_in(const audit::Certificate& c, const Subproblem& outer) {
  std::vector<Subproblem> out;
  for (const Subproblem& s : c.subproblems) {
    if (!s.pruned && holds(outer, s)) out.push_back(s);
  }
  return out;
}

// Nests `inner`, whose counts are those of its whole subtree, in the deepest explored record
// of `c` that holds it: that record's counts become exclusive of it, its best and upper bounds
// stay (they are its whole subtree's). Returns the new record's index; its line is 1000 and
// more, which no record read from a file has here.
std::size_t nest(audit::Certificate& c, Subproblem inner) {
  std::size_t outer = c.subproblems.size();
  for (std::size_t i = 0; i < c.subproblems.size(); ++i) {
    const Subproblem& s = c.subproblems[i];
    if (s.pruned || !holds(s, inner)) continue;
    if (outer == c.subproblems.size() || s.fixed() > c.subproblems[outer].fixed()) outer = i;
  }
  if (outer < c.subproblems.size()) {
    Subproblem& container = c.subproblems[outer];
    EXPECT_GE(container.nodes, inner.nodes);
    EXPECT_GE(container.leaves, inner.leaves);
    container.nodes -= inner.nodes;
    container.leaves -= inner.leaves;
  } else {
    ADD_FAILURE() << "no explored record holds the one nested";
  }
  inner.line = 1000 + static_cast<int>(c.subproblems.size());
  c.subproblems.push_back(std::move(inner));
  return c.subproblems.size() - 1;
}

// A record added as it is (no container's counts changed), with a line of its own.
std::size_t add(audit::Certificate& c, Subproblem s) {
  s.line = 1000 + static_cast<int>(c.subproblems.size());
  c.subproblems.push_back(std::move(s));
  return c.subproblems.size() - 1;
}

// One search at the optimum, cut at depths 1, 2 and 3; in it an explored record A of the
// depth-1 cut that the depth-2 cut splits into explored records B1, B2 (among others), B1
// split by the depth-3 cut into explored records, C one of them. Each keeps a few nodes of its
// own once the one below is nested (so that a count off by one is not the whole record's).
struct Cuts {
  Instance instance;
  SearchSettings settings;
  audit::Certificate coarse;  // depth 1
  audit::Certificate fine;    // depth 2
  audit::Certificate finer;   // depth 3
  Subproblem a, b1, b2, c;
};

std::optional<Cuts> find_cuts(SearchSettings settings, unsigned seed) {
  for (unsigned trial = 0; trial < 50; ++trial) {
    std::mt19937 rng(seed + trial);
    Instance instance = testing::random_instance(rng, 8, 6);
    const Time optimum = testing::brute_force_optimum(instance);
    Cuts cuts{instance, settings, solver_certificate(instance, settings, 1, optimum),
              solver_certificate(instance, settings, 2, optimum),
              solver_certificate(instance, settings, 3, optimum), {}, {}, {}, {}};
    for (const Subproblem& a : cuts.coarse.subproblems) {
      const std::vector<Subproblem> children = explored_in(cuts.fine, a);
      if (a.pruned || children.size() < 2) continue;
      for (const Subproblem& b : children) {
        const Subproblem& other = children[&b == &children[0] ? 1 : 0];
        if (a.nodes < b.nodes + other.nodes + 3) continue;
        for (const Subproblem& c : explored_in(cuts.finer, b)) {
          if (c.nodes < 3 || b.nodes < c.nodes + 3) continue;
          cuts.a = a;
          cuts.b1 = b;
          cuts.b2 = other;
          cuts.c = c;
          return cuts;
        }
      }
    }
  }
  ADD_FAILURE() << "no search with a record split twice";
  return std::nullopt;
}

// The counts of the unpruned tree: a node with f >= 1 free jobs, with its descendants that
// are nodes (at least one job free), and its leaves.
std::uint64_t unpruned_nodes(int free_jobs) {
  return free_jobs <= 1 ? 1 : 1 + static_cast<std::uint64_t>(free_jobs) *
                                      unpruned_nodes(free_jobs - 1);
}

std::uint64_t unpruned_leaves(int free_jobs) {
  return free_jobs <= 1 ? 1 : static_cast<std::uint64_t>(free_jobs) *
                                  unpruned_leaves(free_jobs - 1);
}

// `c` as a search without an upper bound would write it: every record explored, none pruned
// (its tree above the cut is the same: the branching does not depend on the bound), its
// counts the unpruned tree's and its best brute force.
audit::Certificate unpruned(const audit::Certificate& c, const Instance& instance) {
  audit::Certificate out = c;
  for (Subproblem& s : out.subproblems) {
    const int free_jobs = c.jobs - s.fixed();
    s.pruned = false;
    s.bound = 0;
    s.nodes = unpruned_nodes(free_jobs);
    s.leaves = unpruned_leaves(free_jobs);
    s.best = testing::best_completion(instance, s.prefix, s.suffix);
    s.ub_start = audit::kNoBound;
    s.ub_end = audit::kNoBound;
  }
  out.nodes = unpruned_nodes(c.jobs) - 1;  // the root is not counted
  out.leaves = unpruned_leaves(c.jobs);
  return out;
}

// The best makespan of the schedules in `outer` but not in `hole`: brute force.
audit::Time best_outside(const Instance& instance, const Subproblem& outer,
                         const Subproblem& hole) {
  std::vector<int> free_jobs;
  for (int j = 0; j < instance.jobs(); ++j) {
    const auto fixed = [j](const std::vector<int>& jobs) {
      return std::find(jobs.begin(), jobs.end(), j) != jobs.end();
    };
    if (!fixed(outer.prefix) && !fixed(outer.suffix)) free_jobs.push_back(j);
  }
  audit::Time best = audit::kNoBound;
  do {
    std::vector<int> order = outer.prefix;
    order.insert(order.end(), free_jobs.begin(), free_jobs.end());
    order.insert(order.end(), outer.suffix.begin(), outer.suffix.end());
    const bool in_hole = std::equal(hole.prefix.begin(), hole.prefix.end(), order.begin()) &&
                         std::equal(hole.suffix.rbegin(), hole.suffix.rend(), order.rbegin());
    if (!in_hole) best = std::min<audit::Time>(best, testing::naive_makespan(instance, order));
  } while (std::next_permutation(free_jobs.begin(), free_jobs.end()));
  return best;
}

audit::AuditResult audit_in_full(const audit::Certificate& c) {
  return audit::audit_certificate(c, 1000000, 1);
}

int first_failed_check(const audit::AuditResult& result) {
  const audit::CheckOutcome* failed = result.first_failure();
  return failed == nullptr ? 0 : failed->number;
}

std::string failure_of(const audit::AuditResult& result) {
  return result.holds() ? "" : result.first_failure()->failure;
}

std::string figure(const audit::CheckOutcome& check, const std::string& name) {
  for (const audit::Figure& f : check.figures) {
    if (f.name == name) return f.value;
  }
  return "(no figure " + name + ")";
}

std::string line_text(int line) { return "line " + std::to_string(line) + " "; }

std::size_t explored_count(const audit::Certificate& c) {
  return static_cast<std::size_t>(std::count_if(c.subproblems.begin(), c.subproblems.end(),
                                                [](const Subproblem& s) { return !s.pruned; }));
}

// The certificate's text (docs/audit.md), its records in their order.
std::string write_text(const audit::Certificate& c, const std::string& name) {
  const auto jobs = [](const std::vector<int>& list) {
    std::string out;
    for (const int job : list) {
      out += ' ';
      out += std::to_string(job + 1);
    }
    return out;
  };
  const auto time = [](audit::Time t) {
    return t == audit::kNoBound ? std::string("inf") : std::to_string(t);
  };
  std::ostringstream out;
  out << "permbb-certificate 1\njobs " << c.jobs << " machines " << c.machines << "\n"
      << "fingerprint " << std::hex << c.fingerprint << std::dec << "\ntimes\n";
  for (const auto& machine : c.times) {
    for (std::size_t j = 0; j < machine.size(); ++j) out << (j ? " " : "") << machine[j];
    out << "\n";
  }
  out << "bound " << c.bound << "\nbranching " << c.branching << "\n";
  if (c.optimal) {
    out << "claim optimal " << c.upper_bound << "\nschedule" << jobs(c.schedule) << "\n";
  } else {
    out << "claim no-schedule-below " << time(c.upper_bound) << "\n";
  }
  out << "nodes " << c.nodes << " leaves " << c.leaves << "\ncut depth " << c.cut_depth
      << " subproblems " << c.subproblems.size() << " above " << c.nodes_above_cut << "\n";
  for (const Subproblem& s : c.subproblems) {
    if (s.pruned) {
      out << "p " << time(s.bound) << " " << s.nodes << " " << s.leaves;
    } else {
      out << "e " << s.nodes << " " << s.leaves << " "
          << (s.best == audit::kNoBound ? "-" : std::to_string(s.best)) << " "
          << time(s.ub_start) << " " << time(s.ub_end);
    }
    out << jobs(s.prefix) << " |" << jobs(s.suffix) << "\n";
  }
  out << "end\n";
  const std::string path = temporary_path(name);
  std::ofstream(path) << out.str();
  return path;
}

const SearchSettings kSettings[] = {{BoundKind::kLb1, BranchingRule::kMinMin},
                                    {BoundKind::kLb2, BranchingRule::kMaxSum},
                                    {BoundKind::kLb1ThenLb2, BranchingRule::kMinMinForwardTies},
                                    {BoundKind::kLb1, BranchingRule::kBackward},
                                    {BoundKind::kLb2Adjacent, BranchingRule::kForward}};

// The depth-1 cut with B1, B2 nested in A and C in B1.
audit::Certificate nested_twice(const Cuts& cuts) {
  audit::Certificate c = cuts.coarse;
  nest(c, cuts.b1);
  nest(c, cuts.b2);
  nest(c, cuts.c);
  return c;
}

class NestedCertificate : public ::testing::Test {
 protected:
  void SetUp() override {
    std::optional<Cuts> found = find_cuts({BoundKind::kLb1, BranchingRule::kMinMin}, 3);
    ASSERT_TRUE(found.has_value());
    cuts_.emplace(std::move(*found));
  }
  const Cuts& cuts() const { return *cuts_; }
  std::optional<Cuts> cuts_;
};

// (1) Records nested along the branching, their containers' counts made exclusive, hold with
// every explored record re-explored: for every bound and rule, nested one and two levels
// deep, one nested two levels below its container, and read back from the file's text.
TEST(NestedCertificates, HoldWithEveryRecordReexplored) {
  for (const SearchSettings& settings : kSettings) {
    const std::optional<Cuts> cuts = find_cuts(settings, 3);
    ASSERT_TRUE(cuts.has_value());
    const std::string context = "rule " + cuts->coarse.branching + ", bound " + cuts->coarse.bound;
    ASSERT_TRUE(audit_in_full(cuts->coarse).holds()) << context;
    const audit::Certificate c = nested_twice(*cuts);
    const audit::AuditResult result = audit_in_full(c);
    EXPECT_TRUE(result.holds()) << context << ": " << failure_of(result);
    EXPECT_TRUE(result.sample.complete) << context;
    EXPECT_EQ(result.sample.subproblems.size(), explored_count(c)) << context;
    EXPECT_EQ(figure(result.checks[1], "nested_subproblems"), "3") << context;

    // C alone, two levels below A (B1 not recorded): its walk from A passes B1's node.
    audit::Certificate skipping = cuts->coarse;
    nest(skipping, cuts->c);
    const audit::AuditResult skipped = audit_in_full(skipping);
    EXPECT_TRUE(skipped.holds()) << context << ": " << failure_of(skipped);

    const audit::Certificate read = audit::read_certificate(write_text(c, "nested.cert"));
    ASSERT_EQ(read.subproblems.size(), c.subproblems.size());
    const audit::AuditResult reread = audit_in_full(read);
    EXPECT_TRUE(reread.holds()) << context << ": " << failure_of(reread);
    EXPECT_EQ(figure(reread.checks[1], "nested_subproblems"), "3") << context;
  }
}

// (1) The same with nothing pruned: every count is the unpruned tree's, known in closed form.
TEST_F(NestedCertificate, UnprunedCountsInClosedFormHold) {
  const audit::Certificate whole = unpruned(cuts().coarse, cuts().instance);
  ASSERT_TRUE(audit_in_full(whole).holds()) << failure_of(audit_in_full(whole));
  audit::Certificate c = whole;
  const audit::Certificate fine = unpruned(cuts().fine, cuts().instance);
  const audit::Certificate finer = unpruned(cuts().finer, cuts().instance);
  // Every record of the finer cuts under A, B1 (explored or not at the optimum: a node all the
  // same), each nested in the deepest record holding it.
  for (const Subproblem& b : fine.subproblems) {
    if (holds(cuts().a, b)) nest(c, b);
  }
  for (const Subproblem& s : finer.subproblems) {
    if (holds(cuts().b1, s)) nest(c, s);
  }
  const audit::AuditResult result = audit_in_full(c);
  EXPECT_TRUE(result.holds()) << failure_of(result);
  EXPECT_GE(std::stoull(figure(result.checks[1], "nested_subproblems")), 3u);
  // A's own part: itself and the nodes that are not in a nested subtree, none here (its
  // children are all nested): one node, no leaf.
  const auto a = std::find_if(c.subproblems.begin(), c.subproblems.end(), [&](const auto& s) {
    return s.prefix == cuts().a.prefix && s.suffix == cuts().a.suffix;
  });
  ASSERT_NE(a, c.subproblems.end());
  EXPECT_EQ(a->nodes, 1u);
  EXPECT_EQ(a->leaves, 0u);
}

// (2) Nesting moves counts between records: the totals are the run's, as before.
TEST_F(NestedCertificate, TotalsStillAddUp) {
  const audit::Certificate c = nested_twice(cuts());
  const audit::AuditResult before = audit_in_full(cuts().coarse);
  const audit::AuditResult after = audit_in_full(c);
  ASSERT_TRUE(after.checks[4].passed) << after.checks[4].failure;
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  for (const Subproblem& s : c.subproblems) {
    nodes += s.nodes;
    leaves += s.leaves;
  }
  EXPECT_EQ(nodes + c.nodes_above_cut, cuts().coarse.nodes);
  EXPECT_EQ(leaves, cuts().coarse.leaves);
  EXPECT_EQ(figure(after.checks[4], "recorded_nodes"), figure(before.checks[4], "recorded_nodes"));
  EXPECT_EQ(figure(after.checks[4], "inner_nodes"), figure(before.checks[4], "inner_nodes"));
  EXPECT_EQ(figure(after.checks[1], "inner_nodes"), figure(before.checks[1], "inner_nodes"));
}

// The side the branching takes at `node`, from the finer cut's records below it.
bool branches_at_front(const Subproblem& node, const audit::Certificate& finer_cut) {
  const std::vector<Subproblem> below = explored_in(finer_cut, node);
  EXPECT_FALSE(below.empty());
  return !below.empty() && below[0].prefix.size() > node.prefix.size();
}

// `node` with `job` fixed next on the side its branching does not take.
Subproblem on_the_other_side(const Subproblem& node, bool front, int job) {
  Subproblem s = node;
  if (front) s.suffix.insert(s.suffix.begin(), job); else s.prefix.push_back(job);
  s.nodes = 1;
  s.leaves = 1;
  return s;
}

// A job that `node` leaves free.
int free_job_of(const Subproblem& node, int jobs) {
  for (int j = 0; j < jobs; ++j) {
    if (std::find(node.prefix.begin(), node.prefix.end(), j) == node.prefix.end() &&
        std::find(node.suffix.begin(), node.suffix.end(), j) == node.suffix.end()) {
      return j;
    }
  }
  return -1;
}

// (3) A record on the side the branching does not take is no node of the tree: refuted by
// check 2, named by its line, whether it lies one or two steps below its container.
TEST_F(NestedCertificate, ARecordOnTheWrongSideIsRefutedByThePartition) {
  const int n = cuts().coarse.jobs;
  const bool a_front = branches_at_front(cuts().a, cuts().fine);
  audit::Certificate one_step = cuts().coarse;
  const std::size_t wrong = add(one_step, on_the_other_side(cuts().a, a_front,
                                                            free_job_of(cuts().a, n)));
  const audit::AuditResult refuted = audit_in_full(one_step);
  EXPECT_EQ(first_failed_check(refuted), 2) << failure_of(refuted);
  EXPECT_NE(failure_of(refuted).find(line_text(one_step.subproblems[wrong].line)),
            std::string::npos) << failure_of(refuted);
  EXPECT_NE(failure_of(refuted).find("not a node of its branching"), std::string::npos);

  // B1's child on the side B1 does not branch to: the first step from A (to B1) is right,
  // the second is not; with B1 nested too, its one step from B1 is wrong.
  const bool b1_front = branches_at_front(cuts().b1, cuts().finer);
  const Subproblem below_b1 =
      on_the_other_side(cuts().b1, b1_front, free_job_of(cuts().b1, n));
  audit::Certificate two_steps = cuts().coarse;
  const std::size_t deep = add(two_steps, below_b1);
  const audit::AuditResult far = audit_in_full(two_steps);
  EXPECT_EQ(first_failed_check(far), 2) << failure_of(far);
  EXPECT_NE(failure_of(far).find(line_text(two_steps.subproblems[deep].line)),
            std::string::npos) << failure_of(far);
  audit::Certificate under_b1 = cuts().coarse;
  nest(under_b1, cuts().b1);
  const std::size_t under = add(under_b1, below_b1);
  const audit::AuditResult near = audit_in_full(under_b1);
  EXPECT_EQ(first_failed_check(near), 2) << failure_of(near);
  EXPECT_NE(failure_of(near).find(line_text(under_b1.subproblems[under].line)),
            std::string::npos) << failure_of(near);
  // B1 on its right side, as a control: the same certificate without the wrong record holds.
  under_b1.subproblems.pop_back();
  EXPECT_TRUE(audit_in_full(under_b1).holds()) << failure_of(audit_in_full(under_b1));
}

// (4) Only explored records hold others, and only explored ones are nested.
TEST_F(NestedCertificate, ARecordInsideAPrunedOneIsRefutedByThePartition) {
  const int n = cuts().coarse.jobs;
  bool found = false;
  for (const audit::Certificate* cut : {&cuts().fine, &cuts().finer}) {
    for (const Subproblem& pruned : cut->subproblems) {
      if (!pruned.pruned || cut->jobs - pruned.fixed() < 2 || found) continue;
      found = true;
      audit::Certificate c = *cut;
      Subproblem inside = pruned;
      inside.pruned = false;
      inside.prefix.push_back(free_job_of(pruned, n));
      inside.nodes = 1;
      inside.leaves = 1;
      inside.best = audit::kNoBound;
      inside.ub_start = inside.ub_end = c.upper_bound;
      const std::size_t at = add(c, inside);
      const audit::AuditResult result = audit_in_full(c);
      EXPECT_EQ(first_failed_check(result), 2) << failure_of(result);
      EXPECT_NE(failure_of(result).find(line_text(c.subproblems[at].line)), std::string::npos)
          << failure_of(result);
      EXPECT_NE(failure_of(result).find("inside the pruned one at line " +
                                        std::to_string(pruned.line)),
                std::string::npos) << failure_of(result);
    }
  }
  EXPECT_TRUE(found) << "no pruned record with two free jobs in the finer cuts";

  // B1 recorded as pruned inside the explored A (its bound the recomputed one would be
  // irrelevant: check 2 comes first).
  audit::Certificate c = cuts().coarse;
  Subproblem pruned_b1 = cuts().b1;
  pruned_b1.pruned = true;
  pruned_b1.bound = c.upper_bound;
  pruned_b1.nodes = 0;
  pruned_b1.leaves = 0;
  const std::size_t at = add(c, pruned_b1);
  const audit::AuditResult result = audit_in_full(c);
  EXPECT_EQ(first_failed_check(result), 2) << failure_of(result);
  EXPECT_NE(failure_of(result).find(line_text(c.subproblems[at].line)), std::string::npos);
  EXPECT_NE(failure_of(result).find("only explored subproblems nest"), std::string::npos)
      << failure_of(result);
}

// (5) Two records of one node: refuted by check 2, the second named.
TEST_F(NestedCertificate, ADuplicateIsRefutedByThePartition) {
  audit::Certificate twice = cuts().coarse;
  nest(twice, cuts().b1);
  const std::size_t again = add(twice, cuts().b1);
  const audit::AuditResult result = audit_in_full(twice);
  EXPECT_EQ(first_failed_check(result), 2) << failure_of(result);
  EXPECT_NE(failure_of(result).find(line_text(twice.subproblems[again].line) + "("),
            std::string::npos) << failure_of(result);
  EXPECT_NE(failure_of(result).find("repeats"), std::string::npos) << failure_of(result);

  // A record of the container's own node: no record holds another of the same jobs.
  audit::Certificate same = cuts().coarse;
  const std::size_t copy = add(same, cuts().a);
  const audit::AuditResult repeated = audit_in_full(same);
  EXPECT_EQ(first_failed_check(repeated), 2) << failure_of(repeated);
  EXPECT_NE(failure_of(repeated).find(line_text(same.subproblems[copy].line)), std::string::npos)
      << failure_of(repeated);
}

// (6) A count off by one is refuted by check 4 when its record is re-explored: a nested
// record's, its container's, and both at once (the totals then still add up).
TEST_F(NestedCertificate, AnOffCountIsRefutedByTheSample) {
  const audit::Certificate good = nested_twice(cuts());
  ASSERT_TRUE(audit_in_full(good).holds());
  std::size_t c_at = good.subproblems.size() - 1;  // C: nested last, in B1
  std::size_t b1_at = good.subproblems.size() - 3;
  ASSERT_EQ(good.subproblems[c_at].prefix, cuts().c.prefix);
  ASSERT_EQ(good.subproblems[b1_at].prefix, cuts().b1.prefix);

  audit::Certificate nested_off = good;
  ++nested_off.subproblems[c_at].nodes;
  const audit::AuditResult nested_refuted = audit_in_full(nested_off);
  EXPECT_EQ(first_failed_check(nested_refuted), 4) << failure_of(nested_refuted);
  EXPECT_NE(failure_of(nested_refuted).find(line_text(good.subproblems[c_at].line)),
            std::string::npos) << failure_of(nested_refuted);

  audit::Certificate container_off = good;
  ++container_off.subproblems[b1_at].nodes;
  const audit::AuditResult container_refuted = audit_in_full(container_off);
  EXPECT_EQ(first_failed_check(container_refuted), 4) << failure_of(container_refuted);
  EXPECT_NE(failure_of(container_refuted).find(line_text(good.subproblems[b1_at].line)),
            std::string::npos) << failure_of(container_refuted);

  // A node moved from the container's count to the nested record's: the totals hold, the
  // sample does not (the container comes first in the certificate's order).
  audit::Certificate moved = good;
  ++moved.subproblems[c_at].nodes;
  --moved.subproblems[b1_at].nodes;
  const audit::AuditResult moved_refuted = audit_in_full(moved);
  EXPECT_TRUE(moved_refuted.checks[4].passed) << moved_refuted.checks[4].failure;
  EXPECT_EQ(first_failed_check(moved_refuted), 4) << failure_of(moved_refuted);
  EXPECT_NE(failure_of(moved_refuted).find(line_text(good.subproblems[b1_at].line)),
            std::string::npos) << failure_of(moved_refuted);
  // Without the sample the same certificate is not refuted: only re-exploring sees it.
  EXPECT_TRUE(audit::audit_certificate(moved, 0, 1).holds());
}

// (7) A container's best is its whole subtree's: one whose best schedule lies only in a
// nested record holds, and the best of its own part alone is refuted.
TEST(NestedCertificates, AContainersBestMayLieOnlyInItsNestedRecord) {
  bool found = false;
  for (unsigned seed = 40; seed < 45 && !found; ++seed) {
    const std::optional<Cuts> cuts = find_cuts({BoundKind::kLb1, BranchingRule::kMinMin}, seed);
    ASSERT_TRUE(cuts.has_value());
    const audit::Certificate coarse = unpruned(cuts->coarse, cuts->instance);
    const audit::Certificate fine = unpruned(cuts->fine, cuts->instance);
    for (const Subproblem& a : coarse.subproblems) {
      for (const Subproblem& child : fine.subproblems) {
        if (found || !holds(a, child)) continue;
        const audit::Time outside = best_outside(cuts->instance, a, child);
        if (child.best >= outside) continue;
        found = true;
        ASSERT_EQ(a.best, child.best);  // brute force, both
        audit::Certificate c = coarse;
        nest(c, child);
        const audit::AuditResult result = audit_in_full(c);
        EXPECT_TRUE(result.holds()) << failure_of(result);
        // Recorded as the best of its own part alone (what a re-exploration that skips the
        // nested record meets): refuted.
        audit::Certificate own_part = c;
        for (Subproblem& s : own_part.subproblems) {
          if (s.prefix == a.prefix && s.suffix == a.suffix) s.best = outside;
        }
        const audit::AuditResult refuted = audit_in_full(own_part);
        EXPECT_EQ(first_failed_check(refuted), 4) << failure_of(refuted);
      }
    }
  }
  EXPECT_TRUE(found) << "no record whose best lies in one child only";
}

}  // namespace
}  // namespace permbb
