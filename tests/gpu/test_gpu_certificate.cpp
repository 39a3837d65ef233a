// Certificates from the GPU engine on a device: the exploration kernel records its cut
// (gpu/warp/warp_cut.cuh), GpuEngine drains and splits the records, and the independent
// auditor (audit/) checks the certificate with every explored subproblem re-explored. The
// engine is paused often (short budgets), its records collected at every pause (as a
// checkpoint does) and its work dealt again now and then (as a handover does). References
// are brute force; tests/gpu/test_gpu_emulated_certificate.cpp runs the same warp code on the
// host.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "audited_certificate.hpp"
#include "certificate_support.hpp"
#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "gpu_engine.hpp"
#include "test_support.hpp"

namespace permbb::gpu {
namespace {

const BoundKind kBounds[] = {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb1ThenLb2};
const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};

using testing::failure_of;

struct Certified : testing::AuditedCertificate {
  NodeCounters run;
};

Certified certify(const Instance& instance, const SearchSettings& settings,
                  const CutRecording& recording, Time ub, int ivms, bool redeal) {
  Incumbent incumbent(ub);
  GpuOptions options;
  options.ivms = ivms;
  options.steps_per_launch = 2;
  options.cut = recording;
  GpuEngine engine(instance, settings, incumbent, options);
  engine.set_work({Interval{0, factorial(instance.jobs())}});
  SearchCut cut(recording.depth);
  int pauses = 0;
  while (!engine.explore(std::chrono::microseconds(300))) {
    EXPECT_TRUE(engine.collect_cut(cut));
    if (redeal && ++pauses % 3 == 0) engine.set_work(engine.remaining());
  }
  EXPECT_TRUE(engine.collect_cut(cut));
  Certified out;
  out.run = engine.stats().nodes;
  static_cast<testing::AuditedCertificate&>(out) = testing::audit_search(
      instance, settings, incumbent.permutation(), incumbent.value(), out.run, cut);
  return out;
}

TEST(GpuCertificate, HoldsForEveryBoundRuleDepthAndPause) {
  std::mt19937 rng(81);
  for (int trial = 0; trial < 18; ++trial) {
    const int n = 6 + trial % 4;
    const Instance instance = testing::random_instance(rng, n, 2 + trial % 5);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    for (const int depth : {0, 2, n - 1}) {
      for (const Time ub : {kInfiniteTime, optimum + 1, optimum}) {
        const Certified c = certify(instance, settings, {depth, {}}, ub,
                                    trial % 2 ? 32 : 256, trial % 3 == 0);
        testing::expect_holds_with_claim(c, optimum, ub,
                                         "trial " + std::to_string(trial) + " depth " +
                                             std::to_string(depth) + " ub " + std::to_string(ub));
      }
    }
  }
}

// Split where heavy (docs/audit.md): nodes below the cut in whose subtree an IVM decomposed a
// few nodes get nested records; with stealing on the device, pauses and new work, the parts
// add up and the certificate holds, every explored subproblem re-explored.
TEST(GpuCertificate, SplitWhereHeavyHolds) {
  std::mt19937 rng(83);
  int nested = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 8 + trial % 2;
    const Instance instance = testing::random_instance(rng, n, 3 + trial % 5);
    const Time optimum = testing::brute_force_optimum(instance);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    CutRecording recording{1 + trial % 3, {}};
    recording.split_depth = n - 2;
    recording.split_nodes = 1 + 3 * (trial % 4);
    for (const Time ub : {kInfiniteTime, optimum}) {
      const Certified c =
          certify(instance, settings, recording, ub, trial % 2 ? 32 : 256, trial % 3 == 0);
      testing::expect_holds_with_claim(c, optimum, ub,
                                       "trial " + std::to_string(trial) + " ub " +
                                           std::to_string(ub));
      nested += testing::nested_records(c.certificate);
    }
  }
  EXPECT_GT(nested, 0) << "no record was split: the test exercises nothing";
}

// Recording leaves the search as it is: at the optimum the same nodes as the CPU explorer,
// split where heavy or not.
TEST(GpuCertificate, RecordingKeepsTheNodeCounts) {
  std::mt19937 rng(82);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 9 + trial % 3;
    const Instance instance = testing::random_instance(rng, n, 5 + trial % 10);
    const SearchSettings settings{kBounds[trial % 3], kRules[trial % 5]};
    const Time optimum = testing::sequential_search(instance, settings, kInfiniteTime).best;
    const auto cpu = testing::sequential_search(instance, settings, optimum);
    CutRecording recording{3, {}};
    recording.split_depth = trial % 2 == 0 ? n - 2 : 0;
    recording.split_nodes = 50;
    const Certified c = certify(instance, settings, recording, optimum, 512, trial % 2 == 0);
    EXPECT_TRUE(c.audit.holds()) << "trial " << trial << ": " << failure_of(c.audit);
    EXPECT_EQ(c.run.decomposed, cpu.nodes.decomposed) << "trial " << trial;
    EXPECT_EQ(c.run.leaves, cpu.nodes.leaves) << "trial " << trial;
  }
}

}  // namespace
}  // namespace permbb::gpu
