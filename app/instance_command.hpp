#pragma once
#include <string>

namespace permbb::app {

// `permbb instance NAME|FILE`: prints the instance in the plain format, preceded by a comment
// line with its name and checksum on stderr. Returns the exit status.
int run_instance(const std::string& spec);

}  // namespace permbb::app
