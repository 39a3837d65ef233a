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

// X = lo (1 - u (1 - r))^(-1/alpha), r = (lo/(hi+1))^alpha, evaluated as
// lo exp(-log1p(-u (1 - r)) / alpha) with 1 - r = -expm1(alpha ln(lo/(hi+1))): the same
// number, but 1 - r keeps its precision when alpha is small. With pow, r rounds to 1 once
// alpha ln((hi+1)/lo) nears 2^-53, and X then took only the value lo or values far past hi
// (beyond 2^63 too) instead of spreading over [lo, hi+1) like log-uniform.
Duration pareto_time(SplitMix64& rng, Duration low, Duration high, double alpha) {
  const double lo = static_cast<double>(low);
  const double one_minus_r = -std::expm1(alpha * std::log(lo / static_cast<double>(high + 1)));
  const double x = lo * std::exp(-std::log1p(-rng.unit() * one_minus_r) / alpha);
  // X < hi + 1 in exact arithmetic; the clamp only guards the last bits of the rounding, and
  // is done in double so that the conversion to an integer is always defined.
  return static_cast<Duration>(std::clamp(std::floor(x), lo, static_cast<double>(high)));
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
    // Normal, not subnormal: alpha ln((hi+1)/lo) must keep its precision (pareto_time).
    if (!(spec.alpha > 0) || !std::isnormal(spec.alpha)) {
      fail(text, "alpha must be a positive number, at least 2.2251e-308 (a normal double)");
    }
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
