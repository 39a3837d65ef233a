// The scale simulator (tools/scale): its work model counts every node exactly once however the
// space is cut, and a simulated search run through the real coordinator accounts for exactly
// the model's nodes, covers the space, and reports the efficiency its own clock gives.
#include <gtest/gtest.h>

#include <random>

#include "factoradic_mpz.hpp"
#include "local_steals.hpp"
#include "scale_simulation.hpp"
#include "virtual_worker.hpp"
#include "work_model.hpp"

namespace permbb::scale {
namespace {

WorkModel small_model(std::uint64_t nodes, double sigma) {
  WorkModelShape shape;
  shape.jobs = 10;
  shape.nodes = nodes;
  shape.bins = 1000;
  shape.sigma = sigma;
  shape.seed = 3;
  return WorkModel(shape);
}

TEST(WorkModel, CountsAreExactAndMonotoneOverAnyCuts) {
  const WorkModel model = small_model(1'000'003, 2.0);
  EXPECT_EQ(model.nodes_before(0), 0u);
  EXPECT_EQ(model.nodes_before(model.space()), 1'000'003u);
  std::mt19937_64 rng(5);
  std::vector<mpz_class> cuts = {0, model.space()};
  for (int k = 0; k < 200; ++k)
    cuts.push_back(mpz_class(static_cast<unsigned long>(rng() % 3628800)));
  std::sort(cuts.begin(), cuts.end());
  std::uint64_t sum = 0;
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    ASSERT_LE(model.nodes_before(cuts[k - 1]), model.nodes_before(cuts[k]));
    sum += model.nodes_in(cuts[k - 1], cuts[k]);
  }
  EXPECT_EQ(sum, 1'000'003u);
}

TEST(WorkModel, AdvanceStopsAtTheFirstPositionHoldingTheNodes) {
  const WorkModel model = small_model(500'000, 1.0);
  std::mt19937_64 rng(9);
  for (int k = 0; k < 300; ++k) {
    const mpz_class from(static_cast<unsigned long>(rng() % 3000000));
    const std::uint64_t want = rng() % 5000;
    const mpz_class to = model.advance(from, want, model.space());
    ASSERT_GE(model.nodes_in(from, to), want);
    if (to > from) {
      ASSERT_LT(model.nodes_in(from, to - 1), want);
    }
  }
  // Fewer nodes left than asked: the limit.
  EXPECT_EQ(model.advance(0, 600'000, model.space()), model.space());
}

// A cascade (WorkModelShape::cascade) keeps the counts exact, and halving a range by
// permutations moves a share of its nodes within the cascade's spread of one half.
TEST(WorkModel, ACascadeCountsExactlyAndSplitsHalvesWithinItsSpread) {
  WorkModelShape shape;
  shape.jobs = 10;
  shape.nodes = 1'000'000;
  shape.bins = 1024;
  shape.sigma = 0;
  shape.cascade = 0.3;
  const WorkModel model(shape);
  EXPECT_EQ(model.nodes_in(0, model.space()), 1'000'000u);
  const mpz_class half = model.space() / 2;
  const double left = static_cast<double>(model.nodes_in(0, half)) / 1'000'000;
  EXPECT_GE(left, 0.2 - 1e-3);
  EXPECT_LE(left, 0.8 + 1e-3);
  shape.cascade = 0.5;
  EXPECT_THROW(WorkModel{shape}, std::invalid_argument);
}

// The inner cascade (inner_cascade.hpp): bins long enough to be uneven inside, and counts
// that stay exact and monotone over any cuts.
WorkModel inner_model(double spread) {
  WorkModelShape shape;
  shape.jobs = 20;  // 20! positions, bins of about 2^41
  shape.nodes = 5'000'000;
  shape.bins = 1024;
  shape.sigma = 0;
  shape.inner_spread = spread;
  shape.inner_levels = 24;
  shape.seed = 7;
  return WorkModel(shape);
}

// Over 300 random cuts: the counts are monotone and add up to the model's total, and advance
// stops at the first position holding the nodes it was asked for.
void expect_exact_over_cuts(const WorkModel& model) {
  const std::uint64_t total = model.total_nodes();
  EXPECT_EQ(model.nodes_in(0, model.space()), total);
  std::mt19937_64 rng(11);
  std::vector<mpz_class> cuts = {0, model.space()};
  for (int k = 0; k < 300; ++k) {
    mpz_class cut = model.space() * static_cast<unsigned long>(rng() % 1'000'000) / 1'000'000;
    cuts.push_back(cut + static_cast<unsigned long>(rng() % 1000));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.back() = model.space();
  std::uint64_t sum = 0;
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    ASSERT_LE(model.nodes_before(cuts[k - 1]), model.nodes_before(cuts[k]));
    sum += model.nodes_in(cuts[k - 1], cuts[k]);
  }
  EXPECT_EQ(sum, total);
  for (int k = 0; k < 300; ++k) {
    const mpz_class from = cuts[static_cast<std::size_t>(k)];
    const std::uint64_t want = rng() % 20'000;
    const mpz_class to = model.advance(from, want, model.space());
    ASSERT_GE(model.nodes_in(from, to), std::min(want, model.nodes_in(from, model.space())));
    if (to > from) {
      ASSERT_LT(model.nodes_in(from, to - 1), want);
    }
  }
}

TEST(WorkModel, AnInnerCascadeCountsExactlyAndAdvancesToTheFirstPositionHoldingTheNodes) {
  const WorkModel model = inner_model(0.45);
  EXPECT_EQ(model.total_nodes(), 5'000'000u);
  expect_exact_over_cuts(model);
}

// One bin cut into 64 equal ranges: even without the inner cascade (nodes differ by one at
// most), orders of magnitude apart with it (at 0.45, a range's share of its parent's nodes
// lies between 0.05 and 0.95 at each of six levels).
TEST(WorkModel, AnInnerCascadeMakesABinUnevenInside) {
  for (const double spread : {0.0, 0.45}) {
    const WorkModel model = inner_model(spread);
    const mpz_class bin = model.space() / 1024;
    std::uint64_t least = UINT64_MAX;
    std::uint64_t most = 0;
    for (int k = 0; k < 64; ++k) {
      const std::uint64_t nodes = model.nodes_in(bin * k / 64, bin * (k + 1) / 64);
      least = std::min(least, nodes);
      most = std::max(most, nodes);
    }
    if (spread == 0) {
      EXPECT_LE(most - least, 1u);
    } else {
      EXPECT_GT(most, 10 * (least + 1));
    }
  }
}

// Gaps (cascade_gaps.hpp), over the bins and inside them: the counts stay exact, and a bin
// cut into 64 equal ranges has empty ones. Six levels of the inner cascade lie above each
// range; with a gap's chance of 0.3 a level, a range is empty when a gap on its way down
// emptied its side: a chance of 1 - 0.85^6, about 0.62, so that most bins have several.
TEST(WorkModel, GapsLeaveRangesWithoutNodesAndKeepCountsExact) {
  WorkModelShape shape;
  shape.jobs = 20;
  shape.nodes = 5'000'000;
  shape.bins = 1024;
  shape.sigma = 1;
  shape.cascade = 0.1;
  shape.cascade_gaps = 0.3;
  shape.inner_gaps = 0.3;
  shape.inner_levels = 24;
  shape.seed = 7;
  const WorkModel model(shape);
  EXPECT_EQ(model.total_nodes(), 5'000'000u);
  expect_exact_over_cuts(model);
  const mpz_class bin = model.space() / 1024;
  int empty = 0;
  int bins_with_nodes = 0;
  for (int b = 0; b < 1024; ++b) {
    if (model.nodes_in(bin * b, bin * (b + 1)) == 0) continue;
    ++bins_with_nodes;
    for (int k = 0; k < 64; ++k) {
      const mpz_class begin = bin * b + bin * k / 64;
      if (model.nodes_in(begin, bin * b + bin * (k + 1) / 64) == 0) ++empty;
    }
  }
  // The gaps over the bins empty some of them, but not all (a level empties one half).
  EXPECT_GT(bins_with_nodes, 0);
  EXPECT_LT(bins_with_nodes, 1024);
  EXPECT_GT(empty, 64 * bins_with_nodes / 4);
}

// A steal phase: three short pieces full of nodes and one long piece holding few, eight IVMs.
// The mean rule lets the thieves take only from pieces as long as the mean, here the long one:
// one steal. The largest rule gives every thief a victim, the long one first. Either way the
// nodes move with the halves and every position keeps one owner.
TEST(LocalSteals, TheMeanRuleStealsOnlyFromPiecesAsLongAsTheMean) {
  const WorkModel model = small_model(1'000'000, 0);
  const mpz_class space = model.space();
  const mpz_class tenth = space / 10;
  auto pieces_of = [&]() {
    std::vector<Piece> pieces;
    for (int k = 0; k < 3; ++k) {
      const Interval x{tenth * k, tenth * k + 1000};
      pieces.push_back({x, model.nodes_in(x.begin, x.end)});
    }
    const Interval long_one{tenth * 4, space};
    pieces.push_back({long_one, model.nodes_in(long_one.begin, long_one.end)});
    return pieces;
  };
  for (const StealRule rule : {StealRule::kMean, StealRule::kLargest}) {
    std::vector<Piece> pieces = pieces_of();
    std::uint64_t before = 0;
    for (const Piece& p : pieces) before += p.nodes;
    const int steals = steal_phase(pieces, 8, rule, model);
    EXPECT_EQ(steals, rule == StealRule::kMean ? 1 : 4);
    EXPECT_EQ(pieces.size(), 4u + static_cast<std::size_t>(steals));
    std::uint64_t after = 0;
    mpz_class covered = 0;
    for (const Piece& p : pieces) {
      after += p.nodes;
      covered += p.interval.end - p.interval.begin;
      EXPECT_EQ(p.nodes, model.nodes_in(p.interval.begin, p.interval.end));
    }
    EXPECT_EQ(after, before);
    EXPECT_EQ(covered, 3000 + (space - tenth * 4));
    // The long piece was halved by permutations: its left half ends at its middle.
    EXPECT_EQ(pieces[3].interval.end, (tenth * 4 + space) / 2);
  }
}

// The mean rule on a unit with a gap (cascade_gaps.hpp): with gaps at every level of the
// cascade over the bins, all the nodes lie in one bin b. A worker of 16 pieces gets [b, the
// space's end) as two pieces: the first half of b, short and full, and the rest, which holds
// nodes at its start and nothing behind them. Under the mean rule the long piece is the only
// victim (the thieves' halves hold no nodes and are pruned), halved once a phase, until it is
// no longer than the full one: about log2(L / l) phases with 2 of 16 pieces busy, "thin",
// less the few phases that spread the unit over the pieces. The largest rule splits the
// full piece from the first phase. Counts stay exact either way. The thin state ends: a
// fixed layout of nodes holds the mean rule off for a number of phases, not for a time.
TEST(LocalSteals, WithAGapTheMeanRuleKeepsFewerPiecesBusyForAboutLog2OfTheLengthsRatio) {
  WorkModelShape shape;
  shape.jobs = 20;
  shape.nodes = 2'000'000;
  shape.bins = 1024;
  shape.sigma = 0;
  shape.cascade_gaps = 1;
  const mpz_class space = factorial(20);
  const mpz_class bin_length = space / 1024;
  // The first seed whose bin lies in the lower half, so that the long piece is mostly gap.
  for (shape.seed = 1;; ++shape.seed) {
    const WorkModel probe(shape);
    if (probe.nodes_in(0, space / 2) == probe.total_nodes()) break;
  }
  const WorkModel model(shape);
  int bin = 0;
  while (model.nodes_in(bin_length * bin, bin_length * (bin + 1)) == 0) ++bin;
  ASSERT_EQ(model.nodes_in(bin_length * bin, bin_length * (bin + 1)), model.total_nodes());
  const mpz_class middle = bin_length * bin + bin_length / 2;
  const std::vector<Interval> unit = {{bin_length * bin, middle}, {middle, space}};
  const mpz_class ratio = (space - middle) / (middle - bin_length * bin);
  const double rounds = static_cast<double>(mpz_sizeinbase(ratio.get_mpz_t(), 2));
  WorkerModel worker;
  worker.pieces = 16;
  worker.round_seconds = 0.01;
  worker.nodes_per_second = 1e6;  // each piece holds seconds of work: nothing runs dry early
  double thin[2];
  for (const StealRule rule : {StealRule::kMean, StealRule::kLargest}) {
    worker.steal_rule = rule;
    VirtualWorker explorer(model, worker, worker.nodes_per_second);
    explorer.assign(1, unit);
    while (explorer.has_work()) explorer.explore(1.0);
    EXPECT_EQ(explorer.farewell().decomposed, model.total_nodes());
    thin[rule == StealRule::kMean ? 0 : 1] = explorer.thin_seconds();
  }
  EXPECT_GT(thin[0], thin[1]);
  EXPECT_GE(thin[0], (rounds - 4) * worker.round_seconds);
  EXPECT_LE(thin[0], (rounds + 2) * worker.round_seconds + thin[1]);
}

SimulationSettings fixed_service(int workers) {
  SimulationSettings settings;
  settings.workers = workers;
  settings.worker.nodes_per_second = 1e6;
  settings.worker.pieces = 16;
  settings.worker.checkpoint_seconds = 1;
  settings.service.fixed = 1e-5;
  settings.service.per_interval = 1e-6;
  return settings;
}

TEST(ScaleSimulation, EveryNodeOfTheModelIsCountedOnceByTheCoordinator) {
  const WorkModel model = small_model(3'000'000, 2.0);
  for (int workers : {1, 2, 3, 8, 32}) {
    const SimulationResult r = simulate(model, fixed_service(workers));
    EXPECT_EQ(r.nodes, model.total_nodes()) << workers << " workers";
    EXPECT_TRUE(r.coverage_holds) << workers << " workers";
  }
}

TEST(ScaleSimulation, EfficiencyIsTheIdealTimeOverTheSimulatedWallTime) {
  const WorkModel model = small_model(4'000'000, 1.0);
  const SimulationResult one = simulate(model, fixed_service(1));
  // One worker explores 4 M nodes at 1 M/s: 4 s and a few messages' service and tail.
  EXPECT_GE(one.wall_seconds, 4.0);
  EXPECT_LT(one.wall_seconds, 4.2);
  EXPECT_DOUBLE_EQ(one.ideal_seconds, 4.0);
  EXPECT_DOUBLE_EQ(one.efficiency, one.ideal_seconds / one.wall_seconds);
  // Eight workers on units of very unequal cost (sigma 3): the idle ones get work by splits.
  const WorkModel skewed = small_model(40'000'000, 3.0);
  const SimulationResult eight = simulate(skewed, fixed_service(8));
  EXPECT_DOUBLE_EQ(eight.ideal_seconds, 5.0);
  EXPECT_DOUBLE_EQ(eight.efficiency, 5.0 / eight.wall_seconds);
  EXPECT_LE(eight.efficiency, 1.0);
  EXPECT_GT(eight.splits, 0u);
}

// The worker-side costs (pauses per checkpoint and handover, a refill after each new unit, a
// host shared by four) only cost time: every node is still counted once.
TEST(ScaleSimulation, WorkerSideCostsLowerTheEfficiencyAndKeepCountsExact) {
  const WorkModel model = small_model(40'000'000, 2.0);
  const SimulationResult free = simulate(model, fixed_service(4));
  SimulationSettings costly = fixed_service(4);
  costly.worker.checkpoint_pause_seconds = 0.05;
  costly.worker.handover_pause_seconds = 0.05;
  costly.worker.refill_seconds = 0.2;
  costly.worker.host_loss = 0.1;
  const SimulationResult paid = simulate(model, costly);
  EXPECT_EQ(paid.nodes, model.total_nodes());
  EXPECT_TRUE(paid.coverage_holds);
  EXPECT_LT(paid.efficiency, free.efficiency);
  EXPECT_DOUBLE_EQ(shared_host_rate(costly.worker, 4), 1e6 * 0.9);
  EXPECT_DOUBLE_EQ(shared_host_rate(costly.worker, 1), 1e6);
}

// Workers that explore in rounds, with either steal rule, on a work model uneven inside its
// bins: every node is still counted once, and the share of busy pieces is a share.
TEST(ScaleSimulation, WorkersInRoundsCountExactlyWithEitherStealRule) {
  WorkModelShape shape;
  shape.jobs = 20;
  shape.nodes = 20'000'000;
  shape.bins = 1024;
  shape.sigma = 1.5;
  shape.inner_spread = 0.4;
  shape.inner_levels = 24;
  const WorkModel model(shape);
  for (const StealRule rule : {StealRule::kLargest, StealRule::kMean}) {
    SimulationSettings settings = fixed_service(4);
    settings.worker.steal_rule = rule;
    settings.worker.round_seconds = 0.01;
    const SimulationResult r = simulate(model, settings);
    EXPECT_EQ(r.nodes, model.total_nodes());
    EXPECT_TRUE(r.coverage_holds);
    EXPECT_GT(r.mean_busy_share, 0.0);
    EXPECT_LE(r.mean_busy_share, 1.0);
    // A worker whose pieces all run busy explores at the full rate: no faster than 5 s.
    EXPECT_GE(r.wall_seconds, 5.0);
  }
}

// K_max in real IVMs (WorkerModel::reported_ivms): a GiveRequest under H = all intervals
// then halves every piece of the victim, about half its work, where K_max in pieces (16
// pieces of 16 IVMs each) halved one piece of 16: the idle worker comes back for more.
TEST(ScaleSimulation, KMaxInRealIvmsLetsAHandoverMoveHalfTheWork) {
  WorkModelShape shape;
  shape.jobs = 10;
  shape.nodes = 40'000'000;
  shape.bins = 1024;
  shape.sigma = 1;
  shape.cascade = 0.3;  // halves of the space unlike: the worker of the lighter asks early
  const WorkModel model(shape);
  SimulationSettings pieces = fixed_service(2);
  pieces.service.intervals_per_piece = 16;
  SimulationSettings ivms = pieces;
  ivms.worker.reported_ivms = 16 * 16;
  const SimulationResult small = simulate(model, pieces);
  const SimulationResult half = simulate(model, ivms);
  EXPECT_EQ(small.nodes, model.total_nodes());
  EXPECT_EQ(half.nodes, model.total_nodes());
  EXPECT_TRUE(half.coverage_holds);
  EXPECT_GT(small.handovers, 0u);
  EXPECT_LT(half.handovers, small.handovers);
}

// A request that ends a run at once (interrupt_seconds >= 0) spares the hungry workers the
// rest of their victims' slices.
TEST(ScaleSimulation, InterruptedSlicesFeedHungryWorkersSooner) {
  const WorkModel model = small_model(40'000'000, 3.0);
  SimulationSettings waits = fixed_service(8);
  waits.worker.slice_seconds = 0.5;
  SimulationSettings interrupts = waits;
  interrupts.worker.interrupt_seconds = 0.01;
  const SimulationResult slow = simulate(model, waits);
  const SimulationResult fast = simulate(model, interrupts);
  EXPECT_EQ(fast.nodes, model.total_nodes());
  EXPECT_LT(fast.mean_idle_seconds, slow.mean_idle_seconds);
}

TEST(ScaleSimulation, ASlowCoordinatorSaturates) {
  const WorkModel model = small_model(4'000'000, 1.0);
  SimulationSettings slow = fixed_service(16);
  slow.service.fixed = 0.05;  // 50 ms a message: rank 0 cannot keep up with 16 workers
  const SimulationResult r = simulate(model, slow);
  EXPECT_EQ(r.nodes, model.total_nodes());
  EXPECT_GT(r.coordinator_busy, 0.5);
  EXPECT_LT(r.efficiency, simulate(model, fixed_service(16)).efficiency);
}

// Workers whose checkpoints hold 16,384 intervals at 1 µs each (16 ms a message for rank 0)
// and that report only when out of work or asked: rank 0's load is the splits. The flat
// design splits at the victim's checkpoint and moves every interval; here a handover moves
// them all too (H = K), the same work, but costs rank 0 no checkpoint of the victim. Both
// count every node exactly.
TEST(ScaleSimulation, HandoversSpareRankZeroTheVictimsCheckpoints) {
  const WorkModel model = small_model(64'000'000, 2.0);
  SimulationSettings settings = fixed_service(32);
  settings.worker.checkpoint_seconds = 1000;  // no periodic checkpoints in a 2 s search
  settings.service.intervals_per_piece = 1024;
  settings.service.handover = 1e-4;
  settings.design.max_handover_intervals = 16 * 1024;
  SimulationSettings flat = settings;
  flat.design = DesignSettings::flat();
  flat.design.global_checkpoint_seconds = settings.design.global_checkpoint_seconds;
  const SimulationResult with_handovers = simulate(model, settings);
  const SimulationResult without = simulate(model, flat);
  EXPECT_EQ(with_handovers.nodes, model.total_nodes());
  EXPECT_EQ(without.nodes, model.total_nodes());
  EXPECT_TRUE(with_handovers.coverage_holds);
  EXPECT_TRUE(without.coverage_holds);
  EXPECT_GT(with_handovers.handovers, 0u);
  EXPECT_EQ(without.handovers, 0u);
  EXPECT_GT(without.splits, 0u);
  EXPECT_LT(2 * with_handovers.coordinator_busy, without.coordinator_busy);
}

// The workers' periodic checkpoints are stretched with their count (report_cadence.hpp), to
// half the rank timeout at most; the flat design keeps the workers' own period.
TEST(ScaleSimulation, ReportPeriodsStretchWithTheWorkerCount) {
  const WorkModel model = small_model(2'000'000, 1.0);
  SimulationSettings few = fixed_service(2);
  few.service.intervals_per_piece = 1024;  // K = 16 x 1024 = 16,384
  EXPECT_DOUBLE_EQ(simulate(model, few).checkpoint_period_seconds, 1.0);
  SimulationSettings many = few;
  many.workers = 2000;
  many.design.rank_timeout_seconds = 1000;
  // 2000 x 16384 x 0.25 µs / 0.2 = 40.96 s
  EXPECT_NEAR(simulate(model, many).checkpoint_period_seconds, 40.96, 1e-9);
  many.design.rank_timeout_seconds = 40;
  EXPECT_DOUBLE_EQ(simulate(model, many).checkpoint_period_seconds, 20.0);
  many.design = DesignSettings::flat();
  EXPECT_DOUBLE_EQ(simulate(model, many).checkpoint_period_seconds, 1.0);
}

}  // namespace
}  // namespace permbb::scale
