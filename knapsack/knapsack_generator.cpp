#include "knapsack_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "generator_fields.hpp"
#include "input_error.hpp"
#include "portable_random.hpp"

namespace permbb::knapsack {
namespace {

using Item = std::pair<std::int64_t, std::int64_t>;  // (profit, weight)

constexpr int kClassCount = static_cast<int>(InstanceClass::kCircle) + 1;
constexpr int kClassicCount = static_cast<int>(InstanceClass::kSubsetSum) + 1;

// floor(sqrt(x)) for 0 <= x < 2^126.
std::int64_t integer_sqrt(unsigned __int128 x) {
  auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(x)));
  while (static_cast<unsigned __int128>(root) * root > x) --root;
  while (static_cast<unsigned __int128>(root + 1) * (root + 1) <= x) ++root;
  return static_cast<std::int64_t>(root);
}

// One item of a class whose items are drawn independently (all but the spanner classes);
// d = R / 10.
Item draw_item(InstanceClass c, std::int64_t range, std::mt19937_64& engine) {
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
    case InstanceClass::kAlmostStronglyCorrelated: {
      const std::int64_t e = range / 500;
      return {uniform_integer(engine, std::max<std::int64_t>(1, first + d - e), first + d + e),
              first};
    }
    case InstanceClass::kMultipleStronglyCorrelated:
      return {first + (first % 6 == 0 ? 3 * range / 10 : 2 * range / 10), first};
    case InstanceClass::kProfitCeiling:
      return {3 * ((first + 2) / 3), first};
    case InstanceClass::kCircle: {
      const auto arc = static_cast<unsigned __int128>(first) * (4 * static_cast<unsigned __int128>(range) - first);
      return {std::max<std::int64_t>(1, 2 * integer_sqrt(arc) / 3), first};
    }
    default:
      break;
  }
  throw std::logic_error("draw_item: not a class of independent items");
}

// The class the two items of a spanner set are drawn from.
std::optional<InstanceClass> spanner_distribution(InstanceClass c) {
  switch (c) {
    case InstanceClass::kUncorrelatedSpanner: return InstanceClass::kUncorrelated;
    case InstanceClass::kWeaklyCorrelatedSpanner: return InstanceClass::kWeaklyCorrelated;
    case InstanceClass::kStronglyCorrelatedSpanner: return InstanceClass::kStronglyCorrelated;
    default: return std::nullopt;
  }
}

// spanner(2, 10) (Pisinger 2005, §4): the items are multiples of a set of two.
std::vector<Item> spanner_items(InstanceClass distribution, int count, std::int64_t range,
                                std::mt19937_64& engine) {
  constexpr int kMultiplierLimit = 10;
  std::array<Item, 2> spanner;
  for (Item& item : spanner) {
    const Item drawn = draw_item(distribution, range, engine);
    item = {std::max<std::int64_t>(1, drawn.first / (kMultiplierLimit + 1)),
            std::max<std::int64_t>(1, drawn.second / (kMultiplierLimit + 1))};
  }
  std::vector<Item> items;
  items.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const Item& base = spanner[static_cast<std::size_t>(uniform_integer(engine, 0, 1))];
    const std::int64_t a = uniform_integer(engine, 1, kMultiplierLimit);
    items.emplace_back(a * base.first, a * base.second);
  }
  return items;
}

const std::vector<std::string>& all_class_names() {
  static const std::vector<std::string> names = {
      "uncorrelated",
      "weakly-correlated",
      "strongly-correlated",
      "inverse-strongly-correlated",
      "subset-sum",
      "almost-strongly-correlated",
      "uncorrelated-spanner",
      "weakly-correlated-spanner",
      "strongly-correlated-spanner",
      "multiple-strongly-correlated",
      "profit-ceiling",
      "circle"};
  return names;
}

}  // namespace

const std::vector<std::string>& instance_class_names() {
  static const std::vector<std::string> names(all_class_names().begin(),
                                              all_class_names().begin() + kClassicCount);
  return names;
}

const std::vector<std::string>& hard_instance_class_names() {
  static const std::vector<std::string> names(all_class_names().begin() + kClassicCount,
                                              all_class_names().end());
  return names;
}

std::string to_string(InstanceClass c) {
  return all_class_names().at(static_cast<std::size_t>(c));
}

InstanceClass parse_instance_class(const std::string& name) {
  for (int c = 0; c < kClassCount; ++c) {
    if (all_class_names()[static_cast<std::size_t>(c)] == name) return static_cast<InstanceClass>(c);
  }
  std::string accepted;
  for (const auto& n : all_class_names()) accepted += (accepted.empty() ? "" : ", ") + n;
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
  std::vector<Item> items;
  if (const auto distribution = spanner_distribution(spec.instance_class)) {
    items = spanner_items(*distribution, spec.items, spec.range, engine);
  } else {
    items.reserve(static_cast<std::size_t>(spec.items));
    for (int i = 0; i < spec.items; ++i) {
      items.push_back(draw_item(spec.instance_class, spec.range, engine));
    }
  }
  instance.profits.reserve(spec.items);
  instance.weights.reserve(spec.items);
  for (const auto& [profit, weight] : items) {
    instance.profits.push_back(profit);
    instance.weights.push_back(weight);
  }
  validate_instance(instance);  // the totals: n * R may pass 2^63
  instance.capacity = capacity ? *capacity : total_weight(instance) / 2;
  validate_instance(instance);
  return instance;
}

}  // namespace permbb::knapsack
