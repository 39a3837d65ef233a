#pragma once
// How often a worker may send a checkpoint nobody asked for. Rank 0 serves every message
// alone, and a checkpoint costs it about a quarter of a microsecond per interval (decode,
// synchronize, the reply; measured in docs/scale.md): a GPU worker's 16,384 intervals take
// it about 4 ms. So N workers that each report every P seconds keep it busy
// N x K x 0.25 µs / P of the time. The workers' own periods (30 s, 5 s after steals,
// 2022 §4.2.1) are kept while that stays below a fifth, and stretched beyond: about 17 s at
// 1,024 GPUs, 84 s at 4,096. Only the freshness of the global checkpoint depends on them:
// work moves through handovers (protocol.hpp), which do not wait for a periodic checkpoint.
namespace permbb::cluster {

// The shortest period between unsolicited checkpoints of one of `workers` workers whose
// checkpoints hold `intervals` intervals, in seconds.
double report_period_floor(int workers, int intervals);

}  // namespace permbb::cluster
