#pragma once
#include <string>

#include "instance.hpp"
#include "search_settings.hpp"

namespace permbb::solve {

// The bound `--bound auto` stands for on this instance: the one that solved each measured
// instance class fastest (docs/performance.md, "Which bound for which class").
BoundKind recommended_bound(const Instance& instance);

// The bound named on the command line ("auto" resolved by recommended_bound). Throws
// InputError for an unknown name.
BoundKind bound_for(const std::string& name, const Instance& instance);

}  // namespace permbb::solve
