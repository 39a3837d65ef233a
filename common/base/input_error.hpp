#pragma once
#include <stdexcept>
#include <string>

namespace permbb {

// The exit status of a run refused for bad input.
inline constexpr int kExitBadInput = 2;
// The exit status of a search that a limit or a signal stopped: its result is incomplete.
inline constexpr int kExitIncomplete = 3;

// Bad input from the user (an instance file, a command-line value, a checkpoint): the
// message is one line that names the place (`file:line: what`), and main() turns it
// into exit status kExitBadInput.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace permbb
