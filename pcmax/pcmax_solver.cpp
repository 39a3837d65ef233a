#include "pcmax_solver.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "input_error.hpp"
#include "schedule_improvement.hpp"
#include "multifit.hpp"

namespace permbb::pcmax {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The run's state: the instance without idle machines, the best schedule and lower bound.
class Solver {
 public:
  Solver(const PcmaxInstance& instance, const SolverOptions& options, TableFiller& filler)
      : busy_(without_idle_machines(instance)), options_(options), filler_(filler) {}

  SolverResult run() {
    result_.bounds = compute_lower_bounds(busy_);
    result_.best_lower_bound = result_.bounds.best();
    consider("lpt", build_lpt_schedule(busy_), Clock::now());
    consider("multifit", build_multifit_schedule(busy_), Clock::now());
    if (options_.ptas) run_ptas_chain(*options_.ptas);
    if (options_.exact && !stopped()) run_exact();
    result_.complete = result_.complete && !stopped();
    return std::move(result_);
  }

 private:
  bool stopped() const { return stop_requested(options_.control); }
  bool optimal() const { return result_.schedule.makespan == result_.best_lower_bound; }

  void raise_lower_bound(Duration bound) {
    result_.best_lower_bound = std::max(result_.best_lower_bound, bound);
  }

  // Improves `schedule` and keeps it when it is the best so far (the first one on ties).
  void consider(const std::string& name, PcmaxSchedule schedule, Clock::time_point start) {
    Candidate candidate{name, schedule.makespan, 0, 0};
    LocalSearchLimits limits;
    limits.control = options_.control;
    improve_schedule(busy_, schedule, limits);
    candidate.improved = schedule.makespan;
    candidate.seconds = seconds_since(start);
    spdlog::info("{}: makespan {}, {} after the local search ({:.3f} s)", name,
                 candidate.makespan, candidate.improved, candidate.seconds);
    if (result_.source.empty() || schedule.makespan < result_.schedule.makespan) {
      result_.schedule = std::move(schedule);
      result_.source = name;
    }
    result_.candidates.push_back(candidate);
  }

  // The PTAS at k' as a candidate; false when it was stopped.
  bool consider_ptas(const PtasOptions& base, int k, bool asked) {
    PtasOptions options = base;
    options.k = k;
    options.control = options_.control;
    const auto start = Clock::now();
    PtasResult ptas = solve_pcmax(busy_, options, filler_);
    if (ptas.complete) raise_lower_bound(ptas.final_target);
    if (ptas.complete) result_.ptas_lower_bound = std::max(result_.ptas_lower_bound, ptas.final_target);
    consider("ptas k=" + std::to_string(k), ptas.schedule, start);
    const bool complete = ptas.complete;
    if (asked) result_.ptas = std::move(ptas);
    return complete;
  }

  void run_ptas_chain(const PtasOptions& base) {
    const int asked = base.k > 0 ? base.k : k_for_epsilon(base.epsilon);
    if (!consider_ptas(base, asked, true)) {
      result_.complete = false;
      return;
    }
    for (int k = 1; k < asked && !optimal(); ++k) {
      try {
        if (!consider_ptas(base, k, false)) {
          result_.complete = false;
          return;
        }
      } catch (const InputError& refused) {  // a table over the memory limit, at this k
        spdlog::info("ptas k={} left out: {}", k, refused.what());
      }
    }
  }

  void run_exact() {
    ExactLimits limits;
    limits.control = options_.control;
    const auto start = Clock::now();
    ExactResult exact = prove_optimum(busy_, result_.best_lower_bound, result_.schedule, limits);
    raise_lower_bound(exact.lower);
    if (exact.upper < result_.schedule.makespan) {
      result_.schedule = exact.schedule;
      result_.source = "exact";
    }
    spdlog::info("exact: {} in {:.3f} s, OPT in [{}, {}]", exact.proven ? "proven" : "incomplete",
                 seconds_since(start), exact.lower, exact.upper);
    if (!exact.proven) result_.complete = false;
    result_.exact = std::move(exact);
  }

  const PcmaxInstance busy_;
  const SolverOptions& options_;
  TableFiller& filler_;
  SolverResult result_;
};

}  // namespace

SolverResult solve_instance(const PcmaxInstance& instance, const SolverOptions& options,
                            TableFiller& filler) {
  validate_instance(instance, instance.name);
  const auto start = Clock::now();
  SolverResult result = Solver(instance, options, filler).run();
  // The schedule on the instance's own machines, its loads recomputed from the times: the
  // candidates' bookkeeping is not what is checked.
  recompute_loads(instance, result.schedule);
  if (result.ptas && result.ptas->complete) {
    const PtasResult& ptas = *result.ptas;
    if (static_cast<__int128>(result.schedule.makespan) * ptas.k >=
        static_cast<__int128>(ptas.final_target) * (ptas.k + 1)) {
      throw std::logic_error("P||Cmax: the schedule breaks the PTAS guarantee");
    }
  }
  if (result.schedule.makespan < result.best_lower_bound) {
    throw std::logic_error("P||Cmax: a makespan below the lower bound");
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace permbb::pcmax
