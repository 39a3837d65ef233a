#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "heuristic_workers.hpp"
#include "incumbent.hpp"
#include "instance.hpp"
#include "search_engine.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"

namespace permbb::solve {

// The engine `permbb solve` explores with: the GPU explorer when asked (--gpu) or, by
// default, when this build has CUDA and a device is visible; else the multi-core engine.
// Throws InputError when --gpu is asked for and cannot be honoured.
// `local_rank` (ranks of this node) picks the GPU: ranks share the node's GPUs round-robin.
std::unique_ptr<SearchEngine> make_engine(const SolveOptions& options, const Instance& instance,
                                          const SearchSettings& settings, Incumbent& incumbent,
                                          int local_rank = 0);

// The heuristic threads a process runs (--heuristic-threads): the option when >= 0; for -1
// (auto), 0 beside the CPU engine (its explorers already use every core) and, beside the GPU
// engine (one host thread drives the device), this process's share of the cores (`cores`,
// cores_available or worker_cores) minus one per GPU pool and one for the communicator.
int resolve_heuristic_threads(const SolveOptions& options, const std::string& engine_name,
                              int cores);

// Hybridization (2022 §4.2.3): heuristic threads (resolve_heuristic_threads) beside the
// engine, and the promotion of its subproblems to their solution pool between slices; null
// when that resolves to 0 threads. The heuristic seed is --seed + `salt` (one per rank).
// The root beam search (--heuristic-root-beam) is deterministic: only the process with
// `root_beam_here` runs it (a cluster's first worker), so that workers do not repeat it.
// Stops the heuristic threads and logs what they did, with the best schedule of the pool (the
// best the hybridization saw, even when it is above the incumbent's bound: how close the
// heuristics came).
void finish_hybridization(Hybridization& hybrid);

std::unique_ptr<Hybridization> start_hybridization(const SolveOptions& options,
                                                   const Instance& instance, Incumbent& incumbent,
                                                   const std::string& engine_name, int cores,
                                                   std::uint64_t salt = 0,
                                                   bool root_beam_here = true);

}  // namespace permbb::solve
