#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flowshop_types.hpp"
#include "output_paths.hpp"

namespace permbb::solve {

// `json` as text (indented by `indent`, -1: one line). Strings that are not valid UTF-8 (a
// file name is any bytes on Linux) keep their valid parts and show each stray byte as the
// text \xHH, instead of making the dump throw after the result was computed.
std::string json_text(const nlohmann::json& json, int indent = 2);

// A makespan in JSON, null for kInfiniteTime (none found, no bound).
nlohmann::json makespan_or_null(Time makespan);

// Opens `path` for writing (with open(2) `flags` such as O_CREAT | O_APPEND); throws
// InputError naming the file and `what` goes there when it cannot (a FIFO with no reader is
// refused, not waited for). Returns the file descriptor.
int open_for_writing(const std::string& path, int flags, const std::string& what);
// Writes all of `text`; returns 0 or the errno of the failure.
int write_all(int fd, const std::string& text);

// Writes `text` to `path` (replacing it), `what` naming it in the message; throws InputError
// when it cannot (a FIFO with no reader is refused, not waited for).
void write_text_file(const std::string& path, const std::string& text, const std::string& what);

// Throws InputError when `what` could not be written to `path` (a folder, a FIFO with no
// reader, a missing or read-only folder), before the work that makes it. Creates nothing.
void check_destination(const std::string& path, const std::string& what);

// Writes a JSON document to `path`, or to standard output for "-". Throws InputError naming
// the file when it cannot be written (a FIFO with no reader is refused, not waited for).
void write_json_file(const nlohmann::json& json, const std::string& path);

// Throws InputError when the result could not be written to `path` (a folder, a FIFO with no
// reader, a missing or read-only folder): checked before a long run, not after it. Creates
// nothing; does nothing for "" and "-".
void check_json_destination(const std::string& path);

// The output options every command that reports a result shares, alike in all of them.
struct OutputOptions {
  std::string json_path;  // "-": standard output; "": no JSON
  bool quiet = false;
  std::string log_level = "info";
};

// Before a command's work: its --json file names none of its `inputs` (output_paths.hpp) and
// can be written (check_json_destination). Throws InputError.
void check_result_destination(const OutputOptions& output, const std::vector<NamedPath>& inputs);

// `json` with the field "permbb_version" (build_info.hpp: the release and the commit) added
// when it is an object: every JSON result names the build that wrote it.
nlohmann::json with_build_version(const nlohmann::json& json);

// The result: `human` on standard output unless the JSON goes there, `json` to --json's file,
// with the build's version (with_build_version).
void write_result(const OutputOptions& output, const std::string& human,
                  const nlohmann::json& json);

// Indices as the user reads them (jobs, items: 1 to n) from the 0-based ones of the code.
std::vector<int> one_based(const std::vector<int>& indices);

}  // namespace permbb::solve
