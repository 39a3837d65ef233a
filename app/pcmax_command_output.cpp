#include "pcmax_command_output.hpp"

#include <cstdio>
#include <sstream>

namespace permbb::app {
namespace {

using pcmax::PtasResult;
using pcmax::SolverResult;

struct DpTotals {
  int tables = 0;  // targets that needed a table
  std::uint64_t entries = 0;
  std::uint64_t largest = 0;
  double seconds = 0;
};

DpTotals totals(const PtasResult& r) {
  DpTotals t;
  for (const auto& table : r.tables) {
    if (table.entries == 0) continue;
    ++t.tables;
    t.entries += table.entries;
    t.largest = std::max(t.largest, table.entries);
    t.seconds += table.report.seconds;
  }
  return t;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// (1 + 1/k) T*: an integer, or rounded to two decimals. T* (k + 1) passes 2^63 for the
// largest instances (T* up to 10^18, k up to 1000), so the product is taken in 128 bits and
// the decimals in integers, exact where a double would have no bits left for them.
std::string guarantee_bound(const PtasResult& r) {
  const __int128 scaled = static_cast<__int128>(r.final_target) * (r.k + 1);
  auto whole = static_cast<std::int64_t>(scaled / r.k);  // at most 2 T*
  const auto remainder = static_cast<std::int64_t>(scaled % r.k);
  if (remainder == 0) return std::to_string(whole);
  std::int64_t hundredths = (remainder * 100 + r.k / 2) / r.k;
  if (hundredths == 100) {
    ++whole;
    hundredths = 0;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(whole),
                static_cast<long long>(hundredths));
  return text;
}

// makespan / best lower bound - 1: what is left to prove.
double gap(const SolverResult& r) {
  return static_cast<double>(r.schedule.makespan) / static_cast<double>(r.best_lower_bound) - 1;
}

// The guarantee line: the PTAS's bound (the schedule is never longer than the PTAS's own), or,
// for a PTAS stopped early, none but what the lower bounds say.
std::string guarantee_line(double epsilon, const SolverResult& r) {
  std::ostringstream out;
  const PtasResult& p = *r.ptas;
  if (p.complete) {
    out << "makespan < (1 + 1/" << p.k << ") T* = " << guarantee_bound(p)
        << " with T* = " << p.final_target << " <= OPT: within " << 1.0 + 1.0 / p.k
        << " of the optimum (1 + epsilon = " << 1.0 + epsilon << ")";
  } else {
    out << "none: stopped before the bisection ended, targets [" << p.targets_left.lower << ", "
        << p.targets_left.upper << "] left; OPT >= " << r.best_lower_bound << ", so within "
        << static_cast<double>(r.schedule.makespan) / static_cast<double>(r.best_lower_bound)
        << " of the optimum";
  }
  return out.str();
}

std::string bounds_line(const SolverResult& r) {
  std::ostringstream out;
  out << r.best_lower_bound << " = best of simple " << r.bounds.simple << ", counting "
      << r.bounds.counting << ", bin packing " << r.bounds.bin_packing;
  if (r.ptas_lower_bound > 0) out << ", PTAS T* " << r.ptas_lower_bound;
  if (r.exact) out << ", exact search " << r.exact->lower;
  return out.str();
}

std::string exact_line(const pcmax::ExactResult& e) {
  std::ostringstream out;
  if (e.proven) {
    out << "optimal, proven: OPT = " << e.upper;
  } else {
    out << "incomplete (" << e.stopped_because << "): OPT in [" << e.lower << ", " << e.upper
        << "]";
  }
  out << "; " << e.targets.size() << " targets decided, " << e.nodes << " search nodes";
  return out.str();
}

std::string dp_line(const PtasResult& p) {
  const DpTotals t = totals(p);
  std::ostringstream out;
  out << t.tables << " tables of " << p.tables.size() << " targets, " << t.entries
      << " entries (largest " << t.largest << "), " << p.rounds << " bisection rounds (split "
      << p.split << "), " << fixed(t.seconds, 3) << " s on the " << p.engine;
  if (p.engine == "cpu") out << " (" << p.threads << " threads)";
  return out.str();
}

}  // namespace

std::string pcmax_status(const SolverResult& r) { return r.complete ? "complete" : "incomplete"; }

std::string format_pcmax_text(const pcmax::PcmaxInstance& instance, const PcmaxRunFacts& facts,
                              const SolverResult& r) {
  std::ostringstream out;
  out << "instance      " << instance.name << " (" << instance.jobs() << " jobs, "
      << instance.machines << " machines)\n";
  out << "status        " << pcmax_status(r)
      << (r.complete ? "" : " (" + facts.stopped_because + ")") << "\n";
  if (r.ptas) out << "epsilon       " << *facts.epsilon << " (k = " << r.ptas->k << ")\n";
  out << "makespan      " << r.schedule.makespan << " (" << r.source << ")\n";
  out << "lower bound   " << bounds_line(r) << "\n";
  out << "gap           " << fixed(100 * gap(r), 2) << " %"
      << (r.proven_optimal() ? ": optimal" : "") << "\n";
  out << "candidates   ";
  for (const auto& c : r.candidates) {
    out << ' ' << c.name << ' ' << c.makespan << " -> " << c.improved << ';';
  }
  out << "  (as built -> after the local search)\n";
  if (r.ptas) out << "guarantee     " << guarantee_line(*facts.epsilon, r) << "\n";
  if (r.exact) out << "exact         " << exact_line(*r.exact) << "\n";
  out << "schedule      machine of job 1.." << instance.jobs() << ":";
  for (const int machine : r.schedule.machine_of_job) out << ' ' << machine + 1;
  out << "\n";
  if (r.ptas) out << "dp            " << dp_line(*r.ptas) << "\n";
  out << "seconds       " << fixed(r.seconds, 3) << "\n";
  return out.str();
}

namespace {

nlohmann::json table_json(const pcmax::TableRecord& table) {
  nlohmann::json j;
  j["target"] = table.target;
  j["round"] = table.round;
  j["long_jobs"] = table.long_jobs;
  j["classes"] = table.classes;
  j["entries"] = table.entries;
  j["configurations"] = table.configurations;
  j["entry_bytes"] = table.entry_bytes;
  j["feasible"] = table.feasible;
  j["machines_needed"] =
      table.machines_needed ? nlohmann::json(*table.machines_needed) : nlohmann::json(nullptr);
  j["seconds"] = table.report.seconds;
  j["device"] = table.report.device;
  j["blocks"] = table.report.blocks;
  j["window"] = table.report.window;
  return j;
}

nlohmann::json dp_json(const PtasResult& p) {
  const DpTotals t = totals(p);
  nlohmann::json dp;
  dp["tables"] = t.tables;
  dp["targets"] = p.tables.size();
  dp["entries"] = t.entries;
  dp["largest_table"] = t.largest;
  dp["bisection_rounds"] = p.rounds;
  dp["seconds"] = t.seconds;
  dp["per_table"] = nlohmann::json::array();
  for (const auto& table : p.tables) dp["per_table"].push_back(table_json(table));
  return dp;
}

// The PTAS's fields: null without a PTAS, and the guarantee's null for a stopped one.
void add_ptas_fields(nlohmann::json& j, const SolverResult& r) {
  const nlohmann::json none(nullptr);
  const bool ran = r.ptas.has_value();
  const bool complete = ran && r.ptas->complete;
  j["k"] = ran ? nlohmann::json(r.ptas->k) : none;
  j["guarantee"] = complete ? nlohmann::json(1.0 + 1.0 / r.ptas->k) : none;
  j["guarantee_bound"] = complete ? nlohmann::json(static_cast<double>(r.ptas->final_target) *
                                                   (r.ptas->k + 1) / r.ptas->k)
                                  : none;
  j["initial_upper_bound"] = ran ? nlohmann::json(r.ptas->initial_upper_bound) : none;
  j["final_target"] = complete ? nlohmann::json(r.ptas->final_target) : none;
  j["targets_left"] = ran ? nlohmann::json({r.ptas->targets_left.lower, r.ptas->targets_left.upper})
                          : none;
  j["split"] = ran ? nlohmann::json(r.ptas->split) : none;
  j["ptas_makespan"] = ran ? nlohmann::json(r.ptas->schedule.makespan) : none;
  j["dp"] = ran ? dp_json(*r.ptas) : none;
}

nlohmann::json bounds_json(const SolverResult& r) {
  nlohmann::json b;
  b["simple"] = r.bounds.simple;
  b["counting"] = r.bounds.counting;
  b["bin_packing"] = r.bounds.bin_packing;
  b["ptas_target"] = r.ptas_lower_bound > 0 ? nlohmann::json(r.ptas_lower_bound) : nullptr;
  b["exact_search"] = r.exact ? nlohmann::json(r.exact->lower) : nullptr;
  return b;
}

nlohmann::json exact_json(const pcmax::ExactResult& e) {
  nlohmann::json j;
  j["proven"] = e.proven;
  j["lower"] = e.lower;
  j["upper"] = e.upper;
  j["nodes"] = e.nodes;
  j["stopped_because"] = e.proven ? nlohmann::json(nullptr) : nlohmann::json(e.stopped_because);
  j["targets"] = nlohmann::json::array();
  for (const auto& t : e.targets) {
    j["targets"].push_back(
        {{"target", t.target}, {"answer", t.answer}, {"nodes", t.nodes}, {"seconds", t.seconds}});
  }
  return j;
}

}  // namespace

nlohmann::json pcmax_json(const pcmax::PcmaxInstance& instance, const PcmaxRunFacts& facts,
                          const SolverResult& r) {
  nlohmann::json j;
  j["instance"] = instance.name;
  j["jobs"] = instance.jobs();
  j["machines"] = instance.machines;
  j["status"] = pcmax_status(r);
  j["stopped_because"] =
      r.complete ? nlohmann::json(nullptr) : nlohmann::json(facts.stopped_because);
  j["optimal"] = r.proven_optimal();
  j["epsilon"] = facts.epsilon ? nlohmann::json(*facts.epsilon) : nlohmann::json(nullptr);
  add_ptas_fields(j, r);
  j["makespan"] = r.schedule.makespan;
  j["schedule_source"] = r.source;
  j["lower_bound"] = r.bounds.simple;
  j["lower_bounds"] = bounds_json(r);
  j["best_lower_bound"] = r.best_lower_bound;
  j["gap"] = gap(r);
  j["candidates"] = nlohmann::json::array();
  for (const auto& c : r.candidates) {
    j["candidates"].push_back({{"name", c.name}, {"makespan", c.makespan},
                               {"improved", c.improved}, {"seconds", c.seconds}});
  }
  j["exact"] = r.exact ? exact_json(*r.exact) : nlohmann::json(nullptr);
  std::vector<int> machine_of_job;
  std::vector<std::vector<int>> jobs_of_machine(static_cast<std::size_t>(instance.machines));
  for (std::size_t job = 0; job < r.schedule.machine_of_job.size(); ++job) {
    const int machine = r.schedule.machine_of_job[job];
    machine_of_job.push_back(machine + 1);
    jobs_of_machine[machine].push_back(static_cast<int>(job) + 1);
  }
  j["machine_of_job"] = machine_of_job;
  j["jobs_of_machine"] = jobs_of_machine;
  j["loads"] = r.schedule.loads;
  j["engine"] = facts.engine;
  j["threads"] = facts.threads;
  j["time_limit"] = facts.time_limit_seconds;
  j["seconds"] = r.seconds;
  return j;
}

}  // namespace permbb::app
