#pragma once
// The result of `permbb pcmax` as text and as JSON (docs/pcmax.md lists the fields).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "pcmax_instance.hpp"
#include "pcmax_solver.hpp"

namespace permbb::app {

struct PcmaxRunFacts {
  std::optional<double> epsilon;  // none: no PTAS (the exact mode alone)
  std::string engine;             // the DP filler's name
  int threads = 0;
  double time_limit_seconds = 0;
  std::string stopped_because = "time limit";  // or a signal's ("stopped by SIGTERM")
};

// "complete" or "incomplete", as the other commands say it.
std::string pcmax_status(const pcmax::SolverResult& r);

std::string format_pcmax_text(const pcmax::PcmaxInstance& instance, const PcmaxRunFacts& facts,
                              const pcmax::SolverResult& r);

nlohmann::json pcmax_json(const pcmax::PcmaxInstance& instance, const PcmaxRunFacts& facts,
                          const pcmax::SolverResult& r);

}  // namespace permbb::app
