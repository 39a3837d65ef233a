#include "truncated_bb.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "deadline.hpp"
#include "flowshop_tables.hpp"
#include "lb1.hpp"

namespace permbb {
namespace {

// A node as the IVM sees it: all the jobs in one array, the prefix, then the unscheduled
// jobs in row order, then the suffix; with its LB1 summary. The array read as it stands is the
// node's completion in row order, so the upper bound needs no other state.
struct Node {
  std::vector<int> jobs;
  int begin = 0;              // first unscheduled position (prefix length)
  int end = 0;                // one past the last unscheduled position
  std::vector<Time> summary;  // front, back, remain: machines each
  Time lower_bound = 0;
  Time upper_bound = 0;

  int unscheduled() const { return end - begin; }
};

class TruncatedSearch {
 public:
  TruncatedSearch(const Instance& instance, const Schedule& start,
                  const TruncatedBbOptions& options)
      : tables_(instance),
        view_(tables_.view()),
        n_(instance.jobs()),
        m_(instance.machines()),
        options_(options),
        deadline_(options.time_limit, options.stop),
        row_(static_cast<std::size_t>(m_)) {
    result_.best = start;
  }

  TruncatedBbResult run(Node root) {
    evaluate(root);
    if (root.unscheduled() >= 2 && root.lower_bound < best()) stack_.push_back(std::move(root));
    bool stopped = false;
    while (!stack_.empty()) {
      if (deadline_.expired() ||
          (options_.node_limit != 0 && result_.nodes >= options_.node_limit)) {
        stopped = true;
        break;
      }
      Node node = std::move(stack_.back());
      stack_.pop_back();
      if (node.lower_bound >= best()) continue;
      ++result_.nodes;
      expand(node);
    }
    result_.exhausted = !stopped && !truncated_;
    return std::move(result_);
  }

  // The start node, its unscheduled jobs in the order of the start schedule.
  Node make_root(const Instance& instance, const PartialSchedule& start_node) {
    Node root;
    root.jobs = start_node.prefix;
    const std::vector<int> rest = unscheduled_jobs(instance, start_node, result_.best.permutation);
    root.jobs.insert(root.jobs.end(), rest.begin(), rest.end());
    root.jobs.insert(root.jobs.end(), start_node.suffix.begin(), start_node.suffix.end());
    root.begin = static_cast<int>(start_node.prefix.size());
    root.end = root.begin + static_cast<int>(rest.size());
    root.summary.resize(static_cast<std::size_t>(3 * m_));
    summarize_node(view_, start_node, front(root), back(root), remain(root));
    root.lower_bound = lb1_bound(view_, front(root), back(root), remain(root));
    return root;
  }

 private:
  Time best() const { return result_.best.makespan; }
  Time* front(Node& node) { return node.summary.data(); }
  Time* back(Node& node) { return node.summary.data() + m_; }
  Time* remain(Node& node) { return node.summary.data() + 2 * m_; }

  // The makespan of the node's array as it stands: the prefix's completion times (zero for
  // an empty prefix, not min_heads), the unscheduled jobs appended one by one, then joined to
  // the suffix's tails. O((unscheduled + 1) m). Keeps the schedule if it is the best.
  void evaluate(Node& node) {
    if (node.begin == 0) {
      std::fill(row_.begin(), row_.end(), 0);
    } else {
      std::copy(front(node), front(node) + m_, row_.begin());
    }
    for (int i = node.begin; i < node.end; ++i) {
      lb1_append_front(view_, row_.data(), node.jobs[i], row_.data());
    }
    Time span = row_[m_ - 1];
    if (node.end < n_) {
      span = 0;
      const Time* tail = back(node);
      for (int k = 0; k < m_; ++k) span = std::max(span, row_[k] + tail[k]);
    }
    node.upper_bound = span;
    if (span < best()) {
      result_.best.permutation = node.jobs;
      result_.best.makespan = span;
      offer_to(options_.best_so_far, result_.best.permutation, span);
    }
  }

  // Bounds both children sets, keeps one by the branching rule, evaluates the children below
  // the best makespan and pushes the non-leaves, best upper bound on top.
  void expand(Node& node) {
    const int count = node.unscheduled();
    lb_front_.resize(static_cast<std::size_t>(count));
    lb_back_.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      const int job = node.jobs[node.begin + i];
      lb_front_[i] = lb1_child_front_bound(view_, front(node), back(node), remain(node), job);
      lb_back_[i] = lb1_child_back_bound(view_, front(node), back(node), remain(node), job);
    }
    const int direction =
        choose_direction(options_.branching, lb_front_.data(), lb_back_.data(), count);
    const std::vector<Time>& bounds = direction == kFront ? lb_front_ : lb_back_;

    children_.clear();
    for (int i = 0; i < count; ++i) {
      if (bounds[i] >= best()) continue;
      Node child = make_child(node, i, direction);
      child.lower_bound = bounds[i];
      evaluate(child);
      if (child.unscheduled() >= 2) children_.push_back(std::move(child));
    }
    std::erase_if(children_, [this](const Node& c) { return c.lower_bound >= best(); });
    std::sort(children_.begin(), children_.end(), [](const Node& a, const Node& b) {
      if (a.upper_bound != b.upper_bound) return a.upper_bound < b.upper_bound;
      return a.lower_bound < b.lower_bound;
    });
    const std::size_t room =
        stack_.size() < options_.stack_limit ? options_.stack_limit - stack_.size() : 0;
    const std::size_t keep = std::min(children_.size(), std::max<std::size_t>(room, 1));
    if (keep < children_.size()) truncated_ = true;
    for (std::size_t c = keep; c-- > 0;) stack_.push_back(std::move(children_[c]));
  }

  // The child that places the i-th unscheduled job at the end of the prefix or at the start
  // of the suffix; the other unscheduled jobs keep their row order.
  Node make_child(const Node& parent, int i, int direction) {
    Node child = parent;
    const int job = parent.jobs[parent.begin + i];
    auto first = child.jobs.begin();
    if (direction == kFront) {
      std::rotate(first + child.begin, first + child.begin + i, first + child.begin + i + 1);
      lb1_append_front(view_, front(child), job, front(child));
      ++child.begin;
    } else {
      std::rotate(first + child.begin + i, first + child.begin + i + 1, first + child.end);
      lb1_prepend_back(view_, back(child), job, back(child));
      --child.end;
    }
    lb1_remove_job(view_, remain(child), job, remain(child));
    return child;
  }

  FlowshopTables tables_;
  FlowshopView view_;
  int n_;
  int m_;
  TruncatedBbOptions options_;
  Deadline deadline_;
  TruncatedBbResult result_;
  std::vector<Node> stack_;
  std::vector<Node> children_;
  std::vector<Time> lb_front_;
  std::vector<Time> lb_back_;
  std::vector<Time> row_;
  bool truncated_ = false;
};

}  // namespace

TruncatedBbResult truncated_bb(const Instance& instance, const PartialSchedule& node,
                               const Schedule& start, const TruncatedBbOptions& options) {
  require_complete_permutation(instance, start.permutation, "truncated branch-and-bound start");
  require_valid_node(instance, node);
  const Schedule evaluated{start.permutation, makespan(instance, start.permutation)};
  TruncatedSearch search(instance, evaluated, options);
  return search.run(search.make_root(instance, node));
}

}  // namespace permbb
