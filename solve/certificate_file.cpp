#include "certificate_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "build_info.hpp"
#include "input_error.hpp"

namespace permbb::solve {
namespace {

std::string time_text(Time t) { return t == kInfiniteTime ? "inf" : std::to_string(t); }

// Jobs are numbered from 1, as in the solve result.
void write_jobs(std::ostream& out, const std::vector<int>& jobs) {
  for (const int job : jobs) out << ' ' << job + 1;
}

void write_header(std::ostream& out, const CertificateContent& c) {
  const Instance& instance = *c.instance;
  out << "permbb-certificate 1\n"
      << "# " << instance.name() << ", written by permbb " << build_version()
      << "; check it with: permbb audit FILE (docs/audit.md)\n"
      << "jobs " << instance.jobs() << " machines " << instance.machines() << '\n';
  char fingerprint[17];
  std::snprintf(fingerprint, sizeof fingerprint, "%016llx",
                static_cast<unsigned long long>(instance.fingerprint()));
  out << "fingerprint " << fingerprint << '\n' << "times\n";
  for (int k = 0; k < instance.machines(); ++k) {
    for (int j = 0; j < instance.jobs(); ++j) out << (j ? " " : "") << instance.time(k, j);
    out << '\n';
  }
  out << "bound " << to_string(c.settings.bound) << '\n'
      << "branching " << to_string(c.settings.branching) << '\n';
  if (c.optimal) {
    out << "claim optimal " << c.upper_bound << '\n' << "schedule";
    write_jobs(out, c.schedule);
    out << '\n';
  } else {
    out << "claim no-schedule-below " << time_text(c.upper_bound) << '\n';
  }
  out << "nodes " << c.run.decomposed << " leaves " << c.run.leaves << '\n';
}

// p BOUND SURPLUS_NODES SURPLUS_LEAVES PREFIX | SUFFIX
// e NODES LEAVES BEST UB_START UB_END PREFIX | SUFFIX
void write_subproblem(std::ostream& out, const CutSubproblem& s) {
  if (s.pruned) {
    out << "p " << time_text(s.bound) << ' ' << s.nodes.decomposed << ' ' << s.nodes.leaves;
  } else {
    out << "e " << s.nodes.decomposed << ' ' << s.nodes.leaves << ' '
        << (s.best == kInfiniteTime ? "-" : std::to_string(s.best)) << ' '
        << time_text(s.ub_start) << ' ' << time_text(s.ub_end);
  }
  write_jobs(out, s.prefix);
  out << " |";
  write_jobs(out, s.suffix);
  out << '\n';
}

}  // namespace

void write_certificate(const std::string& path, const CertificateContent& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw InputError("--certificate " + path + ": cannot write " + temporary + ": " +
                       std::strerror(errno));
    }
    write_header(out, content);
    const CutPartition& cut = content.cut;
    out << "cut depth " << cut.depth << " subproblems " << cut.subproblems.size()
        << " above " << cut.nodes_above_cut << '\n';
    for (const CutSubproblem& s : cut.subproblems) write_subproblem(out, s);
    out << "end\n";
    out.flush();
    if (!out) {
      throw InputError("--certificate " + path + ": writing " + temporary + " failed: " +
                       std::strerror(errno));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw InputError("--certificate " + path + ": cannot rename " + temporary + ": " +
                     std::strerror(errno));
  }
}

}  // namespace permbb::solve
