// Tests of SilenceWatch (coordinator/silence_watch.hpp): since when each worker owes the
// coordinator a message, and which workers are silent past --rank-timeout. Times are given,
// not measured: every expectation is exact arithmetic on them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "silence_watch.hpp"

namespace permbb::cluster {
namespace {

const auto kEveryone = [](int) { return true; };

TEST(SilenceWatch, EveryWorkerOwesItsFirstMessageFromTheStart) {
  SilenceWatch watch(3, 10, 100);
  EXPECT_EQ(watch.workers(), 3);
  EXPECT_DOUBLE_EQ(watch.timeout_seconds(), 10);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(2, 107.5), 7.5);
  EXPECT_TRUE(watch.overdue(110, kEveryone).empty());  // exactly the timeout: not yet
  EXPECT_EQ(watch.overdue(110.25, kEveryone), (std::vector<int>{0, 1, 2}));
}

TEST(SilenceWatch, AMessageOrAReplyRestartsTheClock) {
  SilenceWatch watch(3, 10, 0);
  watch.heard(0, 8);
  watch.answered(1, 9);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(0, 12), 4);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(1, 12), 3);
  EXPECT_EQ(watch.overdue(12, kEveryone), (std::vector<int>{2}));
  EXPECT_EQ(watch.overdue(18.5, kEveryone), (std::vector<int>{0, 2}));
  // A time from the past (messages handled out of order) never moves the clock back.
  watch.heard(0, 3);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(0, 12), 4);
}

// A worker waiting for work (hungry) owes nothing however long it waits; once answered it
// owes from the answer, not from its request long ago.
TEST(SilenceWatch, OnlyWorkersThatOweAMessageCanBeOverdue) {
  SilenceWatch watch(2, 10, 0);
  watch.heard(1, 1);  // its request for work; no reply: it waits
  const auto owes = [](int worker) { return worker != 1; };
  EXPECT_EQ(watch.overdue(500, owes), (std::vector<int>{0}));
  watch.answered(1, 500);
  EXPECT_EQ(watch.overdue(505, kEveryone), (std::vector<int>{0}));
  EXPECT_EQ(watch.overdue(510.5, kEveryone), (std::vector<int>{0, 1}));
}

// The coordinator itself stopped for 30 s (or stuck in a slow write): the workers' messages
// wait unread, so that time counts for nobody. Short gaps (the loop's own pace) do count.
TEST(SilenceWatch, GapsInListeningAreLeftOut) {
  SilenceWatch watch(2, 10, 0, 1);
  watch.listening(0.5);
  watch.heard(0, 0.5);
  watch.listening(2);  // a 1.5 s gap: left out
  EXPECT_DOUBLE_EQ(watch.silent_seconds(0, 2), 0);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(1, 2), 0.5);
  watch.listening(2.75);   // within the gap allowed: counted
  watch.listening(32.75);  // 30 s: left out
  EXPECT_DOUBLE_EQ(watch.silent_seconds(0, 32.75), 0.75);
  EXPECT_TRUE(watch.overdue(32.75, kEveryone).empty());
  watch.heard(1, 33);
  for (double t = 33.5; t <= 43; t += 0.5) watch.listening(t);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(0, 43), 11);
  EXPECT_DOUBLE_EQ(watch.silent_seconds(1, 43), 10);
  EXPECT_EQ(watch.overdue(43, kEveryone), (std::vector<int>{0}));
}

TEST(SilenceWatch, RefusesABadTimeoutOrWorker) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double timeout : {0.0, -1.0, nan, inf}) {
    EXPECT_THROW(SilenceWatch(2, timeout, 0), std::invalid_argument) << timeout;
    EXPECT_THROW(SilenceWatch(2, 10, 0, timeout), std::invalid_argument) << timeout;
  }
  SilenceWatch watch(2, 10, 0);
  EXPECT_THROW(watch.heard(2, 1), std::out_of_range);
  EXPECT_THROW(watch.answered(-1, 1), std::out_of_range);
  EXPECT_THROW(static_cast<void>(watch.silent_seconds(5, 1)), std::out_of_range);
}

}  // namespace
}  // namespace permbb::cluster
