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

// The type name of every option that names a file (--help shows FILE): refuse_empty_file_names
// finds them by it.
inline constexpr const char* kFileType = "FILE";
inline constexpr const char* kFolderType = "DIR";  // the same for a folder

// Throws InputError for an option of `command` that names a file or a folder (kFileType,
// kFolderType) given as '': an empty name would silently mean no file at all (no checkpoint, no
// JSON, no log).
void refuse_empty_file_names(const CLI::App& command);

// --json [FILE] (no FILE: standard output), --quiet/-q and --log-level.
void add_output_options(CLI::App& command, OutputOptions& output);

// `knapsack --json k.txt` read as `solve --json i.txt` is: CLI11 gives the word after a bare
// --json to the instance when the instance is a required argument (solve, heuristic) but to
// --json when it is optional (knapsack, pcmax: --generate is the other source). With no
// instance otherwise given (`instance` empty, nothing `generated`), the word is the instance
// and the JSON goes to standard output, as in solve: never a JSON result written over it.
void json_word_as_instance(OutputOptions& output, std::string& instance, bool generated);

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

// A setting on by default or off, as two flags: `on_name` sets `value`, `off_name` clears it
// (mutually exclusive). --help shows each plainly, where CLI11's "--on,!--off" form shows
// "{false}" beside them, which reads as if the setting were off. `help` says what the
// setting does and which is the default; `group` the --help section ("": the default one).
void add_on_off_flag(CLI::App& command, const std::string& on_name, const std::string& off_name,
                     bool& value, const std::string& help, const std::string& group = "");

// The --help group of options that one --method alone reads: "Beam search (--method beam)".
std::string method_group(const std::string& title, const std::string& method);

// Names in a warning each option of `command` given from the group of another method than
// `method` (method_group): --ig-* with `heuristic --method beam`, --max-states with
// `knapsack --method bb`, rather than ignoring it silently.
void warn_options_of_other_methods(const CLI::App& command, const std::string& method);

// The same for a --help group that the run does not use at all: each option of `command`
// given from `group` is named in a warning saying `why` ("only the PTAS (--epsilon) uses it").
void warn_options_of_unused_group(const CLI::App& command, const std::string& group,
                                  const std::string& why);

// "a|b|c": accepted values as --help lists them.
std::string joined_names(const std::vector<std::string>& names);

// --time-limit S (0: none), checked as a finite S >= 0; `help` says what stops and what the
// result is then.
void add_time_limit_option(CLI::App& command, double& seconds, const std::string& help);

// --threads N with min <= N <= kMaxThreadsOption; `help` says what the threads run (and what
// 0 means, where min is 0).
void add_threads_option(CLI::App& command, int& threads, int min, const std::string& help);

}  // namespace permbb::app
