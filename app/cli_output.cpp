#include "cli_output.hpp"

#include <fstream>
#include <iostream>

#include "input_error.hpp"

namespace permbb::app {

void write_json_file(const nlohmann::json& json, const std::string& path) {
  const std::string text = json.dump(2) + "\n";
  if (path == "-") {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot open for writing the JSON result");
  out << text;
  if (!out.flush()) throw InputError(path + ": write failed");
}

std::string joined_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : "|") + name;
  return out;
}

void add_result_options(CLI::App& command, std::string& json_path, bool& quiet,
                        std::string& log_level) {
  command.add_option("--json", json_path,
                     "write a machine-readable result to FILE ('-': standard output)");
  command.add_flag("--quiet", quiet, "only warnings and errors on stderr");
  command.add_option("--log-level", log_level, "trace|debug|info|warn|error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
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

}  // namespace permbb::app
