#include "audit_checks.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <thread>

#include "audit_bounds.hpp"
#include "audit_search.hpp"
#include "cut_partition.hpp"

namespace permbb::audit {
namespace {

std::string number(std::uint64_t x) { return std::to_string(x); }
std::string time_text(Time t) { return t == kNoBound ? "inf" : std::to_string(t); }

CheckOutcome check_schedule(const Certificate& c, const TextbookBounds& bounds) {
  CheckOutcome out{1, "schedule", true, "", {}};
  if (!c.optimal) {
    out.figures.push_back({"claimed", "none (no schedule below the bound)", true});
    return out;
  }
  const Time makespan = bounds.makespan(c.schedule);
  out.figures = {{"claimed", time_text(c.upper_bound), false},
                 {"recomputed", time_text(makespan), false}};
  if (makespan != c.upper_bound) {
    out.passed = false;
    out.failure = "the schedule's makespan is " + time_text(makespan) + ", not the claimed " +
                  time_text(c.upper_bound);
  }
  return out;
}

CheckOutcome check_cut(const PartitionCheck& partition, const Certificate& c) {
  CheckOutcome out{2, "partition", partition.failure.empty(), partition.failure, {}};
  out.figures = {{"subproblems", number(c.subproblems.size()), false},
                 {"permutations", partition.count_figure, true},
                 {"tree_rebuilt", partition.rebuilt ? "true" : "false", false},
                 {"inner_nodes", number(partition.inner_nodes), false},
                 {"nested_subproblems", number(partition.nested), false}};
  return out;
}

CheckOutcome check_pruned(const Certificate& c, const TextbookBounds& bounds) {
  CheckOutcome out{3, "pruned bounds", true, "", {}};
  std::uint64_t checked = 0;
  Time lowest = kNoBound;
  for (const Subproblem& s : c.subproblems) {
    if (!s.pruned) continue;
    ++checked;
    const Time bound = bounds.pruning_bound(bounds.sides_of(s.prefix, s.suffix));
    lowest = std::min(lowest, bound);
    if (!out.passed) continue;
    if (bound < c.upper_bound) {
      out.passed = false;
      out.failure = subproblem_text(s) + ": its bound is " + time_text(bound) +
                    ", below the claim's " + time_text(c.upper_bound);
    } else if (bound != s.bound) {
      out.passed = false;
      out.failure = subproblem_text(s) + ": recorded bound " + time_text(s.bound) +
                    ", recomputed " + time_text(bound);
    }
  }
  out.figures = {{"pruned_subproblems", number(checked), false},
                 {"lowest_bound", time_text(lowest), lowest == kNoBound},
                 {"claim_upper_bound", time_text(c.upper_bound), c.upper_bound == kNoBound}};
  return out;
}

// The best makespans recorded by the records nested directly in one: its own best is that of
// its whole subtree, theirs included.
Time best_of(const Skipped& nested) {
  Time best = kNoBound;
  for (const Subproblem* s : nested) best = std::min(best, s->best);
  return best;
}

// How a re-exploration's counts are to be read: with the nested records aside, if any.
std::string reexplored(const Skipped& nested) {
  return nested.empty() ? "re-explored"
                        : "re-explored (the " + number(nested.size()) +
                              " subproblems nested in it aside, their best included)";
}

// One sampled subproblem, `nested` the records nested directly in it: the failure, or ""
// when it holds (or when an exploration passed the deadline, which `timed_out` then says).
std::string recheck(const Certificate& c, const TextbookBounds& bounds, const Subproblem& s,
                    const Skipped& nested, const Deadline& deadline,
                    std::uint64_t& nodes_explored, bool& timed_out) {
  if (s.ub_end > s.ub_start || s.ub_end < c.upper_bound) {
    return subproblem_text(s) + ": upper bounds " + time_text(s.ub_start) + " to " +
           time_text(s.ub_end) + " are not a falling range above the claim's " +
           time_text(c.upper_bound);
  }
  // At the end bound (at least the claim's), every schedule below the claim's bound survives
  // pruning: this exploration alone settles "none below".
  const Exploration low = explore_subproblem(bounds, c.branching, s.prefix, s.suffix, s.ub_end,
                                             c.upper_bound, {}, deadline, nested);
  nodes_explored += low.nodes;
  timed_out = low.timed_out;
  if (!low.first_below.empty()) {
    return subproblem_text(s) + ": holds a schedule of makespan " +
           time_text(bounds.makespan(low.first_below)) + ", below the claim's " +
           time_text(c.upper_bound);
  }
  if (timed_out) return "";
  const Time low_best = std::min(low.best, best_of(nested));
  if (s.ub_start == s.ub_end) {
    if (s.nodes != low.nodes || s.leaves != low.leaves || s.best != low_best) {
      return subproblem_text(s) + ": recorded " + number(s.nodes) + " nodes, " + number(s.leaves) +
             " leaves, best " + time_text(s.best) + "; " + reexplored(nested) +
             " at upper bound " + time_text(s.ub_end) + ": " + number(low.nodes) + ", " +
             number(low.leaves) + ", " + time_text(low_best);
    }
    return "";
  }
  // The bound fell: at least the counts at the end bound, at most those at the start bound.
  // The upper side needs only "at least the recorded counts" at the start bound: that
  // exploration stops there, so it costs no more than the run did.
  if (s.nodes < low.nodes || s.leaves < low.leaves || s.best > low_best) {
    return subproblem_text(s) + ": recorded " + number(s.nodes) + " nodes, " + number(s.leaves) +
           " leaves, best " + time_text(s.best) + "; fewer (or a worse best) than the " +
           number(low.nodes) + ", " + number(low.leaves) + ", " + time_text(low_best) + " " +
           reexplored(nested) + " at its end upper bound " + time_text(s.ub_end);
  }
  const Exploration high = explore_subproblem(bounds, c.branching, s.prefix, s.suffix,
                                              s.ub_start, c.upper_bound, {s.nodes, s.leaves},
                                              deadline, nested);
  nodes_explored += high.nodes;
  timed_out = high.timed_out;
  if (!timed_out && !high.stopped && (high.nodes < s.nodes || high.leaves < s.leaves)) {
    return subproblem_text(s) + ": recorded " + number(s.nodes) + " nodes and " + number(s.leaves) +
           " leaves; its start upper bound " + time_text(s.ub_start) + " allows only " +
           number(high.nodes) + " and " + number(high.leaves);
  }
  return "";
}

// The sampled subproblems re-explored on `threads` threads, each taking the next one in draw
// order: the failure reported is the first in that order, whichever thread met it, so the
// verdict and its line do not depend on the threads. Past the deadline no thread takes
// another, and the ones under way give up: `done` is then the first place in the order not
// re-explored to its end.
struct Rechecked {
  std::size_t failed_at = std::numeric_limits<std::size_t>::max();
  std::string failure;
  std::uint64_t nodes = 0;
  std::size_t done = 0;
  bool timed_out = false;
};

Rechecked recheck_sample(const Certificate& c, const TextbookBounds& bounds,
                         const Nesting& nesting, const std::vector<std::size_t>& order,
                         int threads, const AuditLimits& limits) {
  std::atomic<std::size_t> next{0};
  std::mutex lock;
  Rechecked out;
  std::vector<bool> finished(order.size(), false);
  const auto work = [&] {
    std::uint64_t nodes = 0;
    for (std::size_t k = next++; k < order.size() && !deadline_passed(limits.deadline);
         k = next++) {
      {
        const std::lock_guard<std::mutex> guard(lock);
        if (k > out.failed_at) break;  // a failure earlier in the order is the verdict
      }
      std::uint64_t explored = 0;
      bool timed_out = false;
      Skipped nested;
      for (const std::size_t i : nesting.nested[order[k]]) nested.push_back(&c.subproblems[i]);
      std::string failure = recheck(c, bounds, c.subproblems[order[k]], nested,
                                    limits.deadline, explored, timed_out);
      nodes += explored;
      if (limits.progress != nullptr) {
        limits.progress->nodes += explored;
        limits.progress->subproblems_done += timed_out ? 0 : 1;
      }
      const std::lock_guard<std::mutex> guard(lock);
      finished[k] = !timed_out;
      if (!failure.empty() && k < out.failed_at) {
        out.failed_at = k;
        out.failure = std::move(failure);
      }
    }
    const std::lock_guard<std::mutex> guard(lock);
    out.nodes += nodes;
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  while (out.done < order.size() && finished[out.done]) ++out.done;
  out.timed_out = out.done < order.size() && out.failure.empty();
  return out;
}

CheckOutcome check_sample(const Certificate& c, const TextbookBounds& bounds,
                          const Nesting& nesting, int threads, const AuditLimits& limits,
                          AuditResult& result) {
  CheckOutcome out{4, "sample", true, "", {}};
  const SampleChoice& sample = result.sample;
  std::uint64_t exact = 0;
  for (const std::size_t i : sample.subproblems) {
    const Subproblem& s = c.subproblems[i];
    exact += s.ub_start == s.ub_end ? 1 : 0;
  }
  if (limits.progress != nullptr) limits.progress->subproblems_sampled = sample.subproblems.size();
  const Rechecked rechecked =
      recheck_sample(c, bounds, nesting, sample.subproblems, threads, limits);
  if (!rechecked.failure.empty()) {
    out.passed = false;
    out.failure = rechecked.failure;
  }
  result.timed_out = rechecked.timed_out;
  result.sample_done = rechecked.done;
  out.figures = {{"draws", sample.complete ? "all" : number(sample.draws), sample.complete},
                 {"subproblems_reexplored", number(sample.subproblems.size()), false},
                 {"with_one_upper_bound", number(exact), false},
                 {"nodes_reexplored", number(rechecked.nodes), false},
                 {"stopped_by_time_limit", rechecked.timed_out ? "true" : "false", false}};
  if (rechecked.timed_out) {
    out.figures.push_back({"subproblems_done", number(rechecked.done), false});
    if (!sample.complete) {
      out.figures.push_back({"draws_done", number(sample.draws_covered(rechecked.done)), false});
    }
  }
  return out;
}

CheckOutcome check_totals(const Certificate& c, const PartitionCheck& partition) {
  CheckOutcome out{5, "totals", true, "", {}};
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  std::uint64_t surplus = 0;
  for (const Subproblem& s : c.subproblems) {
    nodes += s.nodes;
    leaves += s.leaves;
    if (s.pruned) surplus += s.nodes;
  }
  const std::uint64_t inner = partition.rebuilt ? partition.inner_nodes : c.nodes_above_cut;
  out.figures = {{"recorded_nodes", number(nodes), false},
                 {"inner_nodes", number(inner), false},
                 {"surplus_nodes_under_pruned", number(surplus), false},
                 {"run_nodes_decomposed", number(c.nodes), false},
                 {"recorded_leaves", number(leaves), false},
                 {"run_leaves", number(c.leaves), false}};
  if (!partition.rebuilt) {
    out.passed = false;
    out.failure = "the tree could not be rebuilt (check 2), so its inner nodes are unknown";
  } else if (c.nodes_above_cut != inner) {
    out.passed = false;
    out.failure = "the certificate counts " + number(c.nodes_above_cut) +
                  " nodes above the cut; the rebuilt tree has " + number(inner);
  } else if (nodes + inner != c.nodes || leaves != c.leaves) {
    out.passed = false;
    out.failure = "the subproblems and the tree count " + number(nodes + inner) + " nodes and " +
                  number(leaves) + " leaves; the run counted " + number(c.nodes) + " and " +
                  number(c.leaves);
  }
  return out;
}

}  // namespace

bool AuditResult::holds() const { return first_failure() == nullptr; }

const CheckOutcome* AuditResult::first_failure() const {
  for (const CheckOutcome& check : checks) {
    if (!check.passed) return &check;
  }
  return nullptr;
}

AuditResult audit_certificate(const Certificate& c, std::uint64_t sample_size, std::uint64_t seed,
                              int threads, const AuditLimits& limits) {
  if (threads <= 0) threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const TextbookBounds bounds(c);
  AuditResult result;
  result.sample_size = sample_size;
  result.seed = seed;
  result.sample = draw_sample(c, sample_size, seed);
  const Nesting nesting = find_nesting(c);
  const PartitionCheck partition = check_partition(c, bounds, nesting);
  result.checks.push_back(check_schedule(c, bounds));
  result.checks.push_back(check_cut(partition, c));
  result.checks.push_back(check_pruned(c, bounds));
  result.checks.push_back(check_sample(c, bounds, nesting, threads, limits, result));
  result.checks.push_back(check_totals(c, partition));
  return result;
}

}  // namespace permbb::audit
