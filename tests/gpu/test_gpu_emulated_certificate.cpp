// Certificates from the GPU explorer, on the host: the very warp code of the exploration
// kernel records its cut (gpu/warp/warp_cut.cuh) on emulated warps, the host side drains and
// splits the records as GpuEngine does (gpu/engine/device_cut_records.hpp), and the
// independent auditor (audit/) checks the certificate with every explored subproblem
// re-explored. References are brute force, never the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "audited_certificate.hpp"
#include "certificate_support.hpp"
#include "emulated_gpu_engine.hpp"
#include "factoradic_mpz.hpp"
#include "test_support.hpp"

namespace permbb::gpu {
namespace {

const BoundKind kBounds[] = {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb1ThenLb2};
const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};

// How the host drives the search: every `pause_every` rounds it settles and collects the
// records so far (a checkpoint); with `redeal`, it then gives the IVMs the remaining
// intervals anew (a handover, a restart link). `capacity`: the record buffer (0: GpuEngine's).
struct Driving {
  int pause_every = 0;
  bool redeal = false;
  unsigned long long capacity = 0;
};

using testing::failure_of;

struct Certified : testing::AuditedCertificate {
  std::uint64_t decomposed = 0;
  std::uint64_t interruptions = 0;
  std::uint64_t steals = 0;
};

// Each test runs with the rounds' explorer (an exploring pass, then the cut pass) and with the
// persistent explorer (its teams run the cut pass's code where they stop, and share work on
// the device), each with a few chunk lengths.
class GpuEmulatedCertificate : public ::testing::TestWithParam<bool> {
 protected:
  EmulatedGpuConfig config_for(int trial) const {
    EmulatedGpuConfig config;
    config.persistent = GetParam();
    config.chunk_steps = 1 + trial % 3;
    config.chunks = 2 + trial % 4;
    config.max_shares = 1 + trial % 2;
    return config;
  }
};

Certified certify(const Instance& instance, const SearchSettings& settings,
                  const CutRecording& recording, Time ub, const EmulatedGpuConfig& config,
                  const Driving& driving) {
  EmulatedEngine<std::int8_t> engine(instance, settings.branching, ub, config, settings.bound);
  engine.record_cut(recording, driving.capacity);
  engine.set_work({Interval{0, factorial(instance.jobs())}});
  SearchCut cut(recording.depth);
  int rounds = 0;
  while (engine.round()) {
    EXPECT_LT(++rounds, 1000000);
    if (driving.pause_every == 0 || rounds % driving.pause_every != 0) continue;
    engine.settle();
    engine.collect_cut(cut);
    if (driving.redeal) engine.set_work(engine.remaining());
  }
  engine.collect_cut(cut);
  Certified out;
  static_cast<testing::AuditedCertificate&>(out) =
      testing::audit_search(instance, settings, engine.best_schedule(), engine.best(),
                            {engine.decomposed(), engine.leaves()}, cut);
  out.decomposed = engine.decomposed();
  out.interruptions = engine.cut_interruptions();
  out.steals = engine.steals();
  return out;
}

// Every bound the GPU has, every rule, cuts from the root to the leaves' parents, from no
// bound, one above the optimum and at it: the certificate holds, all of it re-explored, and
// claims the brute-force optimum.
TEST_P(GpuEmulatedCertificate, HoldsForEveryBoundRuleAndDepth) {
  std::mt19937 rng(71);
  for (int trial = 0; trial < testing::scaled_trials(9); ++trial) {
    const int n = 5 + trial % 3;
    const Instance instance = testing::random_instance(rng, n, 2 + trial % 4);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    EmulatedGpuConfig config = config_for(trial);
    config.ivms = 1 + trial % 8;
    config.steps = 1 + trial % 4;
    for (const int depth : {0, 1, 2, n - 1}) {
      for (const Time ub : {kInfiniteTime, optimum + 1, optimum}) {
        const Certified c = certify(instance, settings, {depth, {}}, ub, config, {});
        testing::expect_holds_with_claim(c, optimum, ub,
                                         "trial " + std::to_string(trial) + " depth " +
                                             std::to_string(depth) + " ub " + std::to_string(ub));
      }
    }
  }
}

// A thief's start whose last row has every child of both sides at or above LB2's cutoff:
// pruned whatever the direction, which the cut-off bounds chose arbitrarily. Its pruned
// records still take the exact bounds' direction, as the records of the IVM that decomposed
// the node and the audit's rebuild do (once recorded in the direction taken: two sides of
// one node's children, refuted by check 2). The rounds record a start the exploring pass
// made (record_start), where the fault was; the persistent explorer's teams start in the cut
// pass's code, whose rows above D are bounded exactly (fewer trials: its emulated teams take
// turns, four times slower).
TEST_P(GpuEmulatedCertificate, StartsWhoseLastRowIsPrunedRecordTheExactDirection) {
  std::mt19937 rng(75);
  for (int trial = 0; trial < testing::scaled_trials(GetParam() ? 50 : 200); ++trial) {
    const int n = 6;
    const Instance instance = testing::random_instance(rng, n, 4);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{BoundKind::kLb2, kRules[trial % 2]};
    EmulatedGpuConfig config = config_for(trial);
    config.ivms = 8;
    config.steps = 1;
    for (const Time ub : {optimum + 1, optimum}) {
      const Certified c = certify(instance, settings, {n - 1, {}}, ub, config, {});
      testing::expect_holds_with_claim(c, optimum, ub,
                                       "trial " + std::to_string(trial) + " ub " +
                                           std::to_string(ub));
    }
  }
}

// Checkpoints (open records split) and new work dealt to the IVMs (open records closed)
// midway, with stealing between IVMs: records of one node from several IVMs and parts add
// up, and the certificate holds.
TEST_P(GpuEmulatedCertificate, HoldsAcrossCheckpointsAndNewWork) {
  std::mt19937 rng(72);
  std::uint64_t steals = 0;
  for (int trial = 0; trial < testing::scaled_trials(8); ++trial) {
    const int n = 7 + trial % 2;
    const Instance instance = testing::random_instance(rng, n, 3 + trial % 3);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    EmulatedGpuConfig config = config_for(trial);
    config.ivms = 6;
    config.steps = 2;
    for (const Time ub : {kInfiniteTime, optimum}) {
      const Driving driving{3 + trial % 4, trial % 2 == 0, 0};
      const Certified c = certify(instance, settings, {3, {}}, ub, config, driving);
      EXPECT_TRUE(c.audit.holds()) << "trial " << trial << " ub " << ub << ": "
                                   << failure_of(c.audit);
      EXPECT_EQ(c.certificate.upper_bound, optimum);
      steals += c.steals;
    }
  }
  EXPECT_GT(steals, 0u) << "no IVM ever took work from another: the test exercises nothing";
}

// A record buffer with room for one step of every IVM: IVMs stop short (before starting,
// mid-launch, mid-settle), the host drains and goes on. At the optimum the search is the
// same as without recording (the same nodes), and the certificate holds.
TEST_P(GpuEmulatedCertificate, IvmsThatStopShortOfRoomLoseNothing) {
  std::mt19937 rng(73);
  std::uint64_t interruptions = 0;
  for (int trial = 0; trial < testing::scaled_trials(6); ++trial) {
    const int n = 7;
    const Instance instance = testing::random_instance(rng, n, 4);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    EmulatedGpuConfig config = config_for(trial);
    config.ivms = 4;
    config.steps = 5;
    EmulatedEngine<std::int8_t> plain(instance, settings.branching, optimum, config,
                                      settings.bound);
    plain.set_work({Interval{0, factorial(n)}});
    while (plain.round()) {
    }
    const int depth = 2;
    const unsigned long long tight = cut_buffer_size(config.ivms, n, depth, 0).reserve + 1;
    const Certified c =
        certify(instance, settings, {depth, {}}, optimum, config, {4, true, tight});
    EXPECT_TRUE(c.audit.holds()) << "trial " << trial << ": " << failure_of(c.audit);
    EXPECT_EQ(c.decomposed, plain.decomposed()) << "trial " << trial;
    interruptions += c.interruptions;
  }
  EXPECT_GT(interruptions, 0u) << "no IVM ever stopped short: the test exercises nothing";
}

// Split where heavy: nodes below the cut depth in whose subtree an IVM decomposed at least
// a few nodes get records of their own, nested in their depth-D record; parts of nodes
// split by stealing, checkpoints, new work and a buffer that runs short add up. The
// certificate holds with every explored subproblem re-explored, and has nested records.
TEST_P(GpuEmulatedCertificate, SplitWhereHeavyHoldsAcrossStealsAndCheckpoints) {
  std::mt19937 rng(74);
  int nested = 0;
  for (int trial = 0; trial < testing::scaled_trials(8); ++trial) {
    const int n = 7 + trial % 2;
    const Instance instance = testing::random_instance(rng, n, 3 + trial % 3);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    EmulatedGpuConfig config = config_for(trial);
    config.ivms = 1 + trial % 6;
    config.steps = 1 + trial % 3;
    CutRecording recording{1 + trial % 2, {}};
    recording.split_depth = n - 2 - trial % 2;
    recording.split_nodes = 1 + trial % 4;
    const unsigned long long tight =
        cut_buffer_size(config.ivms, n, recording.depth, recording.split_depth).reserve + 1;
    const Driving drivings[] = {{}, {3 + trial % 4, trial % 2 == 0, 0}, {4, true, tight}};
    for (const Time ub : {kInfiniteTime, optimum}) {
      for (const Driving& driving : drivings) {
        const Certified c = certify(instance, settings, recording, ub, config, driving);
        testing::expect_holds_with_claim(c, optimum, ub,
                                         "trial " + std::to_string(trial) + " ub " +
                                             std::to_string(ub) + " pause " +
                                             std::to_string(driving.pause_every));
        nested += testing::nested_records(c.certificate);
      }
    }
  }
  EXPECT_GT(nested, 0) << "no record was split: the test exercises nothing";
}

INSTANTIATE_TEST_SUITE_P(Explorers, GpuEmulatedCertificate, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Persistent" : "Rounds";
                         });

TEST(GpuCutBuffer, RefusesCutsDeeperThanTheGpuRecords) {
  EXPECT_THROW(cut_buffer_size(8, 30, kMaxGpuCutDepth + 1, 0), std::invalid_argument);
  EXPECT_THROW(cut_buffer_size(8, 30, 4, kMaxGpuCutDepth + 1), std::invalid_argument);
  const CutBufferSize size = cut_buffer_size(8, 30, 4, 0);
  EXPECT_EQ(size.reserve, 8u * (5u * 30u + 2u));
  EXPECT_EQ(cut_buffer_size(8, 30, 4, 10).reserve, 8u * (5u * 30u + 2u + 6u));
  EXPECT_GE(size.capacity, 2 * size.reserve);
}

}  // namespace
}  // namespace permbb::gpu
