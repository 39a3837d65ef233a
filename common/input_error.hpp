#pragma once
#include <stdexcept>
#include <string>

namespace permbb {

// Bad input from the user (an instance file, a command-line value, a checkpoint): the
// message is one line that names the place (`file:line: what`), and main() turns it
// into exit status 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace permbb
