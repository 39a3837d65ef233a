#include "beam_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

#include "branching.hpp"
#include "deadline.hpp"
#include "flowshop_tables.hpp"
#include "lb1.hpp"

namespace permbb {
namespace {

// One level of a pass, struct-of-arrays: node i's jobs are jobs[i*n, (i+1)*n) (prefix, then
// the unscheduled jobs in no particular order, then the suffix) and its costs are
// costs[i*5m, (i+1)*5m): front, back, remain (the LB1 summary, lb1.hpp), then the idle time
// so far of the prefix and of the suffix on each machine.
struct Level {
  int size = 0;
  std::vector<int> jobs;
  std::vector<int> begin;
  std::vector<int> end;
  std::vector<char> direction;  // the side on which the node's last job was placed
  std::vector<Time> costs;

  void reserve(int width, int n, int m) {
    const auto w = static_cast<std::size_t>(width);
    jobs.resize(w * n);
    begin.resize(w);
    end.resize(w);
    direction.resize(w);
    costs.resize(w * 5 * m);
  }
};

// A child not yet built: which job of which parent goes to which side, and its rank.
struct Candidate {
  double guide;
  Time bound;
  int parent;
  int slot;  // position of the job in the parent's array
  int direction;
};

bool ranks_before(const Candidate& a, const Candidate& b) {
  if (a.guide != b.guide) return a.guide < b.guide;
  if (a.bound != b.bound) return a.bound < b.bound;
  if (a.parent != b.parent) return a.parent < b.parent;
  return a.slot < b.slot;
}

double idle_ratio(Time idle, Time length) {
  return length == 0 ? 1.0 : static_cast<double>(idle) / static_cast<double>(length);
}

class BeamSearch {
 public:
  BeamSearch(const Instance& instance, const BeamSearchOptions& options, Schedule start)
      : instance_(instance),
        tables_(instance),
        view_(tables_.view()),
        n_(instance.jobs()),
        m_(instance.machines()),
        options_(options),
        deadline_(options.time_limit, options.stop),
        rng_(options.seed) {
    result_.best = std::move(start);
  }

  BeamSearchResult run(const PartialSchedule& node) {
    const int max_width = options_.max_width > 0 ? options_.max_width : automatic_max_width();
    int width = std::max(1, std::min(options_.initial_width, max_width));
    for (;;) {
      bool finished = false;
      const bool truncated = pass(node, width, finished);
      if (!finished) break;  // the deadline cut the pass short
      ++result_.passes;
      result_.width = width;
      if (!truncated) {
        result_.complete = true;
        break;
      }
      if (options_.pass_limit != 0 && result_.passes >= options_.pass_limit) break;
      if (width >= max_width) break;
      const double grown = std::ceil(width * std::max(options_.growth, 1.0));
      width = static_cast<int>(std::min<double>(std::max<double>(grown, width + 1.0), max_width));
    }
    return std::move(result_);
  }

 private:
  int automatic_max_width() const {
    const long long node_bytes = static_cast<long long>(n_ + 5 * m_ + 3) * sizeof(int);
    const long long per_width = 2 * node_bytes + 2 * static_cast<long long>(sizeof(Candidate));
    return static_cast<int>(std::clamp<long long>(kBeamMemory / per_width, 1, 1 << 30));
  }

  Time best() const { return result_.best.makespan; }
  // Children whose LB1 reaches it are pruned: the best makespan so far, or the cutoff below it.
  Time cutoff() const {
    const Time shared =
        options_.shared_cutoff != nullptr ? options_.shared_cutoff->value() : kInfiniteTime;
    return std::min({best(), options_.cutoff, shared});
  }
  Time* costs(Level& level, int i) { return level.costs.data() + std::size_t(i) * 5 * m_; }
  int* jobs(Level& level, int i) { return level.jobs.data() + std::size_t(i) * n_; }

  // One breadth-first pass of the given width from `node`. Returns whether a child was
  // dropped for want of width; `finished` says whether the pass ran to its end.
  bool pass(const PartialSchedule& node, int width, bool& finished) {
    load_root(node, width);
    bool truncated = false;
    while (current_.size > 0) {
      candidates_.clear();
      for (int i = 0; i < current_.size; ++i) {
        if (deadline_.expired()) return truncated;
        expand(i);
        if (candidates_.size() >= 2 * static_cast<std::size_t>(width)) {
          keep_best(width);
          truncated = true;
        }
      }
      const Time limit = cutoff();
      std::erase_if(candidates_, [limit](const Candidate& c) { return c.bound >= limit; });
      if (candidates_.size() > static_cast<std::size_t>(width)) {
        keep_best(width);
        truncated = true;
      }
      build_next(width);
    }
    finished = true;
    return truncated;
  }

  void keep_best(int width) {
    std::nth_element(candidates_.begin(), candidates_.begin() + (width - 1), candidates_.end(),
                     ranks_before);
    candidates_.resize(static_cast<std::size_t>(width));
  }

