#pragma once
// Taillard's published instance files (E. Taillard, "Benchmarks for basic scheduling
// problems", EJOR 64, 1993; the files flowshop1.txt ... on his site, also tai20_5.txt ...):
// one or more instances, each as
//
//   number of jobs, number of machines, initial seed, upper bound and lower bound :
//             20           5   873654221        1278        1232
//   processing times :
//    54 83 15 71 77 36 53 38 27 87 76 91 14 29 12 77 32 87 68 94
//    ...                                    (m rows of n times: machine-major)
//
// The header values are read and kept (the seed names the generator's instance; the bounds are
// those the file states) but only the sizes are checked against the data. A row may wrap over
// several lines; blank lines and '#' comments are ignored (without_comments).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flowshop_types.hpp"

namespace permbb {

struct TaillardFileEntry {
  int line = 0;  // where its header starts
  int jobs = 0;
  int machines = 0;
  std::int64_t seed = 0;
  std::int64_t upper_bound = 0;
  std::int64_t lower_bound = 0;
  std::vector<Time> times;  // machine-major, machines * jobs
};

// Whether `text` (comments already removed) starts as a Taillard file: its first word is
// "number" (case-insensitive), which no other instance format starts with.
bool looks_like_taillard_file(std::string_view text);

// Every instance of the file, in order. Throws InputError `path:line: message` for a header,
// a value or a processing time that is missing, malformed or out of range, and for trailing
// text that does not start another instance.
std::vector<TaillardFileEntry> parse_taillard_file(std::string_view text, const std::string& path);

}  // namespace permbb
