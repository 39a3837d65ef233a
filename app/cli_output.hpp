#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace permbb::app {

// Writes a JSON document to `path`, or to standard output for "-". Throws InputError naming
// the file when it cannot be written.
void write_json_file(const nlohmann::json& json, const std::string& path);

// "a|b|c": accepted values as --help lists them.
std::string joined_names(const std::vector<std::string>& names);

}  // namespace permbb::app
