#pragma once
#include <string>
#include <string_view>

#include "knapsack_instance.hpp"

namespace permbb::knapsack {

// Knapsack instance files, in either of two layouts, told apart by the first line:
//
//   # comments run from '#' to the end of the line; blank lines are ignored
//   n c              the item count (>= 1) and the capacity (>= 0)
//   p_1 w_1          then n lines, one item each: profit and weight, integers >= 1
//   ...
//
// or, as Pisinger's and Jooken, Leyman & De Causmaecker's (2022) instance files are laid out:
//
//   n                the item count alone
//   id_1 p_1 w_1     then n lines: an integer id (not kept: items stay in file order),
//   ...              profit and weight
//   c                then the capacity, the last value of the file
//
// Every error is one line, `path:line: what` (InputError): a missing or surplus value on a
// line, a value that is not an integer or is out of range, a non-positive profit or weight, a
// wrong number of item lines, a missing capacity or values after it, a total profit or
// weight above 2^63 - 1.
KnapsackInstance read_knapsack_file(const std::string& path);

// The same parser over text already in memory; `path` only names it in messages and gives the
// instance's name (its file stem).
KnapsackInstance parse_knapsack_text(std::string_view text, const std::string& path);

// The instance in the file format (a header comment, then `n c` and the items).
std::string format_knapsack_file(const KnapsackInstance& instance);

// The instance in the numbered layout (n, then `id profit weight` with ids from 1, then c),
// which other solvers' drivers read.
std::string format_numbered_knapsack_file(const KnapsackInstance& instance);

}  // namespace permbb::knapsack
