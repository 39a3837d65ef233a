#include "knapsack_generator.hpp"

#include <algorithm>
#include <random>

#include "generator_fields.hpp"
#include "input_error.hpp"
#include "portable_random.hpp"

namespace permbb::knapsack {
namespace {

const InstanceClass kClasses[] = {InstanceClass::kUncorrelated, InstanceClass::kWeaklyCorrelated,
                                  InstanceClass::kStronglyCorrelated,
                                  InstanceClass::kInverseStronglyCorrelated,
                                  InstanceClass::kSubsetSum};

// One item (profit, weight) of the class; d = R / 10.
std::pair<std::int64_t, std::int64_t> draw_item(InstanceClass c, std::int64_t range,
                                                std::mt19937_64& engine) {
  const std::int64_t d = range / 10;
  const std::int64_t first = uniform_integer(engine, 1, range);
  switch (c) {
    case InstanceClass::kUncorrelated:
      return {uniform_integer(engine, 1, range), first};
    case InstanceClass::kWeaklyCorrelated:
      return {uniform_integer(engine, std::max<std::int64_t>(1, first - d), first + d), first};
    case InstanceClass::kStronglyCorrelated:
      return {first + d, first};
    case InstanceClass::kInverseStronglyCorrelated:
      return {first, first + d};
    case InstanceClass::kSubsetSum:
      return {first, first};
  }
  throw std::logic_error("draw_item: unknown class");
}

}  // namespace

const std::vector<std::string>& instance_class_names() {
  static const std::vector<std::string> names = {"uncorrelated", "weakly-correlated",
                                                 "strongly-correlated",
                                                 "inverse-strongly-correlated", "subset-sum"};
  return names;
}

std::string to_string(InstanceClass c) {
  return instance_class_names()[static_cast<std::size_t>(c)];
}

InstanceClass parse_instance_class(const std::string& name) {
  for (const InstanceClass c : kClasses) {
    if (to_string(c) == name) return c;
  }
  std::string accepted;
  for (const auto& n : instance_class_names()) accepted += (accepted.empty() ? "" : ", ") + n;
  throw InputError("unknown instance class '" + name + "' (one of: " + accepted + ")");
}

GeneratorSpec parse_generator_spec(const std::string& text) {
  const auto parts = split_spec_fields(text);
  if (parts.size() != 4) {
    throw InputError("--generate " + text + ": expected CLASS,n,R,seed (4 comma-separated fields)");
  }
  GeneratorSpec spec;
  try {
    spec.instance_class = parse_instance_class(parts[0]);
  } catch (const InputError& e) {
    throw InputError("--generate " + text + ": " + e.what());
  }
  const auto items = spec_integer(parts[1], text, "n");
  if (items < 1 || items > kMaxItems) {
    throw InputError("--generate " + text + ": n must be in [1, " + std::to_string(kMaxItems) +
                     "]");
  }
  spec.items = static_cast<int>(items);
  spec.range = spec_integer(parts[2], text, "R");
  if (spec.range < 1 || spec.range > kMaxRange) {
    throw InputError("--generate " + text + ": R must be in [1, 2^60]");
  }
  spec.seed = spec_unsigned(parts[3], text, "seed");
  return spec;
}

std::string to_string(const GeneratorSpec& spec) {
  return to_string(spec.instance_class) + "," + std::to_string(spec.items) + "," +
         std::to_string(spec.range) + "," + std::to_string(spec.seed);
}

KnapsackInstance generate_instance(const GeneratorSpec& spec,
                                   std::optional<std::int64_t> capacity) {
  KnapsackInstance instance;
  instance.name = to_string(spec);
  if (spec.range < 1 || spec.range > kMaxRange || spec.items < 1) {
    throw InputError(instance.name + ": n and R must be positive, R at most 2^60");
  }
  std::mt19937_64 engine(spec.seed);
  instance.profits.reserve(spec.items);
  instance.weights.reserve(spec.items);
  for (int i = 0; i < spec.items; ++i) {
    const auto [profit, weight] = draw_item(spec.instance_class, spec.range, engine);
    instance.profits.push_back(profit);
    instance.weights.push_back(weight);
  }
  validate_instance(instance);  // the totals: n * R may pass 2^63
  instance.capacity = capacity ? *capacity : total_weight(instance) / 2;
  validate_instance(instance);
  return instance;
}

}  // namespace permbb::knapsack
