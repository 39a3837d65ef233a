#include "text_file.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "input_error.hpp"

namespace permbb {

std::string read_file_text(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw InputError(path + ": cannot open file: " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  const int error = errno;  // e.g. EISDIR: a directory opens but does not read
  std::fclose(file);
  if (failed) throw InputError(path + ": cannot read file: " + std::strerror(error));
  return text;
}

std::string quoted_token(std::string_view text) {
  std::string shown = "'";
  for (std::size_t k = 0; k < text.size() && k < 32; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    shown += std::isprint(c) ? static_cast<char>(c) : '?';
  }
  if (text.size() > 32) shown += "...";
  return shown + "'";
}

}  // namespace permbb
