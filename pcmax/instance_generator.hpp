#pragma once
// Seeded random instances, reproducible on every platform (SplitMix64, splitmix64.hpp):
//
//   uniform,n,m,lo,hi,seed        t_j uniform on the integers [lo, hi]: lo + below(hi-lo+1)
//   pareto,n,m,lo,hi,alpha,seed   t_j = floor(X), X bounded Pareto of shape alpha on
//                                 [lo, hi+1): X = lo * (1 - u (1 - (lo/(hi+1))^alpha))^(-1/alpha)
//                                 with u = unit() in [0, 1); so P(t >= x) for x in [lo, hi] is
//                                 ((lo/x)^alpha - r) / (1 - r), r = (lo/(hi+1))^alpha
//
// Jobs are drawn in order j = 1..n, one or more outputs each (below() may redraw). The Pareto
// map uses std::log, exp, expm1 and log1p (instance_generator.cpp says why not pow), correctly
// rounded or within an ulp on IEEE-754 systems: an ulp can only matter when X falls within an
// ulp of an integer.
#include <cstdint>
#include <string>

#include "pcmax_instance.hpp"

namespace permbb::pcmax {

struct GeneratorSpec {
  enum class Kind { kUniform, kPareto } kind = Kind::kUniform;
  int jobs = 0;
  int machines = 0;
  Duration low = 1;
  Duration high = 1;
  double alpha = 1;  // pareto only
  std::uint64_t seed = 0;
  std::string text;  // as given: the generated instance's name
};

// Parses "uniform,n,m,lo,hi,seed" or "pareto,n,m,lo,hi,alpha,seed"; InputError (naming
// --generate and the bad field) otherwise. Needs 1 <= lo <= hi <= kMaxTime, alpha > 0 and
// not subnormal.
GeneratorSpec parse_generator_spec(const std::string& text);

PcmaxInstance generate_instance(const GeneratorSpec& spec);

}  // namespace permbb::pcmax
