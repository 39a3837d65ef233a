#include "steal_policy.hpp"

#include "input_error.hpp"

namespace permbb {

std::string to_string(StealPolicy policy) {
  switch (policy) {
    case StealPolicy::kRing:
      return "ring";
    case StealPolicy::kRandom:
      return "random";
    case StealPolicy::kLargest:
      return "largest";
  }
  return "?";
}

StealPolicy parse_steal_policy(const std::string& name) {
  if (name == "ring") return StealPolicy::kRing;
  if (name == "random") return StealPolicy::kRandom;
  if (name == "largest") return StealPolicy::kLargest;
  throw InputError("unknown steal policy '" + name + "' (expected one of: ring, random, largest)");
}

}  // namespace permbb