  void load_root(const PartialSchedule& node, int width) {
    current_.reserve(width, n_, m_);
    next_.reserve(width, n_, m_);
    current_.size = 1;
    int* row = jobs(current_, 0);
    std::vector<int> order(static_cast<std::size_t>(n_));
    for (int j = 0; j < n_; ++j) order[j] = j;
    const std::vector<int> rest = unscheduled_jobs(instance_, node, order);
    std::copy(node.prefix.begin(), node.prefix.end(), row);
    std::copy(rest.begin(), rest.end(), row + node.prefix.size());
    std::copy(node.suffix.begin(), node.suffix.end(), row + node.prefix.size() + rest.size());
    current_.begin[0] = static_cast<int>(node.prefix.size());
    current_.end[0] = static_cast<int>(node.prefix.size() + rest.size());
    current_.direction[0] = kBack;  // so that a tie at the root goes to the front
    Time* c = costs(current_, 0);
    summarize_node(view_, node, c, c + m_, c + 2 * m_);
    idle_of_side(node.prefix, node.suffix, c + 3 * m_, c + 4 * m_);
  }

  // The idle time of a fixed prefix and suffix per machine, as the branching would have
  // accumulated it job by job.
  void idle_of_side(const std::vector<int>& prefix, const std::vector<int>& suffix,
                    Time* idle_front, Time* idle_back) {
    std::vector<Time> done(static_cast<std::size_t>(m_), 0);
    std::fill(idle_front, idle_front + m_, 0);
    for (const int job : prefix) {
      Time previous = 0;
      for (int k = 0; k < m_; ++k) {
        const Time start = std::max(done[k], previous);
        idle_front[k] += start - done[k];
        previous = done[k] = start + view_.time(job, k);
      }
    }
    std::fill(done.begin(), done.end(), 0);
    std::fill(idle_back, idle_back + m_, 0);
    for (auto it = suffix.rbegin(); it != suffix.rend(); ++it) {
      Time previous = 0;
      for (int k = m_ - 1; k >= 0; --k) {
        const Time start = std::max(done[k], previous);
        idle_back[k] += start - done[k];
        previous = done[k] = start + view_.time(*it, k);
      }
    }
  }

  // Node i of the current level: a leaf is evaluated; otherwise its children's bounds are
  // computed on both sides, a side is chosen and the children below the best makespan become
  // candidates.
  void expand(int i) {
    int* row = jobs(current_, i);
    const int begin = current_.begin[i];
    const int end = current_.end[i];
    const Time* c = costs(current_, i);
    const Time* front = c;
    const Time* back = c + m_;
    const Time* remain = c + 2 * m_;
    if (end - begin <= 1) {
      const Time span = end == begin ? lb1_bound(view_, front, back, remain)
                                     : complete_makespan(view_, front, back, end == n_, row[begin]);
      if (span < best()) {
        result_.best.permutation.assign(row, row + n_);
        result_.best.makespan = span;
        offer_to(options_.best_so_far, result_.best.permutation, span);
      }
      return;
    }
    // Read once per node: the shared cutoff is an atomic another thread lowers.
    const Time limit = cutoff();
    int count_front = 0;
    int count_back = 0;
    long long sum_front = 0;
    long long sum_back = 0;
    bounds_front_.resize(static_cast<std::size_t>(end - begin));
    bounds_back_.resize(static_cast<std::size_t>(end - begin));
    for (int s = begin; s < end; ++s) {
      const Time f = lb1_child_front_bound(view_, front, back, remain, row[s]);
      const Time b = lb1_child_back_bound(view_, front, back, remain, row[s]);
      bounds_front_[s - begin] = f;
      bounds_back_[s - begin] = b;
      if (f < limit) ++count_front, sum_front += f;
      if (b < limit) ++count_back, sum_back += b;
    }
    int direction;
    if (count_front != count_back) {
      direction = count_front < count_back ? kFront : kBack;
    } else if (sum_front != sum_back) {
      direction = sum_front > sum_back ? kFront : kBack;
    } else {
      direction = current_.direction[i] == kFront ? kBack : kFront;
    }
    const std::vector<Time>& bounds = direction == kFront ? bounds_front_ : bounds_back_;
    const int scheduled_after = n_ - (end - begin) + 1;
    const double alpha = static_cast<double>(scheduled_after) / n_;
    for (int s = begin; s < end; ++s) {
      const Time bound = bounds[s - begin];
      if (bound >= limit) continue;
      double guide = bound;
      if (options_.guide != BeamGuide::kBound) {
        const double weighted_idle =
            child_idle(c, begin == 0, end == n_, row[s], direction, nullptr, nullptr);
        guide = options_.guide == BeamGuide::kGap
                    ? gap_guide(bound, weighted_idle, limit)
                    : alpha * bound + (1.0 - alpha) * weighted_idle * bound;
      }
      if (options_.guide_noise > 0) {
        guide *= 1.0 + options_.guide_noise * std::uniform_real_distribution<double>(-1, 1)(rng_);
      }
      candidates_.push_back({guide, bound, i, s, direction});
    }
  }

