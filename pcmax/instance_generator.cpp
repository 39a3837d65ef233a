#include "instance_generator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>
#include <vector>

#include "input_error.hpp"
#include "splitmix64.hpp"

namespace permbb::pcmax {
namespace {

std::vector<std::string> split_fields(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    fields.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

[[noreturn]] void fail(const std::string& spec, const std::string& what) {
  throw InputError("--generate " + spec + ": " + what);
}

template <class Number>
Number parse_field(const std::string& spec, const std::string& field, const char* what) {
  Number value{};
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty()) {
    fail(spec, std::string(what) + " '" + field + "' is not a valid number");
  }
  return value;
}

Duration uniform_time(SplitMix64& rng, Duration low, Duration high) {
  return low + static_cast<Duration>(rng.below(static_cast<std::uint64_t>(high - low + 1)));
}

Duration pareto_time(SplitMix64& rng, Duration low, Duration high, double alpha) {
  const double lo = static_cast<double>(low);
  const double ratio = std::pow(lo / static_cast<double>(high + 1), alpha);
  const double x = lo * std::pow(1.0 - rng.unit() * (1.0 - ratio), -1.0 / alpha);
  // X < hi + 1 in exact arithmetic; the clamp only guards the last bit of pow.
  return std::clamp(static_cast<Duration>(std::floor(x)), low, high);
}

}  // namespace

GeneratorSpec parse_generator_spec(const std::string& text) {
  const auto fields = split_fields(text);
  GeneratorSpec spec;
  spec.text = text;
  std::size_t expected = 0;
  if (fields[0] == "uniform") {
    spec.kind = GeneratorSpec::Kind::kUniform;
    expected = 6;
  } else if (fields[0] == "pareto") {
    spec.kind = GeneratorSpec::Kind::kPareto;
    expected = 7;
  } else {
    fail(text, "unknown distribution '" + fields[0] +
                   "' (uniform,n,m,lo,hi,seed or "
                   "pareto,n,m,lo,hi,alpha,seed)");
  }
  if (fields.size() != expected) {
    fail(text, "expected " + std::to_string(expected) + " comma-separated fields, found " +
                   std::to_string(fields.size()));
  }
  const auto jobs = parse_field<long long>(text, fields[1], "n");
  const auto machines = parse_field<long long>(text, fields[2], "m");
  spec.low = parse_field<Duration>(text, fields[3], "lo");
  spec.high = parse_field<Duration>(text, fields[4], "hi");
  if (spec.kind == GeneratorSpec::Kind::kPareto) {
    spec.alpha = parse_field<double>(text, fields[5], "alpha");
    if (!(spec.alpha > 0) || !std::isfinite(spec.alpha)) fail(text, "alpha must be positive");
  }
  spec.seed = parse_field<std::uint64_t>(text, fields.back(), "seed");
  if (jobs < 1 || jobs > kMaxJobs) {
    fail(text, "n must be in [1, " + std::to_string(kMaxJobs) + "]");
  }
  if (machines < 1 || machines > kMaxMachines) {
    fail(text, "m must be in [1, " + std::to_string(kMaxMachines) + "]");
  }
  if (spec.low < 1 || spec.high < spec.low || spec.high > kMaxTime) {
    fail(text, "need 1 <= lo <= hi <= " + std::to_string(kMaxTime));
  }
  spec.jobs = static_cast<int>(jobs);
  spec.machines = static_cast<int>(machines);
  return spec;
}

PcmaxInstance generate_instance(const GeneratorSpec& spec) {
  PcmaxInstance instance;
  instance.name = spec.text;
  instance.machines = spec.machines;
  instance.times.reserve(static_cast<std::size_t>(spec.jobs));
  SplitMix64 rng(spec.seed);
  for (int j = 0; j < spec.jobs; ++j) {
    instance.times.push_back(spec.kind == GeneratorSpec::Kind::kUniform
                                 ? uniform_time(rng, spec.low, spec.high)
                                 : pareto_time(rng, spec.low, spec.high, spec.alpha));
  }
  return instance;
}

}  // namespace permbb::pcmax
