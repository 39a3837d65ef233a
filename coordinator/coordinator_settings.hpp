#pragma once
// CoordinatorSettings: the knobs of the coordinator's work distribution (2022 §4.1.3).
#include <gmpxx.h>

namespace permbb::cluster {

struct CoordinatorSettings {
  // A copy is split for a waiting worker only when its size ||W|| reaches this (at least 1).
  // With 2, the owner of a single-interval unit always keeps a part.
  mpz_class min_split_size = 2;
};

}  // namespace permbb::cluster
