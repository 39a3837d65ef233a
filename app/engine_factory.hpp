#pragma once
#include <memory>

#include "incumbent.hpp"
#include "instance.hpp"
#include "search_engine.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"

namespace permbb::app {

// The engine `permbb solve` explores with: the GPU explorer when asked (--gpu) or, by
// default, when this build has CUDA and a device is visible; else the multi-core engine.
// Throws InputError when --gpu is asked for and cannot be honoured.
// `local_rank` (ranks of this node) picks the GPU: ranks share the node's GPUs round-robin.
std::unique_ptr<SearchEngine> make_engine(const SolveOptions& options, const Instance& instance,
                                          const SearchSettings& settings, Incumbent& incumbent,
                                          int local_rank = 0);

}  // namespace permbb::app
