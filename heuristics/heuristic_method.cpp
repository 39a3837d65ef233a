#include "heuristic_method.hpp"

#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

#include "beam_search.hpp"
#include "input_error.hpp"
#include "named_values.hpp"
#include "thread_start.hpp"
#include "truncated_bb.hpp"

namespace permbb {
namespace {

const std::vector<std::pair<HeuristicMethod, std::string>>& method_names() {
  static const std::vector<std::pair<HeuristicMethod, std::string>> names = {
      {HeuristicMethod::kNeh, "neh"},
      {HeuristicMethod::kIls, "ils"},
      {HeuristicMethod::kTruncatedBb, "truncated-bb"},
      {HeuristicMethod::kBeam, "beam"}};
  return names;
}

const std::vector<std::pair<InsertionTies, std::string>>& ties_names() {
  static const std::vector<std::pair<InsertionTies, std::string>> names = {
      {InsertionTies::kLeftmost, "leftmost"},
      {InsertionTies::kTightest, "tightest"},
      {InsertionTies::kRandom, "random"}};
  return names;
}

const std::vector<std::pair<BeamGuide, std::string>>& guide_names() {
  static const std::vector<std::pair<BeamGuide, std::string>> names = {
      {BeamGuide::kBound, "bound"},
      {BeamGuide::kBoundAndIdleTime, "idle"},
      {BeamGuide::kGap, "gap"}};
  return names;
}

// The guide noise of the beam copies after the first (beam_search.hpp): enough to reorder
// children whose guides are within a fraction of a percent, which is where beams differ.
constexpr double kBeamCopyNoise = 0.005;

// Runs copy(0) .. copy(copies - 1) on their own threads and keeps the best schedule (ties: the
// lowest index). An exception in a copy is rethrown here after all have ended.
template <class Copy>
Schedule best_of_copies(int copies, const Copy& copy) {
  if (copies <= 1) return copy(0);
  std::vector<Schedule> results(static_cast<std::size_t>(copies));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(copies));
  std::vector<std::thread> threads;
  // Copies end at their own limits: nothing to stop if the system refuses a thread.
  start_threads(
      threads, copies, "heuristic copy",
      [&](int i) {
        try {
          results[i] = copy(i);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      },
      [] {});
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < results.size(); ++i) {
    if (results[i].makespan < results[best].makespan) best = i;
  }
  return std::move(results[best]);
}

// NEH, cut short (its order completed) once options.stop rises: a stop signal must not wait
// for NEH on thousands of jobs.
Schedule stoppable_neh(const Instance& instance, const HeuristicOptions& options) {
  const std::atomic<bool>* stop = options.stop;
  return neh(instance, [stop] { return stop != nullptr && stop->load(std::memory_order_relaxed); });
}

Schedule start_schedule(const Instance& instance, const HeuristicOptions& options) {
  if (!options.start) return stoppable_neh(instance, options);
  require_complete_permutation(instance, *options.start, "heuristic start");
  return Schedule{*options.start, makespan(instance, *options.start)};
}

}  // namespace

std::string to_string(HeuristicMethod method) { return name_of(method_names(), method); }

HeuristicMethod parse_heuristic_method(const std::string& name) {
  return parse_name(method_names(), name, "heuristic method");
}

std::vector<std::string> heuristic_method_names() { return names_of(method_names()); }

std::string to_string(InsertionTies ties) { return name_of(ties_names(), ties); }

InsertionTies parse_insertion_ties(const std::string& name) {
  return parse_name(ties_names(), name, "tie rule");
}

std::vector<std::string> insertion_ties_names() { return names_of(ties_names()); }

std::string to_string(BeamGuide guide) { return name_of(guide_names(), guide); }

BeamGuide parse_beam_guide(const std::string& name) {
  return parse_name(guide_names(), name, "beam guide");
}

std::vector<std::string> beam_guide_names() { return names_of(guide_names()); }

Schedule run_heuristic(const Instance& instance, HeuristicMethod method,
                       const HeuristicOptions& options) {
  if (method == HeuristicMethod::kNeh) {
    Schedule schedule = stoppable_neh(instance, options);
    offer_to(options.best_so_far, schedule.permutation, schedule.makespan);
    return schedule;
  }
  if (options.threads < 1) throw std::invalid_argument("heuristic: threads must be at least 1");
  if (options.time_limit <= 0 && options.iteration_limit == 0 && options.stop == nullptr) {
    throw std::invalid_argument("heuristic " + to_string(method) +
                                ": needs a time limit, an iteration limit or a stop flag");
  }
  const Schedule start = start_schedule(instance, options);
  offer_to(options.best_so_far, start.permutation, start.makespan);
  switch (method) {
    case HeuristicMethod::kIls: {
      // The copies offer their improvements to one place, from which they may adopt
      // (IteratedGreedyOptions::adopt_after): the caller's incumbent, or one of their own.
      Incumbent copies_best;
      Incumbent* const shared =
          options.best_so_far != nullptr ? options.best_so_far : &copies_best;
      if (options.beam_copies < 0 || options.beam_copies > options.threads) {
        throw std::invalid_argument("heuristic: beam copies must be between 0 and threads");
      }
      const int first_beam_copy = options.threads - options.beam_copies;
      return best_of_copies(options.threads, [&](int copy) {
        if (copy >= first_beam_copy) {
          return gap_beam_from_root(instance, start, *shared, options.stop, options.time_limit);
        }
        IteratedGreedyOptions ils = options.iterated_greedy;
        ils.time_limit = options.time_limit;
        ils.cpu_time = options.cpu_time;
        ils.iteration_limit = options.iteration_limit;
        ils.stop = options.stop;
        ils.seed = options.seed + static_cast<std::uint64_t>(copy);
        ils.best_so_far = shared;
        ils.shared = shared;
        IteratedGreedyResult result = iterated_greedy(instance, start, ils);
        if (options.iterations_done) *options.iterations_done += result.iterations;
        return std::move(result.best);
      });
    }
    case HeuristicMethod::kBeam:
      return best_of_copies(options.threads, [&](int copy) {
        BeamSearchOptions beam;
        beam.time_limit = options.time_limit;
        beam.pass_limit = options.iteration_limit;
        beam.stop = options.stop;
        beam.seed = options.seed + static_cast<std::uint64_t>(copy);
        beam.guide = options.beam_guide;
        beam.cutoff = options.beam_cutoff;
        beam.guide_noise = copy == 0 ? 0.0 : kBeamCopyNoise;
        beam.best_so_far = options.best_so_far;
        return beam_search(instance, options.node, start, beam).best;
      });
    case HeuristicMethod::kTruncatedBb: {
      TruncatedBbOptions bb;
      bb.time_limit = options.time_limit;
      bb.node_limit = options.iteration_limit;
      bb.stop = options.stop;
      bb.best_so_far = options.best_so_far;
      return truncated_bb(instance, options.node, start, bb).best;
    }
    case HeuristicMethod::kNeh:
      break;
  }
  return stoppable_neh(instance, options);
}

}  // namespace permbb
