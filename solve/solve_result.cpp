#include "solve_result.hpp"

#include <sstream>

#include "result_output.hpp"

namespace permbb::solve {

std::string to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::kOptimal:
      return "optimal";
    case SolveStatus::kNoBetterThanUb:
      return "no-better-than-ub";
    case SolveStatus::kIncomplete:
      return "incomplete";
  }
  return "?";
}

int exit_code(SolveStatus status) { return status == SolveStatus::kIncomplete ? 3 : 0; }

namespace {

// Over all runs: nodes of every run by the time of every run.
double rate(const SolveResult& r) {
  return r.seconds > 0 ? static_cast<double>(r.nodes_decomposed) / r.seconds : 0.0;
}

}  // namespace

nlohmann::json to_json(const SolveResult& r) {
  nlohmann::json j;
  j["instance"] = r.instance;
  j["jobs"] = r.jobs;
  j["machines"] = r.machines;
  j["bound"] = r.bound;
  j["branching"] = r.branching;
  j["initial_ub"] = r.initial_ub;
  j["initial_ub_origin"] = r.initial_ub_origin;
  j["status"] = to_string(r.status);
  j["makespan"] = r.has_schedule ? nlohmann::json(r.makespan) : nlohmann::json(nullptr);
  j["permutation"] = r.has_schedule ? nlohmann::json(one_based(r.permutation))
                                    : nlohmann::json(nullptr);
  j["nodes_decomposed"] = r.nodes_decomposed;
  j["leaves"] = r.leaves;
  j["seconds"] = r.seconds;
  j["nodes_per_second"] = rate(r);
  j["run_seconds"] = r.run_seconds;
  j["stopped_because"] =
      r.stopped_because.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stopped_because);
  j["restarts"] = r.restarts;
  j["threads"] = r.threads;
  j["engine"] = r.engine;
  j["steals"] = r.steals;
  if (!r.cluster.is_null()) j["cluster"] = r.cluster;
  return j;
}

std::string format_human(const SolveResult& r) {
  std::ostringstream out;
  out << "instance      " << r.instance << " (" << r.jobs << " jobs x " << r.machines
      << " machines)\n";
  out << "search        " << r.bound << ", " << r.branching << ", initial UB " << r.initial_ub
      << " (" << r.initial_ub_origin << "), " << r.engine << " x" << r.threads << "\n";
  out << "status        " << to_string(r.status) << "\n";
  if (r.has_schedule) {
    out << "makespan      " << r.makespan << "\n";
    out << "permutation  ";
    for (int job : one_based(r.permutation)) out << ' ' << job;
    out << "\n";
  } else {
    out << "makespan      none found below " << r.initial_ub << "\n";
  }
  out << "nodes         " << r.nodes_decomposed << " decomposed, " << r.leaves << " leaves\n";
  out.setf(std::ios::fixed);
  out.precision(3);
  out << "time          " << r.seconds << " s\n";
  out.precision(0);
  out << "rate          " << rate(r) << " nodes/s\n";
  return out.str();
}

}  // namespace permbb::solve
