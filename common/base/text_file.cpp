#include "text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "input_error.hpp"

namespace permbb {

// Opened non-blocking, so that a FIFO without a writer is refused at once instead of
// blocking open() (where no signal could stop the process cleanly), and checked to be a
// regular file before reading: a device such as /dev/zero would read without end.
std::string read_file_text(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open file: " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw InputError(path + ": cannot open file: not a regular file");
  }
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno;
      ::close(fd);
      throw InputError(path + ": cannot read file: " + std::strerror(error));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

std::string without_comments(std::string_view text) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) text.remove_prefix(3);
  std::string out;
  out.reserve(text.size());
  bool in_comment = false;
  for (const char c : text) {
    if (c == '\n') in_comment = false;
    if (c == '#') in_comment = true;
    if (!in_comment) out += c;
  }
  return out;
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
