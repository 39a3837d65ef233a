#include "result_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "build_info.hpp"
#include "input_error.hpp"

namespace permbb::solve {

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 when there is none
// (stray continuation byte, truncated or overlong sequence, surrogate, above U+10FFFF).
std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  unsigned code = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const unsigned smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool valid = code >= smallest[length] && code <= 0x10FFFF &&
                     !(code >= 0xD800 && code <= 0xDFFF);
  return valid ? length : 0;
}

std::string utf8_escaped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t length = utf8_sequence_length(text, i); length > 0) {
      out.append(text, i, length);
      i += length;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += escaped;
      ++i;
    }
  }
  return out;
}

nlohmann::json utf8_escaped(const nlohmann::json& json) {
  if (json.is_string()) return utf8_escaped(json.get<std::string>());
  if (json.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : json) out.push_back(utf8_escaped(item));
    return out;
  }
  if (json.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : json.items()) out[utf8_escaped(key)] = utf8_escaped(value);
    return out;
  }
  return json;
}

}  // namespace

nlohmann::json makespan_or_null(Time makespan) {
  return makespan == kInfiniteTime ? nlohmann::json(nullptr) : nlohmann::json(makespan);
}

std::string json_text(const nlohmann::json& json, int indent) {
  return utf8_escaped(json).dump(indent);
}

// Opened non-blocking, so that a FIFO without a reader fails at once (ENXIO) instead of
// blocking; blocking again once open (a reader may be slow).
int open_for_writing(const std::string& path, int flags, const std::string& what) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | flags, 0644);
  if (fd < 0) {
    const std::string why = errno == ENXIO ? "a FIFO with no reader" : std::strerror(errno);
    throw InputError(path + ": cannot open for writing " + what + ": " + why);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

void write_json_file(const nlohmann::json& json, const std::string& path) {
  const std::string text = json_text(json) + "\n";
  if (path == "-") {
    std::cout << text << std::flush;
    return;
  }
  write_text_file(path, text, "the JSON result");
}

void write_text_file(const std::string& path, const std::string& text, const std::string& what) {
  const int fd = open_for_writing(path, O_CREAT | O_TRUNC, what);
  const int error = write_all(fd, text);
  ::close(fd);
  if (error != 0) throw InputError(path + ": cannot write " + what + ": " + std::strerror(error));
}

void check_json_destination(const std::string& path) {
  if (path == "-") return;
  check_destination(path, "the JSON result");
}

void check_destination(const std::string& path, const std::string& what) {
  if (path.empty()) return;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    ::close(open_for_writing(path, 0, what));  // no O_TRUNC: the file stays
    return;
  }
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError(path + ": cannot write " + what + " there: " + std::strerror(errno));
  }
}

void check_result_destination(const OutputOptions& output, const std::vector<NamedPath>& inputs) {
  refuse_outputs_naming_inputs({{"--json", output.json_path}}, inputs);
  check_json_destination(output.json_path);
}

std::vector<int> one_based(const std::vector<int>& indices) {
  std::vector<int> out;
  out.reserve(indices.size());
  for (const int index : indices) out.push_back(index + 1);
  return out;
}

nlohmann::json with_build_version(const nlohmann::json& json) {
  nlohmann::json out = json;
  if (out.is_object()) out["permbb_version"] = build_version();
  return out;
}

void write_result(const OutputOptions& output, const std::string& human,
                  const nlohmann::json& json) {
  if (output.json_path != "-") std::cout << human << std::flush;
  if (!output.json_path.empty()) write_json_file(with_build_version(json), output.json_path);
}

}  // namespace permbb::solve
