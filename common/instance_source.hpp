#pragma once
#include <string>
#include <string_view>

#include "instance.hpp"

namespace permbb {

// Resolves what a user names on the command line: a Taillard name (`ta001`..`ta120`, also
// `ta1`, `ta21`, case-insensitive) is generated; anything else is read as a file, in one of
// three formats told apart by the content:
//   plain: `n m`, then m rows of n times, machine-major (what `permbb instance` writes);
//   VRF:   `n m`, then n rows of m `machine-index time` pairs (Vallada, Ruiz & Framinan);
//   Taillard's published files, one or more instances (taillard_file.hpp).
// `FILE#k` selects the k-th instance (1-based) of a file that holds several; a file with one
// instance takes `FILE` or `FILE#1`. (A file whose own name ends in '#' and digits is read
// whole.) Throws InputError, one line, `file:line: message` for malformed, truncated or
// out-of-range input, and naming the file for a selection out of range.
Instance load_instance(const std::string& spec);

// Reads an instance file (any format; one instance, or a Taillard file that holds one). The
// instance is named after the file's stem.
Instance read_instance_file(const std::string& path);

// The same parser over text already in memory; `path` only names it in messages and gives the
// instance's name (its stem; "stem#k" for the k-th of several). `selected`: the instance of a
// file that holds several (1-based); 0 accepts only a file of one instance.
Instance parse_instance_text(std::string_view text, const std::string& path, int selected = 0);

// Writes the instance in the plain format (what `permbb instance` prints).
std::string format_plain(const Instance& instance);

}  // namespace permbb
