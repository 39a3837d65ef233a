// Tests of the check of a global checkpoint against the instance and settings of the run
// that loads it: a renamed instance passes, another instance, other machines, another bound
// or branching rule are refused with messages that name both sides, and a stored best whose
// schedule does not make the stored makespan is refused.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "checkpoint_file.hpp"
#include "checkpoint_samples.hpp"
#include "input_error.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::contains;
using testing::small_checkpoint;

TEST(CheckpointValidation, AcceptsTheSameSearchUnderAnotherName) {
  const GlobalCheckpoint c = small_checkpoint();
  EXPECT_NO_THROW(validate_against(c, "ta-small", c.instance_fingerprint, 5, 3, c.settings, "f"));
  EXPECT_NO_THROW(validate_against(c, "renamed", c.instance_fingerprint, 5, 3, c.settings, "f"));
}

TEST(CheckpointValidation, RefusesAnotherInstance) {
  const GlobalCheckpoint c = small_checkpoint();
  const std::string message = testing::input_error_of(
      [&] { validate_against(c, "other", 0xABCDULL, 5, 3, c.settings, "/x/run.ckpt"); });
  EXPECT_TRUE(contains(message, "/x/run.ckpt")) << message;
  EXPECT_TRUE(contains(message, "0x0123456789abcdf0")) << message;  // 0x...cdef + 1
  EXPECT_TRUE(contains(message, "0x000000000000abcd")) << message;
  EXPECT_FALSE(contains(message, "bound")) << message;

  const std::string size = testing::input_error_of(
      [&] { validate_against(c, "ta-small", c.instance_fingerprint, 5, 4, c.settings, "f"); });
  EXPECT_TRUE(contains(size, "3 machines")) << size;
  EXPECT_TRUE(contains(size, "4 machines")) << size;
}

TEST(CheckpointValidation, RefusesOtherSettings) {
  const GlobalCheckpoint c = small_checkpoint();  // lb2, maxsum
  const std::string bound = testing::input_error_of([&] {
    validate_against(c, "ta-small", c.instance_fingerprint, 5, 3,
                     SearchSettings{BoundKind::kLb1, BranchingRule::kMaxSum}, "f");
  });
  EXPECT_TRUE(contains(bound, "bound lb2")) << bound;
  EXPECT_TRUE(contains(bound, "lb1")) << bound;
  EXPECT_FALSE(contains(bound, "instance")) << bound;

  const std::string rule = testing::input_error_of([&] {
    validate_against(c, "ta-small", c.instance_fingerprint, 5, 3,
                     SearchSettings{BoundKind::kLb2, BranchingRule::kMinMin}, "f");
  });
  EXPECT_TRUE(contains(rule, "branching rule maxsum")) << rule;
  EXPECT_TRUE(contains(rule, "minmin")) << rule;
  EXPECT_FALSE(contains(rule, "bound lb")) << rule;
}

TEST(CheckpointValidation, ComparesWithAnInstance) {
  std::mt19937 rng(5);
  const Instance instance = testing::random_instance(rng, 5, 3);
  GlobalCheckpoint c = small_checkpoint();
  c.instance_fingerprint = instance.fingerprint();
  c.best_makespan = testing::naive_makespan(instance, c.best_permutation);
  EXPECT_NO_THROW(validate_against(c, instance, c.settings, "f"));
  const Instance other = testing::random_instance(rng, 5, 3);
  ASSERT_NE(other.fingerprint(), instance.fingerprint());
  EXPECT_THROW(validate_against(c, other, c.settings, "f"), InputError);
}

// A stored best that its schedule does not make would be reported as a proved optimum.
TEST(CheckpointValidation, RefusesABestScheduleThatDoesNotMakeTheStoredMakespan) {
  std::mt19937 rng(5);
  const Instance instance = testing::random_instance(rng, 5, 3);
  GlobalCheckpoint c = small_checkpoint();
  c.instance_fingerprint = instance.fingerprint();
  c.best_makespan = testing::naive_makespan(instance, c.best_permutation) - 1;
  const std::string why =
      testing::input_error_of([&] { validate_against(c, instance, c.settings, "f"); });
  EXPECT_TRUE(contains(why, "its best schedule makes")) << why;
}

}  // namespace
}  // namespace permbb
