#pragma once
#include <string>
#include <string_view>

#include "instance.hpp"

namespace permbb {

// Resolves what a user names on the command line: a Taillard name (`ta001`..`ta120`, also
// `ta1`, `ta21`, case-insensitive) is generated; anything else is read as a file, in the
// plain format (`n m`, then m rows of n times, machine-major) or the VRF format (`n m`, then
// n rows of m `machine-index time` pairs), told apart by the content.
// Throws InputError with `file:line: message` for malformed, truncated or out-of-range input.
Instance load_instance(const std::string& spec);

// Reads an instance file (either format). The instance is named after the file's stem.
Instance read_instance_file(const std::string& path);

// The same parser over text already in memory; `path` only names it in messages and gives the
// instance's name (its stem).
Instance parse_instance_text(std::string_view text, const std::string& path);

// Writes the instance in the plain format (what `permbb instance` prints).
std::string format_plain(const Instance& instance);

}  // namespace permbb
