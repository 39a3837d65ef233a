#include "shared_options.hpp"

#include <spdlog/spdlog.h>

#include "cli_numbers.hpp"
#include "input_error.hpp"

namespace permbb::app {

std::string joined_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : "|") + name;
  return out;
}

void refuse_empty_file_names(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    const std::string type = option->get_type_name();
    if (type != kFileType && type != kFolderType) continue;
    for (const std::string& given : option->results()) {
      if (given.empty()) {
        throw InputError(option->get_name() +
                         " '': an empty file name; give a file (or "
                         "leave the option out)");
      }
    }
  }
}

void json_word_as_instance(OutputOptions& output, std::string& instance, bool generated) {
  if (!instance.empty() || generated || output.json_path.empty() || output.json_path == "-") {
    return;
  }
  instance = output.json_path;
  output.json_path = "-";
}

void add_output_options(CLI::App& command, OutputOptions& output) {
  command
      .add_option("--json", output.json_path,
                  "write the machine-readable result to FILE (no FILE or '-': standard output, "
                  "instead of the text; default: the text alone)")
      ->expected(0, 1)
      ->type_name(kFileType)
      ->option_text("[FILE]")
      ->default_str("-");
  command.add_flag("--quiet,-q", output.quiet,
                   "no progress or information lines on stderr: the result, warnings and errors");
  command.add_option("--log-level", output.log_level, "trace|debug|info|warn|error|off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
}

void add_progress_option(CLI::App& command, double& seconds) {
  command.add_option("--progress", seconds, "seconds between progress lines on stderr")
      ->check(number_above(0.0))
      ->capture_default_str();
}

void add_gpu_choice(CLI::App& command, std::string& choice, const std::string& gpu_help,
                    const std::string& no_gpu_help) {
  auto* gpu = command.add_flag_callback(
      "--gpu", [&choice] { choice = "on"; }, gpu_help);
  auto* no_gpu = command.add_flag_callback(
      "--no-gpu", [&choice] { choice = "off"; }, no_gpu_help);
  gpu->excludes(no_gpu);
}

std::string method_group(const std::string& title, const std::string& method) {
  return title + " (--method " + method + ")";
}

void warn_options_of_other_methods(const CLI::App& command, const std::string& method) {
  const std::string mark = "(--method ";
  for (const CLI::Option* option : command.get_options()) {
    const std::string& group = option->get_group();
    const std::size_t at = group.find(mark);
    if (at == std::string::npos || option->count() == 0) continue;
    const std::size_t begin = at + mark.size();
    const std::string own = group.substr(begin, group.find(')', begin) - begin);
    if (own != method) {
      spdlog::warn("{}: only --method {} uses it, not {}: ignored", option->get_name(), own,
                   method);
    }
  }
}

void warn_options_of_unused_group(const CLI::App& command, const std::string& group,
                                  const std::string& why) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_group() == group && option->count() > 0) {
      spdlog::warn("{}: {}: ignored", option->get_name(), why);
    }
  }
}

void add_on_off_flag(CLI::App& command, const std::string& on_name, const std::string& off_name,
                     bool& value, const std::string& help, const std::string& group) {
  auto* on = command.add_flag_callback(
      on_name, [&value] { value = true; }, help);
  auto* off = command.add_flag_callback(
      off_name, [&value] { value = false; }, "the opposite of " + on_name);
  on->excludes(off);
  if (!group.empty()) {
    on->group(group);
    off->group(group);
  }
}

void add_time_limit_option(CLI::App& command, double& seconds, const std::string& help) {
  command.add_option("--time-limit", seconds, help)->check(number_at_least(0.0));
}

void add_threads_option(CLI::App& command, int& threads, int min, const std::string& help) {
  command.add_option("--threads", threads, help)
      ->check(number_in_range(min, kMaxThreadsOption))
      ->capture_default_str();
}

}  // namespace permbb::app
