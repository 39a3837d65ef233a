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

}  // namespace permbb::app
