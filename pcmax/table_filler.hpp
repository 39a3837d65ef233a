#pragma once
// What fills DP tables: the CPU (cpu_dp.hpp) or the GPU (pcmax/gpu). The PTAS hands a filler
// the tables of one bisection round at once; a filler may compute them concurrently (the GPU
// does, one CUDA stream each) or one after another. A fill that sees a stop (DpWork::control)
// returns early and leaves its tables unfinished.
#include <cstdint>
#include <string>
#include <vector>

#include "dp_problem.hpp"
#include "dp_table.hpp"
#include "run_control.hpp"

namespace permbb::pcmax {

struct FillReport {
  double seconds = 0;        // wall time of this table's fill
  std::string device;        // "cpu", "gpu" or "cpu-fallback"
  std::uint64_t blocks = 1;  // blocks of the partition plan
  std::uint64_t window = 0;  // resident entries (a ring when below the table's size)
  std::string note;          // why a fallback happened, for the log
};

struct DpWork {
  const DpProblem* problem = nullptr;
  DpTable* table = nullptr;  // problem->shape.size() entries of problem->entry_bytes()
  FillReport report;
  // Polled for a stop (the fill then returns with the table unfinished, for the caller to
  // drop) and told the states computed; null: the fill runs to the end.
  RunControl* control = nullptr;
};

class TableFiller {
 public:
  virtual ~TableFiller() = default;
  virtual std::string name() const = 0;  // "cpu" or "gpu"
  virtual int threads() const = 0;       // CPU threads used (0 for the GPU)
  virtual void fill(std::vector<DpWork>& batch) = 0;
};

}  // namespace permbb::pcmax
