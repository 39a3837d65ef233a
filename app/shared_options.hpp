#pragma once
// The options several commands share, declared once: their names, defaults, checks and help.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "result_output.hpp"

namespace permbb::app {

// The result writing every command shares (solve/result_output.hpp).
using solve::check_json_destination;
using solve::check_result_destination;
using solve::json_text;
using solve::makespan_or_null;
using solve::one_based;
using solve::OutputOptions;
using solve::write_json_file;
using solve::write_result;

// --json [FILE] (no FILE: standard output), --quiet/-q and --log-level.
void add_output_options(CLI::App& command, OutputOptions& output);

// --progress S: seconds between progress lines on stderr (none with --quiet), for the commands
// that run long.
void add_progress_option(CLI::App& command, double& seconds);

// The most threads an option may ask for: more is a typo, and starting them could exhaust the
// process's thread limit.
constexpr int kMaxThreadsOption = 4096;

// --gpu and --no-gpu, mutually exclusive: they set `choice` to "on" or "off" (it stays as the
// caller initialised it, "auto", when neither is given).
void add_gpu_choice(CLI::App& command, std::string& choice, const std::string& gpu_help,
                    const std::string& no_gpu_help);

// "a|b|c": accepted values as --help lists them.
std::string joined_names(const std::vector<std::string>& names);

// --time-limit S (0: none), checked as a finite S >= 0; `help` says what stops and what the
// result is then.
void add_time_limit_option(CLI::App& command, double& seconds, const std::string& help);

// --threads N with min <= N <= kMaxThreadsOption; `help` says what the threads run (and what
// 0 means, where min is 0).
void add_threads_option(CLI::App& command, int& threads, int min, const std::string& help);

}  // namespace permbb::app