  // BeamGuide::kGap for a child of bound `bound`, below `limit` (the cutoff: the gap is
  // positive), and weighted idle time `weighted_idle`.
  static double gap_guide(Time bound, double weighted_idle, Time limit) {
    const double gap = static_cast<double>(limit - bound) / static_cast<double>(limit);
    return static_cast<double>(bound) / gap + weighted_idle * gap;
  }

  // The weighted idle time of the child placing `job` on `direction` (the sum over machines
  // of idle/length for both sides); writes the child's new side times and idle times when
  // asked. An empty prefix counts as completion times 0 here, not min_heads: the idle time
  // before the first job is idle time.
  double child_idle(const Time* c, bool prefix_empty, bool suffix_empty, int job, int direction,
                    Time* side_out, Time* idle_out) {
    // The side the job joins and the other side: times, idle times, and whether it is empty.
    const bool front = direction == kFront;
    const Time* side = front ? c : c + m_;
    const Time* other = front ? c + m_ : c;
    const Time* side_idle = front ? c + 3 * m_ : c + 4 * m_;
    const Time* other_idle = front ? c + 4 * m_ : c + 3 * m_;
    const bool side_empty = front ? prefix_empty : suffix_empty;
    const bool other_empty = front ? suffix_empty : prefix_empty;
    double weighted = 0;
    Time previous = 0;
    for (int step = 0; step < m_; ++step) {
      const int k = machine_at(step, m_, direction);  // machine 0 first on the front
      const Time old = side_empty ? 0 : side[k];
      const Time start = std::max(old, previous);
      const Time idle = side_idle[k] + (start - old);
      previous = start + view_.time(job, k);
      if (side_out != nullptr) side_out[k] = previous, idle_out[k] = idle;
      weighted += idle_ratio(idle, previous);
      weighted += other_empty ? 1.0 : idle_ratio(other_idle[k], other[k]);
    }
    return weighted;
  }

  // Builds the next level from the kept candidates, then makes it the current one.
  void build_next(int width) {
    next_.reserve(width, n_, m_);
    next_.size = 0;
    const Time limit = cutoff();
    for (const Candidate& cand : candidates_) {
      if (cand.bound >= limit) continue;
      const int i = next_.size++;
      int* row = jobs(next_, i);
      std::copy_n(jobs(current_, cand.parent), n_, row);
      Time* c = costs(next_, i);
      const Time* parent = costs(current_, cand.parent);
      std::copy_n(parent, 5 * m_, c);
      int begin = current_.begin[cand.parent];
      int end = current_.end[cand.parent];
      const int job = row[cand.slot];
      if (cand.direction == kFront) {
        child_idle(parent, begin == 0, end == n_, job, kFront, c, c + 3 * m_);
        std::swap(row[begin], row[cand.slot]);
        ++begin;
      } else {
        child_idle(parent, begin == 0, end == n_, job, kBack, c + m_, c + 4 * m_);
        std::swap(row[end - 1], row[cand.slot]);
        --end;
      }
      lb1_remove_job(view_, c + 2 * m_, job, c + 2 * m_);
      next_.begin[i] = begin;
      next_.end[i] = end;
      next_.direction[i] = static_cast<char>(cand.direction);
    }
    std::swap(current_, next_);
  }

  const Instance& instance_;
  FlowshopTables tables_;
  FlowshopView view_;
  int n_;
  int m_;
  BeamSearchOptions options_;
  Deadline deadline_;
  std::mt19937_64 rng_;
  BeamSearchResult result_;
  Level current_;
  Level next_;
  std::vector<Candidate> candidates_;
  std::vector<Time> bounds_front_;
  std::vector<Time> bounds_back_;
};

}  // namespace

Schedule gap_beam_from_root(const Instance& instance, const Schedule& start, Incumbent& shared,
                            const std::atomic<bool>* stop, double time_limit) {
  BeamSearchOptions beam;
  beam.guide = BeamGuide::kGap;
  beam.time_limit = time_limit;
  beam.stop = stop;
  beam.shared_cutoff = &shared;
  beam.best_so_far = &shared;
  return beam_search(instance, PartialSchedule{}, start, beam).best;
}

BeamSearchResult beam_search(const Instance& instance, const PartialSchedule& node,
                             const Schedule& start, const BeamSearchOptions& options) {
  require_valid_node(instance, node);
  Schedule incumbent;
  if (start.permutation.empty()) {
    std::vector<int> order(static_cast<std::size_t>(instance.jobs()));
    for (int j = 0; j < instance.jobs(); ++j) order[j] = j;
    incumbent.permutation = node.prefix;
    const std::vector<int> rest = unscheduled_jobs(instance, node, order);
    incumbent.permutation.insert(incumbent.permutation.end(), rest.begin(), rest.end());
    incumbent.permutation.insert(incumbent.permutation.end(), node.suffix.begin(),
                                 node.suffix.end());
  } else {
    require_complete_permutation(instance, start.permutation, "beam search start");
    incumbent.permutation = start.permutation;
  }
  incumbent.makespan = makespan(instance, incumbent.permutation);
  BeamSearch search(instance, options, std::move(incumbent));
  return search.run(node);
}

}  // namespace permbb
