#include "heuristic_workers.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <optional>

#include "beam_search.hpp"
#include "heuristic_method.hpp"
#include "neh.hpp"
#include "thread_start.hpp"

namespace permbb {

HeuristicWorkers::HeuristicWorkers(const Instance& instance, Incumbent& incumbent,
                                   SolutionPool& pool, SubproblemBoard& board,
                                   const HeuristicWorkerOptions& options)
    : instance_(instance), incumbent_(incumbent), pool_(pool), board_(board), options_(options) {
  const int threads = std::max(0, options.threads);
  start_threads(
      threads_, threads, "heuristic", [this](int i) { thread_main(i); },
      [this] { stop_.store(true); });
}

HeuristicWorkers::~HeuristicWorkers() {
  stop();
}

void HeuristicWorkers::stop() {
  stop_.store(true);
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

std::string HeuristicWorkers::error() const {
  std::lock_guard<std::mutex> lock(error_mutex_);
  return error_;
}

namespace {

// Heuristic threads run beside explorers, and the thread that feeds a GPU must never wait for
// a core behind them (nodes/s fell 12x with a heuristic thread per core on a bound rank):
// they yield to every thread of normal priority. Linux applies the nice value per thread.
// Without the right to change it (a restricted container), they run as they are.
constexpr int kHeuristicNice = 10;

void lower_this_thread_priority() {
  const auto thread_id = static_cast<id_t>(::syscall(SYS_gettid));
  (void)::setpriority(PRIO_PROCESS, thread_id, kHeuristicNice);
}

void lower_atomically(std::atomic<Time>& value, Time candidate) {
  Time seen = value.load();
  while (candidate < seen && !value.compare_exchange_weak(seen, candidate)) {
  }
}

}  // namespace

Schedule HeuristicWorkers::root_beam(const Schedule& start) {
  Schedule found = gap_beam_from_root(instance_, start, incumbent_, &stop_);
  lower_atomically(best_of_root_beam_, found.makespan);
  return found;
}

Schedule HeuristicWorkers::run_once(int index, std::uint64_t seed, const Schedule& start,
                                    std::mt19937_64& rng) {
  const double seconds = options_.seconds_per_run > 0 ? options_.seconds_per_run : 2.0;
  if (options_.subproblem_dives && index % 2 == 1) {
    if (const std::optional<PromotedSubproblem> subproblem = board_.take()) {
      BeamSearchOptions beam;
      beam.time_limit = seconds;
      beam.stop = &stop_;
      beam.shared_cutoff = &incumbent_;
      const Schedule inside{subproblem->schedule, makespan(instance_, subproblem->schedule)};
      const PartialSchedule node = node_at_depth(*subproblem, random_dive_depth(*subproblem, rng));
      dives_.fetch_add(1);
      Schedule found = beam_search(instance_, node, inside, beam).best;
      lower_atomically(best_of_dives_, found.makespan);
      return found;
    }
  }
  HeuristicOptions options;
  options.time_limit = seconds;
  options.seed = seed;
  options.start = start.permutation;
  options.stop = &stop_;
  Schedule found = run_heuristic(instance_, HeuristicMethod::kIls, options);
  lower_atomically(best_of_greedy_, found.makespan);
  return found;
}

void HeuristicWorkers::thread_main(int index) {
  lower_this_thread_priority();
  try {
    std::mt19937_64 rng(options_.seed + static_cast<std::uint64_t>(index));
    std::optional<Schedule> neh_schedule;
    const auto threads = static_cast<std::uint64_t>(std::max(1, options_.threads));
    for (std::uint64_t run = 0; !stop_.load(); ++run) {
      std::optional<Schedule> start = pool_.take();
      if (!start) {
        std::vector<int> best = incumbent_.permutation();
        if (!best.empty()) {
          start = Schedule{best, makespan(instance_, best)};
        } else {
          if (!neh_schedule) neh_schedule = neh(instance_);
          start = neh_schedule;
        }
      }
      const std::uint64_t seed = options_.seed + static_cast<std::uint64_t>(index) + run * threads;
      const bool beam_first = options_.root_beam && index == 0 && run == 0;
      const Schedule found = beam_first ? root_beam(*start) : run_once(index, seed, *start, rng);
      runs_.fetch_add(1);
      if (incumbent_.offer(found.permutation, found.makespan)) improvements_.fetch_add(1);
      pool_.insert(found);
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (error_.empty()) error_ = e.what();
  }
}

int promote_subproblems(SearchEngine& engine, const Instance& instance, Incumbent& incumbent,
                        SolutionPool& pool, SubproblemBoard& board) {
  const std::vector<PromotedSubproblem> samples = engine.sample_subproblems(pool.capacity());
  const std::vector<int>* best = nullptr;
  Time best_value = kInfiniteTime;
  for (const PromotedSubproblem& sample : samples) {
    const Time value = makespan(instance, sample.schedule);
    pool.insert(sample.schedule, value);
    if (value < best_value) {
      best_value = value;
      best = &sample.schedule;
    }
  }
  if (best != nullptr) incumbent.offer(*best, best_value);
  board.replace(samples);
  return static_cast<int>(samples.size());
}

Hybridization::Hybridization(const Instance& instance, Incumbent& incumbent,
                             const HeuristicWorkerOptions& options, double promote_seconds)
    : instance_(instance),
      incumbent_(incumbent),
      promote_seconds_(promote_seconds),
      pool_(2 * std::max(1, options.threads)),
      workers_(instance, incumbent, pool_, board_, options) {}

void Hybridization::between_slices(SearchEngine& engine) {
  const auto now = Clock::now();
  if (promoted_ &&
      std::chrono::duration<double>(now - last_promotion_).count() < promote_seconds_) {
    return;
  }
  promoted_ = true;
  last_promotion_ = now;
  promote_subproblems(engine, instance_, incumbent_, pool_, board_);
  ++promotions_;
}

}  // namespace permbb
