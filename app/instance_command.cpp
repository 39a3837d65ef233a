#include "instance_command.hpp"

#include <iostream>

#include "instance_source.hpp"

namespace permbb::app {

int run_instance(const std::string& spec) {
  const Instance instance = load_instance(spec);
  std::cerr << instance.name() << ": " << instance.jobs() << " jobs x " << instance.machines()
            << " machines, checksum " << instance.checksum() << "\n";
  std::cout << format_plain(instance) << std::flush;
  return 0;
}

}  // namespace permbb::app
