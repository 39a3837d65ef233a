#pragma once
// CoordinatorSettings: the knobs of the coordinator's work distribution (2022 §4.1.3).
#include <gmpxx.h>

namespace permbb::cluster {

struct CoordinatorSettings {
  // A copy is split for a waiting worker only when its size ||W|| reaches this (at least 1).
  // With 2, the owner of a single-interval unit always keeps a part.
  mpz_class min_split_size = 2;
  // H: the most intervals one split or handover moves to a waiting worker (at least 1). A
  // CPU worker's unit (one interval per thread) is below it and is halved whole, as in the
  // paper; a GPU worker's 16,384 are not: moving them all would cost rank 0 about 4 ms a
  // steal, the limit of a flat coordinator (docs/scale.md). The largest H intervals are
  // halved instead (WorkUnit::split), and the GPU's own stealing spreads them.
  int max_handover_intervals = 256;
};

}  // namespace permbb::cluster
