#include "jooken_generator.hpp"

#include <limits>
#include <random>

#include "input_error.hpp"
#include "portable_random.hpp"
#include "wide_arithmetic.hpp"

namespace permbb::knapsack {
namespace {

constexpr std::int64_t kMaxJookenCapacity = std::int64_t{1} << 62;

std::uint64_t power_of_ten(int digits) {
  std::uint64_t scale = 1;
  for (int k = 0; k < digits; ++k) scale *= 10;
  return scale;
}

[[noreturn]] void refuse(const std::string& text, const std::string& what) {
  throw InputError("--generate " + text + ": " + what);
}

}  // namespace

bool is_jooken_spec(const std::string& text) {
  return text.rfind("jooken,", 0) == 0 || text == "jooken";
}

JookenSpec parse_jooken_spec(const std::string& text) {
  const auto parts = split_spec_fields(text);
  if (parts.size() != 8 || parts[0] != "jooken") {
    refuse(text, "expected jooken,n,c,g,f,eps,s,seed (8 comma-separated fields)");
  }
  JookenSpec spec;
  spec.text = text;
  const std::int64_t items = spec_integer(parts[1], text, "n");
  if (items < 1 || items > kMaxItems) {
    refuse(text, "n must be in [1, " + std::to_string(kMaxItems) + "]");
  }
  spec.items = static_cast<int>(items);
  spec.capacity = spec_integer(parts[2], text, "c");
  if (spec.capacity > kMaxJookenCapacity) refuse(text, "c must be at most 2^62");
  const std::int64_t groups = spec_integer(parts[3], text, "g");
  if (groups < 2 || groups > kMaxJookenGroups) {
    refuse(text, "g must be in [2, " + std::to_string(kMaxJookenGroups) + "]");
  }
  spec.groups = static_cast<int>(groups);
  spec.fraction = spec_fraction(parts[4], text, "f");
  spec.epsilon = spec_fraction(parts[5], text, "eps");
  spec.spread = spec_integer(parts[6], text, "s");
  if (spec.spread < 1 || spec.spread > kMaxJookenSpread) refuse(text, "s must be in [1, 2^40]");
  spec.seed = spec_unsigned(parts[7], text, "seed");
  return spec;
}

int jooken_group_size(const JookenSpec& spec) {
  const WideUnsigned small_items = static_cast<WideUnsigned>(spec.items) *
                                   spec.fraction.numerator /
                                   power_of_ten(spec.fraction.digits);
  return (spec.items - static_cast<int>(small_items)) / (spec.groups - 1);
}

// c / 2^(j+1) + c ε = (qa + ra / 2^(j+1)) + (qb + rb / 10^k): the integer parts add, and the
// fractional parts carry one more when ra 10^k + rb 2^(j+1) >= 2^(j+1) 10^k.
std::int64_t jooken_group_base(const JookenSpec& spec, int group) {
  const int shift = group + 1;
  const auto c = static_cast<std::uint64_t>(spec.capacity);
  const std::uint64_t two_power = std::uint64_t{1} << shift;
  const std::uint64_t scale = power_of_ten(spec.epsilon.digits);
  const WideUnsigned c_eps = static_cast<WideUnsigned>(c) * spec.epsilon.numerator;
  const WideUnsigned qa = c >> shift;
  const WideUnsigned ra = c & (two_power - 1);
  const WideUnsigned qb = c_eps / scale;
  const WideUnsigned rb = c_eps % scale;
  const bool carry = ra * scale + rb * two_power >= static_cast<WideUnsigned>(two_power) * scale;
  return static_cast<std::int64_t>(qa + qb + (carry ? 1 : 0));
}

KnapsackInstance generate_jooken_instance(const JookenSpec& spec) {
  KnapsackInstance instance;
  instance.name = spec.text;
  instance.capacity = spec.capacity;
  std::mt19937_64 engine(spec.seed);
  const int per_group = jooken_group_size(spec);
  const auto add_item = [&](std::int64_t base) {
    const std::int64_t profit = uniform_integer(engine, 1, spec.spread);
    const std::int64_t weight = uniform_integer(engine, 1, spec.spread);
    if (base > std::numeric_limits<std::int64_t>::max() - spec.spread) {
      throw InputError(instance.name + ": an item's profit passes 2^63 - 1");
    }
    instance.profits.push_back(base + profit);
    instance.weights.push_back(base + weight);
  };
  for (int group = 0; group + 1 < spec.groups; ++group) {
    const std::int64_t base = jooken_group_base(spec, group);
    for (int k = 0; k < per_group; ++k) add_item(base);
  }
  while (instance.items() < spec.items) add_item(0);
  validate_instance(instance);
  return instance;
}

}  // namespace permbb::knapsack
